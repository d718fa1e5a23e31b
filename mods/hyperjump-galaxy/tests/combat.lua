-- Minimal combat and victory (C1, C2, V1).
local R = require("rules")

local function game(t, seed) return t:game { scenario = "frontier", seed = seed or 7 } end
local function put(g, id, loc, slot)
  g:edit(function(ctx)
    ctx:place(id, { location = loc, slot = slot })
    ctx:set(id, "aboard", 0)
  end)
end
local function to_combat(g) g:end_phase("hegemony") g:end_phase("hegemony") end

local function hits(roll)
  local n = 0
  for _, d in ipairs(roll.dice) do if d.value >= 5 then n = n + 1 end end
  return n
end

test("attack rolls a die per fighting unit; 5-6 removes an enemy unit", function(t)
  for seed = 1, 8 do
    local g = game(t, seed)
    put(g, 14, "vessa_prime", "orbit")
    put(g, 15, "vessa_prime", "orbit")
    to_combat(g)
    g:act { id = "attack", side = "hegemony", location = "vessa_prime", slot = "orbit" }
    local rolls = g:rolls()
    t:eq(#rolls, 2)
    -- Accord rolls first (sides sorted by id): 2 warships; Hegemony: 3 warships (transports 0).
    t:eq(#rolls[1].dice, 2)
    t:eq(#rolls[2].dice, 3)
    local accord_hits, hegemony_hits = hits(rolls[1]), hits(rolls[2])
    local accord_left = #R.at(g, "vessa_prime", "orbit", "accord", "starship")
    t:eq(accord_left, math.max(0, 2 - hegemony_hits))
    local hegemony_left = #R.at(g, "vessa_prime", "orbit", "hegemony", "starship")
    t:eq(hegemony_left, math.max(0, 5 - accord_hits))
    -- Casualties in piece order: warship 1 (with the admiral aboard) goes first.
    t:eq(g:piece(1) == nil, accord_hits >= 1)
    t:eq(g:piece(8) == nil, accord_hits >= 1)
    local ok, why = g:try { id = "attack", side = "hegemony", location = "vessa_prime", slot = "orbit" }
    t:falsy(ok)
    if accord_left > 0 and hegemony_left > 0 then t:matches(why, "already attacked") end
  end
end)

test("no combat in drift areas; both sides must be present", function(t)
  local g = game(t)
  to_combat(g)
  -- Put there for the combat segment (a ship that begins the space segment adrift must leave).
  put(g, 2, "korrin", "drift2")
  put(g, 14, "korrin", "drift2")
  local ok, why = g:try { id = "attack", side = "hegemony", location = "korrin", slot = "drift2" }
  t:falsy(ok)
  t:eq(why, "no combat in drift areas")
  ok, why = g:try { id = "attack", side = "hegemony", location = "vessa_prime", slot = "orbit" }
  t:falsy(ok)
  t:matches(why, "both sides need fighting units")
  -- No emergency jump out of a drift area either (no combat there).
  ok = g:try { id = "break_off", side = "hegemony", ships = { 2 }, to = "marrow" }
  t:falsy(ok)
end)

test("ground combat in an environ", function(t)
  local g = game(t)
  put(g, 22, "vessa_prime", "urban")
  to_combat(g)
  g:act { id = "attack", side = "hegemony", location = "vessa_prime", slot = "urban" }
  local rolls = g:rolls()
  t:eq(#rolls, 2)
  t:eq(g:piece(22) == nil, hits(rolls[2]) >= 1)
  t:eq(g:piece(13) == nil, hits(rolls[1]) >= 1)
end)

test("no ground units loses at once", function(t)
  local g = game(t)
  g:edit(function(ctx)
    for id = 22, 26 do ctx:destroy(id) end
  end)
  g:end_phase("hegemony")
  local o = g:outcome()
  t:eq(o.winners, { "hegemony" })
  t:matches(o.reason, "no ground units")
end)

local function play_out(g)
  for _ = 1, 200 do
    if g:outcome() then return g:outcome() end
    g:end_phase(g:clock().acting[1] or g:clock().active)
  end
end

test("holding more targets wins at the turn limit", function(t)
  local g = game(t)
  put(g, 9, "korrin_gate", "urban")
  put(g, 10, "marrow", "hills")
  put(g, 22, "marrow", "urban")
  put(g, 23, "ilex_hold", "forest")
  put(g, 11, "ilex_hold", "forest")
  local o = play_out(g)
  -- Hegemony holds Korrin Gate; Marrow and Ilex Hold are contested.
  t:eq(o.winners, { "hegemony" })
  t:matches(o.reason, "holds 1 target")
  t:eq(g:clock().round, 8)
end)

test("equal holdings at the turn limit are a draw", function(t)
  local g = game(t)
  put(g, 9, "korrin_gate", "urban")
  put(g, 22, "marrow", "seas")
  local o = play_out(g)
  t:eq(o.winners, {})
  t:matches(o.reason, "draw")
end)
