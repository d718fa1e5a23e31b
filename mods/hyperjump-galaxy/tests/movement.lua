-- Segments and impulse movement (T1, T2, I1-I4).
local R = require("rules")

local function game(t) return t:game { scenario = "frontier", seed = 3 } end
local function put(g, id, loc, slot)
  g:edit(function(ctx) ctx:place(id, { location = loc, slot = slot }) end)
end
local function where(g, id) return R.where(g:piece(id)) end
-- Legal now? (g:try would also perform it.)
local function can(g, a)
  local ok, why
  g:edit(function(ctx) ok, why = ctx:legal(a) end)
  return ok, why
end

test("a turn is space, planet, combat, then the next side", function(t)
  local g = game(t)
  local c = g:clock()
  t:eq({ c.round, c.active, c.phase }, { 1, "hegemony", "space" })
  g:end_phase("hegemony")
  t:eq(g:clock().phase, "planet")
  g:end_phase("hegemony")
  t:eq(g:clock().phase, "combat")
  g:end_phase("hegemony")
  c = g:clock()
  t:eq({ c.round, c.active, c.phase }, { 1, "accord", "space" })
  -- Not your turn: the other side's actions are illegal.
  t:falsy(g:try { id = "impulse", side = "hegemony", piece = 2, to = "rime" })
end)

test("impulse between planets of one system", function(t)
  local g = game(t)
  g:act { id = "impulse", side = "hegemony", piece = 4, to = "rime" }
  t:eq({ where(g, 4) }, { "rime", "orbit" })
  -- Troopers aboard travel with the transport.
  t:eq({ where(g, 9) }, { "rime", "orbit" })
  t:eq(g:piece(4).values.stack, "military")
  local ok, why = g:try { id = "impulse", side = "hegemony", piece = 2, to = "vessa_prime" }
  t:falsy(ok)
  t:matches(why, "already in that orbit box")
end)

test("a unit moves at most once per segment", function(t)
  local g = game(t)
  g:act { id = "impulse", side = "hegemony", piece = 2, to = "rime" }
  local ok, why = g:try { id = "impulse", side = "hegemony", piece = 2, to = "vessa_prime" }
  t:falsy(ok)
  t:matches(why, "already moved this segment")
  ok, why = g:try { id = "jump", side = "hegemony", ships = { 2 }, to = "marrow" }
  t:falsy(ok)
  t:matches(why, "already moved this segment")
  -- Its next turn is a new segment.
  for _ = 1, 6 do g:end_phase(g:clock().active) end
  t:eq({ g:clock().round, g:clock().phase }, { 2, "space" })
  g:act { id = "impulse", side = "hegemony", piece = 2, to = "vessa_prime" }
  t:eq({ where(g, 2) }, { "vessa_prime", "orbit" })
end)

test("impulse never leaves the system", function(t)
  local g = game(t)
  local ok, why = g:try { id = "impulse", side = "hegemony", piece = 2, to = "korrin_gate" }
  t:falsy(ok)
  t:matches(why, "stays inside the system")
  ok, why = g:try { id = "impulse", side = "hegemony", piece = 13, to = "rime" }
  t:falsy(ok)
  t:matches(why, "only ships move by impulse")
  ok, why = g:try { id = "impulse", side = "hegemony", piece = 2, to = "vessa" }
  t:falsy(ok)
  t:matches(why, "must be a planet")
end)

test("drift 1 ship moves by impulse to any planet of its system", function(t)
  local g = game(t)
  put(g, 2, "dathe", "drift1")
  put(g, 3, "dathe", "drift1")
  g:act { id = "impulse", side = "hegemony", piece = 2, to = "marrow" }
  g:act { id = "impulse", side = "hegemony", piece = 3, to = "halcyon" }
  t:eq({ where(g, 2) }, { "marrow", "orbit" })
  t:eq({ where(g, 3) }, { "halcyon", "orbit" })
end)

test("a drift 2 ship cannot use impulse", function(t)
  local g = game(t)
  put(g, 2, "dathe", "drift2")
  local ok, why = g:try { id = "impulse", side = "hegemony", piece = 2, to = "marrow" }
  t:falsy(ok)
  t:matches(why, "Drift 2 box must hyperjump")
end)

test("a ship that begins its move in a drift area must leave it", function(t)
  local g = game(t)
  put(g, 2, "dathe", "drift1")
  put(g, 3, "dathe", "drift2")
  local ok, why = g:try { id = "end_phase", side = "hegemony" }
  t:falsy(ok); t:matches(why, "ship 2 is in a drift area")
  g:act { id = "impulse", side = "hegemony", piece = 2, to = "marrow" }
  ok, why = g:try { id = "end_phase", side = "hegemony" }
  t:falsy(ok); t:matches(why, "ship 3 is in a drift area")
  g:act { id = "jump", side = "hegemony", ships = { 3 }, to = "marrow" }
  t:ok((g:try { id = "end_phase", side = "hegemony" }))
end)

test("an empty courier cannot move", function(t)
  local g = game(t)
  t:ok(can(g, { id = "impulse", side = "hegemony", piece = 6, to = "rime" }))
  g:edit(function(ctx)
    ctx:place(7, { location = "vessa_prime", slot = "urban" })
    ctx:set(7, "aboard", 0)
  end)
  local ok, why = g:try { id = "impulse", side = "hegemony", piece = 6, to = "rime" }
  t:falsy(ok)
  t:matches(why, "needs a character aboard")
end)

test("every offered choice is legal", function(t)
  local g = game(t)
  -- Space: impulse to Rime for 6 ships; jumps for 6 single ships and the 5 starships together
  -- to the 5 planets of other systems (35); the courier may join the military stack; end (43).
  -- Planet: 4 troopers, 2 characters and the courier land in 2 environs (14); trooper 13
  -- marches; end (16).
  -- Combat: no enemy near, only the end of the segment.
  for i, want in ipairs({ 43, 16, 1 }) do
    local side = g:clock().active
    local legal = g:legal(side)
    t:eq(#legal, want, "segment " .. i)
    for _, a in ipairs(legal) do t:ok(can(g, a)) end
    g:end_phase(side)
  end
end)
