-- The attacker's choices (issue item 18): the section a blast hits through a vertex, the order
-- dice are applied in, and how much of a transfer's power comes from the batteries. Each is a
-- follow-up choice of the acting player, listed so bots and menus can pick it.
local H = require("tests._helpers")
local C = require("combat")
local G = require("geom")

local function range(t, seed)
  local g = t:game { scenario = "range", seed = seed or 1 }
  H.go(g, "red", "weapons")
  return g, H.ship(g, "red"), H.ship(g, "blue")
end

local function listed(g, side, id)
  local out = {}
  for _, a in ipairs(g:legal(side)) do if a.id == id then out[#out + 1] = a end end
  return out
end

local function last_log(g)
  local log = g:log()
  return table.concat(log[#log].events, "\n")
end

---A red level-6 torpedo two hexes from ship `ship` along a vertex line (4 blast dice); returns
---its id and the two sections the blast may hit.
local function torpedo_at_vertex(g, ship)
  local h = ship.hex
  local at = { q = h.q - 1, r = h.r - 1 }
  local sides = G.entry_sides(at, h)
  local round = g:clock().round
  local id
  g:edit(function(ctx)
    id = ctx:create { type = "torpedo", owner = "red", hex = at, facing = 0,
      values = { level = 6, integrity = 1, launched_round = round, from = 3 } }
  end)
  local secs = {}
  for i, hs in ipairs(sides) do secs[i] = G.section_of_side(ship.facing, hs) end
  table.sort(secs)
  return id, secs
end

test("blast through a vertex: the attacker chooses the section before the dice are rolled", function(t)
  local g, _, blue = range(t)
  local tid, secs = torpedo_at_vertex(g, blue)
  t:eq(#secs, 2, "the line meets the ship at a vertex")
  g:act { id = "detonate", side = "red", torpedo = tid }
  t:eq(#H.dice(g), 0, "no dice before the section is chosen")
  local asked = listed(g, "red", "choose_section")
  t:eq(#asked, 2)
  local got = { asked[1].section, asked[2].section } ---@type integer[]
  table.sort(got)
  t:eq(got, secs)
  t:eq(#listed(g, "red", "aim"), 0, "nothing else until the choice is made")
  local ok, why = g:try { id = "end_phase", side = "red" }
  t:falsy(ok); t:matches(why, "choose")
  ok, why = g:try { id = "choose_section", side = "red", section = 7 }
  t:falsy(ok)
  g:act { id = "choose_section", side = "red", section = secs[2] }
  t:eq(#H.dice(g), 4, "then the blast rolls its 4 dice")
  t:matches(last_log(g), "section " .. secs[2])
  t:eq(g:global("resolving"), false)
end)

test("greedy: a blast through a vertex hits the enemy's weaker section and its own ship's stronger one", function(t)
  for _, who in ipairs({ "blue", "red" }) do
    local g, red, blue = range(t)
    local target = (who == "blue") and blue or red
    local tid, secs = torpedo_at_vertex(g, target)
    -- Weaken the first of the two sections: no shield charge, armour at 1.
    g:edit(function(ctx)
      local v = ctx:piece(target.id).values
      for i, c in ipairs(v.comps) do
        if c.kind == "shield" and c.section == secs[1] then ctx:set(target.id, { "comps", i, "charge" }, 0) end
      end
      ctx:set(target.id, { "hull", secs[1] }, 1)
    end)
    g:act { id = "detonate", side = "red", torpedo = tid }
    local a = g:bot("greedy", "red")
    t:eq(a.id, "choose_section")
    t:eq(a.section, (who == "blue") and secs[1] or secs[2], who)
  end
end)

test("dice order: when it changes the damage, the attacker chooses it after the roll", function(t)
  local asked, plain = 0, 0
  for seed = 1, 40 do
    local g, red, blue = range(t, seed)
    -- Blue's front shield (section 1) at charge 1: a 1 can hurt it, and then it passes on to
    -- the armour (defence 2) only when the high dice go first.
    g:edit(function(ctx) ctx:set(blue.id, { "comps", 2, "charge" }, 1) end)
    g:act { id = "aim", side = "red", ship = red.id, weapon = 1, target = blue.id, hexside = 3, strength = 4 }
    g:act { id = "confirm", side = "red" }
    local dice = H.dice(g)
    t:eq(#dice, 4)
    local ones, high = 0, 0
    for _, d in ipairs(dice) do if d == 1 then ones = ones + 1 else high = high + 1 end end
    if ones > 0 and high > 0 then
      asked = asked + 1
      local orders = listed(g, "red", "dice_order")
      t:eq(#orders, 2)
      t:eq(g:piece(blue.id).values.hull[1], 4, "nothing applied before the choice")
      local ok, why = g:try { id = "end_phase", side = "red" }
      t:falsy(ok); t:matches(why, "choose")
      t:eq(g:bot("greedy", "red").order, "lowest_first", "greedy does the most damage to an enemy")
      g:act { id = "dice_order", side = "red", order = "highest_first" }
      local v = g:piece(blue.id).values
      t:eq(v.comps[2].charge, 0)
      t:eq(v.hull[1], 4 - (high - 1), "the 1s reach the armour and are discarded there")
    else
      plain = plain + 1
      t:eq(#listed(g, "red", "dice_order"), 0, "no choice when every order does the same")
    end
  end
  t:ok(asked > 0, "some seed rolls a 1 with higher dice")
  t:ok(plain > 0, "some seed does not")
end)

test("dice order: highest first is never better and lowest first never worse (pure)", function(t)
  local layers = { { defence = 1, integrity = 1 }, { defence = 2, integrity = 4 }, { defence = 2, integrity = 4 } }
  t:eq(C.resolve(layers, { 1, 5, 1, 3 }, "lowest_first").damage, { 1, 2, 0 })
  t:eq(C.resolve(layers, { 1, 5, 1, 3 }, "highest_first").damage, { 1, 1, 0 })
end)

local function powering(t)
  local g = t:game { scenario = "range", seed = 5 }
  H.go(g, "red", "movement")
  local red = H.ship(g, "red")
  for _ = 1, 4 do g:act { id = "forward", side = "red", ship = red.id, evade = 0 } end -- engines 6 -> 2
  g:end_phase("red")
  return g, red
end

test("batteries: the player says how much of a transfer comes from the batteries", function(t)
  local g, red = powering(t)
  g:act { id = "transfer", side = "red", ship = red.id, crew = 1, comp = 7, amount = 3 }
  t:eq(g:piece(red.id).values.comps[7].charge, 0, "nothing moves before the answer")
  local opts = listed(g, "red", "from_batteries")
  local amounts = {}
  for _, a in ipairs(opts) do amounts[#amounts + 1] = a.battery end
  table.sort(amounts)
  t:eq(amounts, { 0, 1, 2, 3 })
  t:eq(#listed(g, "red", "transfer"), 0)
  local ok, why = g:try { id = "end_phase", side = "red" }
  t:falsy(ok); t:matches(why, "batter")
  t:eq(g:bot("greedy", "red").battery, 0, "greedy spends generator power first (it is lost anyway)")
  g:act { id = "from_batteries", side = "red", battery = 2 }
  local s = g:piece(red.id).values
  t:eq(s.comps[7].charge, 3); t:eq(s.comps[14].charge, 2); t:eq(s.pool, 7)
  -- Said at once with the transfer:
  g:act { id = "transfer", side = "red", ship = red.id, crew = 2, comp = 9, amount = 2, battery = 1 }
  s = g:piece(red.id).values
  t:eq(s.comps[14].charge, 1); t:eq(s.pool, 6)
  ok, why = g:try { id = "transfer", side = "red", ship = red.id, crew = 3, comp = 1, amount = 1, battery = 2 }
  t:falsy(ok); t:matches(why, "batter")
end)
