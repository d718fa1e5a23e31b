-- Movement rules: speed and ADF, stopping, exact moves, turns and MR, zero-speed rotation,
-- stacking, planets and leaving the map. The duel scenario: ship 1 is Blue's frigate
-- (ADF 3, MR 3), ship 2 Red's; the planet is at (0,0); the map is a hexagon of radius 10.
local mv = require("movement")

-- Put ship `id` at `h` facing `f` with last turn's speed `speed`, ready to move.
local function place(g, id, h, f, speed)
  g:edit(function(ctx)
    ctx:move(id, h, f)
    ctx:set(id, "speed", speed)
    ctx:set(id, "new_speed", -1)
    ctx:set(id, "moved", false)
    ctx:set(id, "free_rot", false)
    ctx:set(id, "orbit", false)
  end)
end

local function speeds(g, id)
  local out = {}
  for _, a in ipairs(g:legal("blue")) do
    if a.id == "speed" and a.piece == id then out[#out + 1] = a.speed end
  end
  table.sort(out)
  return out
end

test("worked example: speed 5 with ADF 2 allows 3 to 7", function(t)
  t:eq(mv.speed_options(5, 2), { 3, 4, 5, 6, 7 })
  t:eq(mv.speed_reason(5, 2, 6), nil)
  t:matches(mv.speed_reason(5, 2, 8), "ADF 2")
  t:matches(mv.speed_reason(5, 2, 2), "ADF 2")
  -- The same through the game with a battleship (ADF 2).
  local g = t:game { scenario = "duel", seed = 1 }
  g:edit(function(ctx) ctx:set(1, "speed", 5) end)
  t:eq(speeds(g, 1), { 2, 3, 4, 5, 6, 7, 8 }) -- the frigate has ADF 3
  local ok, why = g:try { id = "speed", side = "blue", piece = 1, speed = 9 }
  t:falsy(ok); t:matches(why, "ADF 3")
  g:act { id = "speed", side = "blue", piece = 1, speed = 6 }
  t:eq(g:piece(1).values.new_speed, 6)
end)

test("the speed moved becomes next turn's starting speed", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  place(g, 1, { q = -4, r = 6 }, 0, 2)
  g:act { id = "speed", side = "blue", piece = 1, speed = 4 }
  g:act { id = "move", side = "blue", piece = 1, plan = "FFFF" }
  t:eq(g:piece(1).values.speed, 4)
  t:eq(g:piece(1).hex, { q = -4, r = 2 })
end)

test("a ship cannot both accelerate and decelerate: one speed choice per turn", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  g:act { id = "speed", side = "blue", piece = 1, speed = 5 }
  local ok, why = g:try { id = "speed", side = "blue", piece = 1, speed = 3 }
  t:falsy(ok); t:matches(why, "already chosen its speed")
end)

test("stopping only if last turn's speed was at most the ADF", function(t)
  t:eq(mv.speed_reason(3, 3, 0), nil)
  t:matches(mv.speed_reason(4, 3, 0), "cannot stop")
  local g = t:game { scenario = "duel", seed = 1 }
  place(g, 1, { q = -4, r = 6 }, 0, 4)
  local ok, why = g:try { id = "speed", side = "blue", piece = 1, speed = 0 }
  t:falsy(ok); t:matches(why, "cannot stop: last turn's speed 4 is more than the ADF 3")
  t:eq(speeds(g, 1), { 1, 2, 3, 4, 5, 6, 7 })
  place(g, 1, { q = -4, r = 6 }, 0, 3)
  t:eq(speeds(g, 1), { 0, 1, 2, 3, 4, 5, 6 })
end)

test("from speed 0 a ship stays at 0 or accelerates up to its ADF", function(t)
  t:eq(mv.speed_options(0, 3), { 0, 1, 2, 3 })
  local g = t:game { scenario = "duel", seed = 1 }
  place(g, 1, { q = -4, r = 6 }, 0, 0)
  t:eq(speeds(g, 1), { 0, 1, 2, 3 })
end)

test("a ship does not move at all on the turn it stops", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  place(g, 1, { q = -4, r = 6 }, 0, 2)
  g:act { id = "speed", side = "blue", piece = 1, speed = 0 }
  local p = g:piece(1)
  t:eq(p.hex, { q = -4, r = 6 }); t:eq(p.values.moved, true); t:eq(p.values.speed, 0)
  local ok, why = g:try { id = "move", side = "blue", piece = 1, plan = "", facing = 3 }
  t:falsy(ok); t:matches(why, "already moved")
end)

test("no top speed: only the ADF limits acceleration", function(t)
  t:eq(mv.speed_options(40, 1), { 39, 40, 41 })
  t:eq(mv.speed_reason(40, 3, 43), nil)
end)

test("a ship moves exactly its chosen speed, into the hex it faces", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  place(g, 1, { q = -4, r = 6 }, 1, 3) -- facing NE
  g:act { id = "speed", side = "blue", piece = 1, speed = 3 }
  local ok, why = g:try { id = "move", side = "blue", piece = 1, plan = "FF" }
  t:falsy(ok); t:matches(why, "moves 2 hexes but the speed is 3")
  ok, why = g:try { id = "move", side = "blue", piece = 1, plan = "FFFF" }
  t:falsy(ok); t:matches(why, "more than the speed 3")
  g:act { id = "move", side = "blue", piece = 1, plan = "FFF" }
  t:eq(g:piece(1).hex, { q = -1, r = 3 })
  t:eq(g:piece(1).facing, 1)
  t:eq(g:piece(1).values.path, { { q = -4, r = 6 }, { q = -3, r = 5 }, { q = -2, r = 4 }, { q = -1, r = 3 } })
end)

test("worked example: speed 7, MR 3, left turns after hexes 3, 5 and 6", function(t)
  local env = { on_board = function() return true end, blocked = function() return false end }
  local r = assert(mv.simulate({ q = 0, r = 0 }, 0, 7, 3, "FFFLFFLFLF", env))
  t:eq(r.to, { q = -3, r = -1 }); t:eq(r.facing, 3); t:eq(r.turns, 3)
  t:eq(r.path, { { q = 0, r = 0 }, { q = 0, r = -1 }, { q = 0, r = -2 }, { q = 0, r = -3 },
                 { q = -1, r = -3 }, { q = -2, r = -3 }, { q = -3, r = -2 }, { q = -3, r = -1 } })
  -- In the game (frigate: MR 3) on an open part of the map.
  local g = t:game { scenario = "duel", seed = 1 }
  place(g, 1, { q = 3, r = 5 }, 0, 7)
  g:act { id = "speed", side = "blue", piece = 1, speed = 7 }
  g:act { id = "move", side = "blue", piece = 1, plan = "FFFLFFLFLF" }
  t:eq(g:piece(1).hex, { q = 0, r = 4 }); t:eq(g:piece(1).facing, 3)
end)

test("at most MR turns in a move", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  place(g, 1, { q = 3, r = 5 }, 0, 7)
  g:act { id = "speed", side = "blue", piece = 1, speed = 7 }
  local ok, why = g:try { id = "move", side = "blue", piece = 1, plan = "FLFRFLFRFFF" }
  t:falsy(ok); t:matches(why, "no turns left: the MR is 3")
end)

test("one hexside per hex, and only after entering a hex", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  place(g, 1, { q = 3, r = 5 }, 0, 2)
  g:act { id = "speed", side = "blue", piece = 1, speed = 2 }
  -- Fewer hexes (2) than the MR (3): still only one turn per hex.
  local ok, why = g:try { id = "move", side = "blue", piece = 1, plan = "FLLF" }
  t:falsy(ok); t:matches(why, "only one hexside in any hex")
  ok, why = g:try { id = "move", side = "blue", piece = 1, plan = "LFF" }
  t:falsy(ok); t:matches(why, "turns only after it enters a hex")
  g:act { id = "move", side = "blue", piece = 1, plan = "FLFL" }
  t:eq(g:piece(1).hex, { q = 2, r = 4 }); t:eq(g:piece(1).facing, 4)
end)

test("a ship at speed 0 all turn rotates to any facing; a stopping ship cannot", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  place(g, 1, { q = -4, r = 6 }, 0, 0)
  g:act { id = "speed", side = "blue", piece = 1, speed = 0 }
  local facings = {}
  for _, a in ipairs(g:legal("blue")) do
    if a.id == "move" and a.piece == 1 then facings[#facings + 1] = a.facing end
  end
  table.sort(facings)
  t:eq(facings, { 0, 1, 2, 3, 4, 5 })
  g:act { id = "move", side = "blue", piece = 1, plan = "", facing = 3 }
  t:eq(g:piece(1).facing, 3); t:eq(g:piece(1).hex, { q = -4, r = 6 })
  -- A ship that stops keeps its facing: it does not move at all.
  g = t:game { scenario = "duel", seed = 1 }
  place(g, 1, { q = -4, r = 6 }, 0, 2)
  g:act { id = "speed", side = "blue", piece = 1, speed = 0 }
  t:eq(g:piece(1).facing, 0)
end)

test("any number of ships share a hex", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  place(g, 1, { q = 2, r = 4 }, 0, 2)
  g:edit(function(ctx) ctx:move(2, { q = 2, r = 2 }, 3) end)
  g:act { id = "speed", side = "blue", piece = 1, speed = 2 }
  g:act { id = "move", side = "blue", piece = 1, plan = "FF" }
  t:eq(#g:pieces { at = { q = 2, r = 2 } }, 2)
end)

test("a planet hex cannot be entered or passed through", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  place(g, 1, { q = 0, r = 2 }, 0, 3)
  g:act { id = "speed", side = "blue", piece = 1, speed = 3 }
  local ok, why = g:try { id = "move", side = "blue", piece = 1, plan = "FFF" }
  t:falsy(ok); t:matches(why, "%(0,0%) holds a planet")
  for _, a in ipairs(g:legal("blue")) do
    if a.id == "move" then t:falsy(a.to.q == 0 and a.to.r == 0) end
  end
  g:act { id = "move", side = "blue", piece = 1, plan = "FRFF" }
  t:eq(g:piece(1).hex, { q = 2, r = -1 })
end)

test("a ship that leaves the map is lost and never returns", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  place(g, 1, { q = 0, r = 9 }, 3, 3) -- facing S, one hex from the edge
  g:act { id = "speed", side = "blue", piece = 1, speed = 3 }
  g:act { id = "move", side = "blue", piece = 1, plan = "FF" }
  t:eq(g:piece(1), nil)
  t:eq(#g:pieces { owner = "blue" }, 0)
  t:eq(assert(g:outcome(), "the game is over").winners, { "red" })
end)

test("leaving the map is offered only when no move stays on it", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  place(g, 1, { q = 0, r = 10 }, 3, 1) -- on the edge facing S: every move leaves
  g:act { id = "speed", side = "blue", piece = 1, speed = 1 }
  local moves = {}
  for _, a in ipairs(g:legal("blue")) do if a.id == "move" then moves[#moves + 1] = a end end
  t:eq(#moves, 1); t:eq(moves[1].to, { q = 0, r = 11 })
end)

test("the reachability search lists every end position with a plan that reaches it", function(t)
  local open = { on_board = function() return true end, blocked = function() return false end }
  local ends = mv.reach({ q = 0, r = 0 }, { 0 }, 7, 3, open)
  t:eq(#ends, 187)
  for _, e in ipairs(ends) do
    local r = assert(mv.simulate({ q = 0, r = 0 }, 0, 7, 3, e.plan, open))
    t:eq(r.to, e.to); t:eq(r.facing, e.facing); t:eq(r.turns, e.turns)
  end
  -- Speed 1 with MR 1: forward, then turn left, right or not at all (turns in the final hex).
  t:eq(#mv.reach({ q = 0, r = 0 }, { 0 }, 1, 1, open), 3)
  -- The move action can be given as a destination: the engine finds the plan.
  local g = t:game { scenario = "duel", seed = 1 }
  place(g, 1, { q = 3, r = 5 }, 0, 7)
  g:act { id = "speed", side = "blue", piece = 1, speed = 7 }
  g:act { id = "move", side = "blue", piece = 1, to = { q = 0, r = 4 }, facing = 3 }
  t:eq(g:piece(1).hex, { q = 0, r = 4 })
end)

test("a ship left without orders flies straight on at last turn's speed", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  g:end_phase("blue")
  local p = g:piece(1)
  t:eq(p.hex, { q = -4, r = 4 }); t:eq(p.values.moved, true); t:eq(p.values.speed, 2)
  t:eq(g:clock().phase, "defensive_fire")
end)

test("a speed is offered only if some move at it avoids the planets", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  place(g, 1, { q = 0, r = 1 }, 0, 1) -- next to the planet, facing it, at speed 1
  -- Every move at speed 1 to 4 starts into the planet; stopping is allowed.
  t:eq(speeds(g, 1), { 0 })
  local ok, why = g:try { id = "speed", side = "blue", piece = 1, speed = 1 }
  t:falsy(ok); t:matches(why, "at speed 1 every move of ship 1 enters a planet")
  -- Facing away, every speed has a way.
  place(g, 1, { q = 0, r = 1 }, 3, 1)
  t:eq(speeds(g, 1), { 0, 1, 2, 3, 4 })
end)

test("a ship without orders stops short of a planet rather than flying into it", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  place(g, 1, { q = 0, r = 1 }, 0, 1)
  g:end_phase("blue")
  local p = g:piece(1)
  t:ok(p, "ship 1 is still in the game")
  t:eq(p.hex, { q = 0, r = 1 }); t:eq(p.values.speed, 0)
end)

test("a ship with no move that avoids the planets crashes into one", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  place(g, 1, { q = 0, r = 1 }, 0, 5) -- next to the planet, facing it, too fast to stop (ADF 3)
  g:act { id = "speed", side = "blue", piece = 1, speed = 5 }
  local moves = {}
  for _, a in ipairs(g:legal("blue")) do if a.id == "move" then moves[#moves + 1] = a end end
  t:eq(#moves, 1); t:eq(moves[1].to, { q = 0, r = 0 })
  g:act(moves[1])
  t:eq(g:piece(1), nil)
  -- With any other move open, running into the planet stays illegal.
  g = t:game { scenario = "duel", seed = 1 }
  place(g, 1, { q = 0, r = 2 }, 0, 2)
  g:act { id = "speed", side = "blue", piece = 1, speed = 2 }
  local ok, why = g:try { id = "move", side = "blue", piece = 1, plan = "FF" }
  t:falsy(ok); t:matches(why, "holds a planet")
end)

-- The engine's listing (search.move_listing behind mv.reach) against the Lua search it
-- replaced (tests/_lua_reach.lua): the same moves, fields and order, so choices and therefore
-- random-bot games stay the same.
local old = require("tests._lua_reach")

local function same_listing(t, what, a, b)
  t:eq(#a, #b, what .. ": count")
  for i = 1, math.max(#a, #b) do
    local x, y = a[i], b[i]
    if x == nil or y == nil then t:eq(x, y, what .. " #" .. i) return end
    t:eq({ x.to, x.facing, x.turns, x.plan, x.start_facing, x.exited or false, x.crashed or false },
         { y.to, y.facing, y.turns, y.plan, y.start_facing, y.exited or false, y.crashed or false },
         what .. " #" .. i)
  end
end

local function compare(t, env, cases)
  for _, c in ipairs(cases) do
    local what = ("%s facings %d speed %d mr %d"):format(mv.show(c[1]), #c[2], c[3], c[4])
    local e1, x1, c1 = mv.reach(c[1], c[2], c[3], c[4], env)
    local e2, x2, c2 = old.reach(c[1], c[2], c[3], c[4], env)
    same_listing(t, what .. " ends", e1, e2)
    same_listing(t, what .. " exits", x1, x2)
    same_listing(t, what .. " crashes", c1, c2)
  end
end

test("the engine's move listing equals the old Lua search: planets, map edges, orbits", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  local all = { 0, 1, 2, 3, 4, 5 }
  local cases = {
    { { q = -4, r = 6 }, { 0 }, 12, 5 },  -- the speed-12 listing of the bench
    { { q = 0, r = 2 }, { 0 }, 6, 3 },    -- straight into the planet at (0,0)
    { { q = 1, r = -1 }, all, 3, 2 },     -- leaving orbit: any start facing
    { { q = 8, r = -8 }, { 1 }, 5, 1 },   -- at the map edge: exits
    { { q = 9, r = 0 }, { 2 }, 2, 0 },    -- nothing but exits
    { { q = 2, r = 3 }, all, 0, 3 },      -- speed 0
    { { q = -1, r = 2 }, { 5, 1 }, 9, 4 },
  }
  g:edit(function(ctx)
    local env = ORBITAL_SKIRMISH.move_env(ctx)
    compare(t, env, cases)
    -- Planets crashed into (as the gravity variant does) instead of forbidden.
    compare(t, setmetatable({ crash = true }, { __index = env }), cases)
    -- A map with more planets and a pull (any pure function will do).
    local walls = { ["1,1"] = true, ["-2,3"] = true, ["3,-1"] = true, ["0,0"] = true }
    local busy = {
      on_board = env.on_board,
      blocked = function(h) return walls[mv.key(h)] == true end,
      pull = function(h, f, left) if (h.q + 2 * h.r + left) % 3 == 0 then return (f + 1) % 6 end end,
    }
    compare(t, busy, cases)
  end)
end)

test("every listed move carries the path its plan flies, and a wrong path is refused", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  place(g, 1, { q = 3, r = 5 }, 0, 4)
  g:act { id = "speed", side = "blue", piece = 1, speed = 4 }
  local moves, first = 0, nil ---@type integer, ActionTable|nil
  for _, a in ipairs(g:legal("blue")) do
    if a.id == "move" then
      moves = moves + 1
      first = first or a
      t:ok(a.path ~= nil, "a listed move has its path")
      t:eq(#a.path, 5) -- the start hex, then one hex per point of speed
      t:eq(a.path[1], { q = 3, r = 5 })
      t:eq(a.path[#a.path], a.to)
      local r = mv.simulate({ q = 3, r = 5 }, 0, 4, 3, a.plan, { on_board = function() return true end,
        blocked = function() return false end })
      if r then t:eq(r.path, a.path) end
    end
  end
  t:ok(moves > 0)
  assert(first, "a move is listed")
  local wrong = {}
  for i, h in ipairs(first.path) do wrong[i] = h end
  wrong[2] = { q = wrong[2].q + 1, r = wrong[2].r }
  local ok, why = g:try { id = "move", side = "blue", piece = 1, plan = first.plan, path = wrong }
  t:falsy(ok)
  t:matches(why, "path is not the one the plan flies")
  g:act(first)
  t:eq(g:piece(1).hex, first.to)
end)
