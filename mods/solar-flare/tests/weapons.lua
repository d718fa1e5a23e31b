-- Weapons phase: beams (arc, line of attack, nebulae, hit location, confirm/cancel, once a round)
-- and torpedoes (launch, steering limits, asteroids, blasts, chain reactions, forced detonation).
local H = require("tests._helpers")
local C = require("combat")
local DES = require("design")
local DESIGNS = require("designs")

local function range(t, seed)
  local g = t:game { scenario = "range", seed = seed or 1 }
  H.go(g, "red", "weapons")
  return g, H.ship(g, "red"), H.ship(g, "blue")
end

test("beam: aim shows the plan, confirm rolls strength dice against the hit section", function(t)
  local g, red, blue = range(t)
  g:act { id = "aim", side = "red", ship = red.id, weapon = 1, target = blue.id, hexside = 3, strength = 4 }
  local plan = g:global("pending")
  t:eq(plan.dice, 4); t:eq(plan.section, 1); t:eq(plan.nebulae, 0)
  t:eq(g:piece(red.id).values.comps[1].charge, 4) -- nothing spent before confirming
  g:act { id = "confirm", side = "red" }
  local dice = H.dice(g)
  t:eq(#dice, 4)
  local expect = DES.build(DESIGNS.lancer, "lancer")
  C.damage_ship(expect, 1, dice)
  local b = g:piece(blue.id).values
  t:eq(b.comps[2].charge, assert(expect.comps[2]).charge)
  t:eq(b.hull, expect.hull)
  t:eq(g:piece(red.id).values.comps[1].charge, 0)
end)

test("beam: illegal aims and their reasons", function(t)
  local g, red, blue = range(t)
  local ok, why = g:try { id = "aim", side = "red", ship = red.id, weapon = 3, target = blue.id, hexside = 3, strength = 1 }
  t:falsy(ok); t:matches(why, "outside the weapon's arc")
  ok, why = g:try { id = "aim", side = "red", ship = red.id, weapon = 1, target = blue.id, hexside = 2, strength = 1 }
  t:falsy(ok); t:matches(why, "through that hexside")
  ok, why = g:try { id = "aim", side = "red", ship = red.id, weapon = 1, target = blue.id, hexside = 3, strength = 5 }
  t:falsy(ok); t:matches(why, "holds only 4")
  ok, why = g:try { id = "aim", side = "red", ship = red.id, weapon = 2, target = blue.id, hexside = 3, strength = 1 }
  t:falsy(ok); t:matches(why, "not a beam")
  ok, why = g:try { id = "confirm", side = "red" }
  t:falsy(ok); t:matches(why, "no attack is declared")
  ok, why = g:try { id = "aim", side = "blue", ship = blue.id, weapon = 1, target = red.id, hexside = 0, strength = 1 }
  t:falsy(ok)
end)

test("beam: fires once a round with part of its charge", function(t)
  local g, red, blue = range(t)
  g:act { id = "aim", side = "red", ship = red.id, weapon = 1, target = blue.id, hexside = 3, strength = 2 }
  g:act { id = "confirm", side = "red" }
  t:eq(g:piece(red.id).values.comps[1].charge, 2)
  local ok, why = g:try { id = "aim", side = "red", ship = red.id, weapon = 1, target = blue.id, hexside = 3, strength = 1 }
  t:falsy(ok); t:matches(why, "already fired this round")
end)

test("beam: cancel drops the plan; end of phase waits for confirm or cancel", function(t)
  local g, red, blue = range(t)
  g:act { id = "aim", side = "red", ship = red.id, weapon = 1, target = blue.id, hexside = 3, strength = 4 }
  local ok, why = g:try { id = "end_phase", side = "red" }
  t:falsy(ok); t:matches(why, "confirm or cancel")
  g:act { id = "cancel", side = "red" }
  t:eq(g:global("pending"), false)
  t:eq(g:piece(red.id).values.comps[1].charge, 4)
  t:ok((g:try { id = "aim", side = "red", ship = red.id, weapon = 1, target = blue.id, hexside = 3, strength = 4 }))
end)

test("beam: planets, moons, ships and torpedoes block; nebulae cost a die each", function(t)
  local g, red, blue = range(t)
  H.terrain(g, { { { q = 0, r = 0 }, "planet" } })
  local ok, why = g:try { id = "aim", side = "red", ship = red.id, weapon = 1, target = blue.id, hexside = 3, strength = 4 }
  t:falsy(ok); t:matches(why, "blocked")
  H.terrain(g, { { { q = 0, r = 0 }, "moon" } })
  ok = g:try { id = "aim", side = "red", ship = red.id, weapon = 1, target = blue.id, hexside = 3, strength = 4 }
  t:falsy(ok)
  H.terrain(g, { { { q = 0, r = 0 }, "nebula" }, { { q = 0, r = 1 }, "nebula" } })
  g:act { id = "aim", side = "red", ship = red.id, weapon = 1, target = blue.id, hexside = 3, strength = 4 }
  t:eq(g:global("pending").dice, 2)
  g:act { id = "cancel", side = "red" }
  g:edit(function(ctx) ctx:create { type = "torpedo", owner = "blue", hex = { q = 0, r = -1 }, facing = 0, values = { level = 2, integrity = 1, launched_round = 1 } } end)
  ok, why = g:try { id = "aim", side = "red", ship = red.id, weapon = 1, target = blue.id, hexside = 3, strength = 4 }
  t:falsy(ok); t:matches(why, "blocked")
end)

test("beam: at a vertex the attacker names either hexside; the choices list both", function(t)
  local g, _, blue = range(t)
  g:edit(function(ctx) ctx:move(blue.id, { q = 1, r = 1 }, 0) end)  -- on the ray through red's front vertex
  local sides = {}
  for _, a in ipairs(g:legal("red")) do
    if a.id == "aim" and a.target == blue.id and a.weapon == 1 and a.strength == 1 then sides[#sides + 1] = a.hexside end
  end
  table.sort(sides)
  t:eq(sides, { 3, 4 })
end)

local function face_blue(g, red)
  g:edit(function(ctx) ctx:move(red.id, { q = 0, r = 3 }, 3) end) -- rear (section 4) now faces N
end

test("torpedo: launched into the hex beyond its section, facing away; needs 3 charges", function(t)
  local g, red = range(t)
  face_blue(g, red)
  g:act { id = "launch", side = "red", ship = red.id, weapon = 11 }
  local tp = H.torp(g, "red")
  t:eq(tp.hex, { q = 0, r = 2 }); t:eq(tp.facing, 0); t:eq(tp.values.level, 3)
  t:eq(g:piece(red.id).values.comps[11].charge, 0)
  local ok, why = g:try { id = "launch", side = "red", ship = red.id, weapon = 11 }
  t:falsy(ok); t:matches(why, "needs 3 charges")
end)

test("torpedo: 6 movement points a round, at most 2 hexside turns", function(t)
  local g, red = range(t)
  face_blue(g, red)
  g:act { id = "launch", side = "red", ship = red.id, weapon = 11 }
  local id = H.torp(g, "red").id
  g:act { id = "torpedo_turn", side = "red", torpedo = id, turn = 1 }
  g:act { id = "torpedo_turn", side = "red", torpedo = id, turn = -1 }
  local ok, why = g:try { id = "torpedo_turn", side = "red", torpedo = id, turn = 1 }
  t:falsy(ok); t:matches(why, "at most 2 hexsides")
  for _ = 1, 4 do g:act { id = "torpedo_move", side = "red", torpedo = id, evade = 0 } end
  t:eq(g:piece(id).hex, { q = 0, r = -2 })
  ok, why = g:try { id = "torpedo_move", side = "red", torpedo = id, evade = 0 }
  t:falsy(ok); t:matches(why, "no movement points")
end)

test("torpedo: blast of its level minus 1 per hex, into a ship and by chain reaction", function(t)
  -- Red's level-3 torpedo blasts blue's ship 1 hex away (2 dice) and blue's level-6 torpedo 2
  -- hexes away (1 die). Where that die destroys blue's torpedo, it detonates in turn.
  local chained, survived = false, false
  for seed = 1, 40 do
    local g = range(t, seed)
    g:edit(function(ctx)
      ctx:create { type = "torpedo", owner = "red", hex = { q = 0, r = -2 }, facing = 0, values = { level = 3, integrity = 1, launched_round = 1, from = 3 } }
      ctx:create { type = "torpedo", owner = "blue", hex = { q = 2, r = -2 }, facing = 0, values = { level = 6, integrity = 1, launched_round = 1, from = 3 } }
    end)
    local mine, theirs = H.torp(g, "red").id, H.torp(g, "blue").id
    g:act { id = "detonate", side = "red", torpedo = mine }
    t:eq(g:piece(mine), nil)
    local log = g:log()
    local lines = table.concat(log[#log].events, "\n")
    local second = lines:find(("torpedo %d detonates"):format(theirs), 1, true) ~= nil
    if g:piece(theirs) == nil then
      chained = true
      t:ok(second, "a torpedo destroyed by a blast detonates: " .. lines)
      t:ok(#H.dice(g) > 3, "its blast rolls dice of its own")
    else
      survived = true
      t:falsy(second)
      t:eq(#H.dice(g), 3)
    end
  end
  t:ok(chained, "some seed destroys the second torpedo")
  t:ok(survived, "some seed leaves it")
end)

test("torpedo: one fired last round must detonate or disarm before the weapons phase ends", function(t)
  local g, red = range(t)
  face_blue(g, red)
  g:act { id = "launch", side = "red", ship = red.id, weapon = 11 }
  t:ok((g:try { id = "end_phase", side = "red" })) -- g:try performs a legal action
  H.go(g, "red", "weapons")
  local id = H.torp(g, "red").id
  local ok, why = g:try { id = "end_phase", side = "red" }
  t:falsy(ok); t:matches(why, "detonate or disarm")
  g:act { id = "disarm", side = "red", torpedo = id }
  t:eq(g:piece(id), nil)
  t:ok((g:try { id = "end_phase", side = "red" }))
end)

test("torpedo: an eliminated player's torpedoes still expire after their two rounds", function(t)
  local g = range(t)
  local R = require("rules")
  local round = g:clock().round
  local old, new
  g:edit(function(ctx)
    old = ctx:create { type = "torpedo", owner = "blue", hex = { q = 2, r = -2 }, facing = 0,
      values = { level = 3, integrity = 1, launched_round = round - 1, from = 3 } }
    new = ctx:create { type = "torpedo", owner = "blue", hex = { q = 3, r = -2 }, facing = 0,
      values = { level = 3, integrity = 1, launched_round = round, from = 3 } }
    ctx:eliminate("blue")
    -- What the end of red's weapons phase does (blue never has one again).
    R.expire_torpedoes(ctx, { "red" })
  end)
  t:eq(g:piece(old), nil)
  t:ok(g:piece(new), "a torpedo in its first round stays")
end)

test("torpedo: asteroids attack with 6 dice less the movement points spent", function(t)
  local g, red = range(t)
  face_blue(g, red)
  H.terrain(g, { { { q = 0, r = 1 }, "asteroid" } })
  g:act { id = "launch", side = "red", ship = red.id, weapon = 11 }
  local id = H.torp(g, "red").id
  g:act { id = "torpedo_move", side = "red", torpedo = id, evade = 4 }
  t:eq(#H.dice(g) >= 2, true)
  local p = g:piece(id)
  if p then t:eq(p.values.mp, 1) end
end)
