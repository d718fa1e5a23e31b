-- Orbits: declared by a ship that starts its move next to a planet; speed 0; one hex around
-- the planet per turn in a fixed direction; free rotation; full MR when leaving.
-- Duel scenario: planet at (0,0); ship 1 is Blue's frigate.
local mv = require("movement")

local function place(g, id, h, f, speed)
  g:edit(function(ctx)
    ctx:move(id, h, f)
    ctx:set(id, "speed", speed)
    ctx:set(id, "new_speed", -1)
    ctx:set(id, "moved", false)
    ctx:set(id, "orbit", false)
  end)
end

-- Ready ship `id` for another move without playing the other side's half.
local function next_turn(g, id)
  g:edit(function(ctx)
    ctx:set(id, "new_speed", -1)
    ctx:set(id, "moved", false)
    ctx:set(id, "free_rot", false)
  end)
end

local PLANET = { q = 0, r = 0 }

test("worked example: an orbit returns to its start hex after six turns, either way", function(t)
  for _, dir in ipairs({ "cw", "ccw" }) do
    local h = { q = 0, r = -1 } ---@type Hex
    local seen = {}
    for _ = 1, 6 do
      h = assert(mv.orbit_next(PLANET, h, dir), "an orbit stays next to the planet")
      seen[#seen + 1] = mv.key(h)
    end
    t:eq(h, { q = 0, r = -1 })
    t:eq(#seen, 6)
  end
  t:eq(mv.orbit_next(PLANET, { q = 0, r = -1 }, "cw"), { q = 1, r = -1 })
  t:eq(mv.orbit_next(PLANET, { q = 0, r = -1 }, "ccw"), { q = -1, r = 0 })
  -- In the game: six orbit moves, turn after turn.
  local g = t:game { scenario = "duel", seed = 1 }
  place(g, 1, { q = 0, r = -1 }, 0, 2)
  local expect = { { 1, -1 }, { 1, 0 }, { 0, 1 }, { -1, 1 }, { -1, 0 }, { 0, -1 } }
  for i, e in ipairs(expect) do
    g:act { id = "orbit", side = "blue", piece = 1, planet = PLANET, dir = "cw", facing = i % 6 }
    t:eq(g:piece(1).hex, { q = e[1], r = e[2] })
    next_turn(g, 1)
  end
end)

test("only a ship that starts its move next to a planet can orbit", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  place(g, 1, { q = 0, r = -2 }, 0, 2)
  local ok, why = g:try { id = "orbit", side = "blue", piece = 1, planet = PLANET, dir = "cw", facing = 0 }
  t:falsy(ok); t:matches(why, "starts its move next to a planet")
  ok, why = g:try { id = "orbit", side = "blue", piece = 1, planet = { q = 0, r = -1 }, dir = "cw", facing = 0 }
  t:falsy(ok); t:matches(why, "no planet at")
  -- Once it has chosen a speed this turn it can no longer announce an orbit.
  place(g, 1, { q = 0, r = -1 }, 0, 2)
  g:act { id = "speed", side = "blue", piece = 1, speed = 2 }
  ok, why = g:try { id = "orbit", side = "blue", piece = 1, planet = PLANET, dir = "cw", facing = 0 }
  t:falsy(ok); t:matches(why, "already chosen a speed")
end)

test("a ship in orbit has speed 0 and faces any hexside it likes", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  place(g, 1, { q = 0, r = -1 }, 0, 5)
  local facings = {}
  for _, a in ipairs(g:legal("blue")) do
    if a.id == "orbit" and a.dir == "ccw" then facings[#facings + 1] = a.facing end
  end
  table.sort(facings)
  t:eq(facings, { 0, 1, 2, 3, 4, 5 })
  g:act { id = "orbit", side = "blue", piece = 1, planet = PLANET, dir = "ccw", facing = 4 }
  local p = g:piece(1)
  t:eq(p.values.speed, 0); t:eq(p.facing, 4); t:eq(p.hex, { q = -1, r = 0 })
  t:eq(p.values.orbit, { planet = PLANET, dir = "ccw" })
  t:eq(p.values.path, { { q = 0, r = -1 }, { q = -1, r = 0 } })
end)

test("the orbit direction cannot change without leaving orbit", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  place(g, 1, { q = 0, r = -1 }, 0, 0)
  g:act { id = "orbit", side = "blue", piece = 1, planet = PLANET, dir = "cw", facing = 0 }
  next_turn(g, 1)
  local ok, why = g:try { id = "orbit", side = "blue", piece = 1, planet = PLANET, dir = "ccw", facing = 0 }
  t:falsy(ok); t:matches(why, "direction cannot change")
  -- Leave orbit (speed 0, staying put), then a new orbit may go the other way.
  g:act { id = "speed", side = "blue", piece = 1, speed = 0 }
  t:eq(g:piece(1).values.orbit, false)
  g:act { id = "move", side = "blue", piece = 1, plan = "", facing = 0 }
  next_turn(g, 1)
  g:act { id = "orbit", side = "blue", piece = 1, planet = PLANET, dir = "ccw", facing = 0 }
  t:eq(g:piece(1).hex, { q = 0, r = -1 })
end)

test("a ship leaving orbit rotates freely and keeps its full MR", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  place(g, 1, { q = 0, r = -1 }, 0, 0)
  g:act { id = "orbit", side = "blue", piece = 1, planet = PLANET, dir = "cw", facing = 0 }
  next_turn(g, 1) -- now at (1,-1) facing N, in orbit
  g:act { id = "speed", side = "blue", piece = 1, speed = 3 } -- up to its ADF from speed 0
  local ok, why = g:try { id = "speed", side = "blue", piece = 1, speed = 3 }
  t:falsy(ok)
  -- Rotate to face S before moving, then use all three turns of its MR.
  g:act { id = "move", side = "blue", piece = 1, start_facing = 2, plan = "FLFLFL" }
  local p = g:piece(1)
  t:eq(p.hex, { q = 3, r = -3 }); t:eq(p.facing, 5); t:eq(p.values.orbit, false)
  -- A ship not leaving orbit may not rotate before it moves.
  place(g, 1, { q = 3, r = -2 }, 0, 2)
  g:act { id = "speed", side = "blue", piece = 1, speed = 2 }
  ok, why = g:try { id = "move", side = "blue", piece = 1, start_facing = 3, plan = "FF" }
  t:falsy(ok); t:matches(why, "rotate freely")
end)

-- Play a side's movement phase with the first legal speed/move of each ship, then end it.
local function finish_move(g, side)
  while true do
    local acted = false
    for _, a in ipairs(g:legal(side)) do
      if a.id == "speed" or a.id == "move" then g:act(a); acted = true; break end
    end
    if not acted then break end
  end
  g:end_phase(side)
end

test("a ship in orbit goes on round the planet each turn unless it leaves orbit", function(t)
  local g = t:game { scenario = "station", seed = 1 }
  -- Ship 1 (station) and 2 (frigate) belong to the defenders, who move second.
  t:eq(g:piece(1).values.orbit, { planet = PLANET, dir = "cw" })
  finish_move(g, "raiders")
  g:end_phase("defenders") -- defensive fire
  g:end_phase("raiders")   -- offensive fire
  t:eq(g:clock().active, "defenders")
  local orbit, speed = {}, {}
  for _, a in ipairs(g:legal("defenders")) do
    if a.piece == 1 and a.id == "orbit" then orbit[#orbit + 1] = a.dir end
    if a.piece == 1 and a.id == "speed" then speed[#speed + 1] = a.speed end
  end
  t:eq(orbit, { "cw", "cw", "cw", "cw", "cw", "cw" }) -- one per facing
  t:eq(speed, {}) -- the station has no engines (ADF 0): it never leaves its orbit
  local ok, why = g:check { id = "speed", side = "defenders", piece = 1, speed = 0 }
  t:falsy(ok); t:matches(why, "no engines %(ADF 0%): it never leaves its orbit")
  g:act { id = "orbit", side = "defenders", piece = 1, planet = PLANET, dir = "cw", facing = 2 }
  t:eq(g:piece(1).hex, { q = 1, r = -1 })
  -- Without orders the frigate (ship 2, counter-clockwise) goes on round its orbit.
  g:end_phase("defenders")
  t:eq(g:piece(2).hex, { q = 1, r = -1 })
end)

