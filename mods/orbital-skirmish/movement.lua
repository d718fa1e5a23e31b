-- movement.lua: the movement rules as pure functions (no ctx, no game state).
--
-- What it is: speed choices within the acceleration/deceleration factor (ADF), the exact
-- simulation of one move written as a plan of letters, the reachability search that lists
-- every legal end position and facing with its plan and path, and the orbit step.
-- What it deliberately does not do: read or change the game (main.lua does that through ctx),
-- know about weapons, or know about gravity (the gravity variant plugs in through `env.pull`
-- and `env.crash`).
--
-- A plan is a string: "F" moves one hex forward into the faced hex, "L"/"R" turn one hexside
-- left/right in the current hex. The worked example of the rules (speed 7, MR 3, three left
-- turns after hexes 3, 5 and 6):
--   local r = movement.simulate({q=0,r=0}, 0, 7, 3, "FFFLFFLFLF", env)
--   -- r.to == {q=-3,r=-1}, r.facing == 3 (S), r.turns == 3, #r.path == 8
--
-- Directions are 0..5 clockwise from N: N(0,-1) NE(1,-1) SE(1,0) S(0,1) SW(-1,1) NW(-1,0).

---@class OrbitalMovement
local M = {}

---@type table<integer, [integer, integer]> direction -> { dq, dr }
M.VECTORS = { [0] = { 0, -1 }, { 1, -1 }, { 1, 0 }, { 0, 1 }, { -1, 1 }, { -1, 0 } }
---@type table<integer, string>
M.NAMES = { [0] = "N", "NE", "SE", "S", "SW", "NW" }
local BY_NAME = { N = 0, NE = 1, SE = 2, S = 3, SW = 4, NW = 5 }

--- A direction from an integer 0..5 or a name ("N", "NE", ...); nil if neither.
---@param x any
---@return integer|nil
function M.dir(x)
  if type(x) == "number" then
    local d = math.tointeger(x)
    if d and d >= 0 and d <= 5 then return d end
    return nil
  end
  if type(x) == "string" then return BY_NAME[string.upper(x)] end
  return nil
end

---@param d integer
---@return integer
function M.left(d) return (d + 5) % 6 end
---@param d integer
---@return integer
function M.right(d) return (d + 1) % 6 end
---@param d integer
---@return integer
function M.opposite(d) return (d + 3) % 6 end

---@param h Hex
---@param d integer
---@return Hex
function M.step(h, d)
  local v = M.VECTORS[d]
  return { q = h.q + v[1], r = h.r + v[2] }
end

---@param h Hex
---@return string
function M.key(h) return h.q .. "," .. h.r end
---@param a Hex
---@param b Hex
---@return boolean
function M.eq(a, b) return a.q == b.q and a.r == b.r end
---@param h Hex
---@return string
function M.show(h) return "(" .. h.q .. "," .. h.r .. ")" end

---@param a Hex
---@param b Hex
---@return integer
function M.distance(a, b)
  local dq, dr = a.q - b.q, a.r - b.r
  return (math.abs(dq) + math.abs(dr) + math.abs(dq + dr)) // 2
end

--- The direction from `a` to the adjacent hex `b`, or nil if they are not neighbours.
---@param a Hex
---@param b Hex
---@return integer|nil
function M.dir_to_adjacent(a, b)
  for d = 0, 5 do
    local v = M.VECTORS[d]
    if b.q - a.q == v[1] and b.r - a.r == v[2] then return d end
  end
  return nil
end

-- Speed --------------------------------------------------------------------------------------

--- Why `speed` is not a legal choice after a turn at `last` with factor `adf`, or nil.
-- One new speed is chosen per turn, so a ship never both accelerates and decelerates.
---@param last integer
---@param adf integer
---@param speed any the requested speed (checked here)
---@return string|nil
function M.speed_reason(last, adf, speed)
  if math.tointeger(speed) == nil then return "speed must be a whole number" end
  if speed < 0 then return "speed cannot be negative" end
  if speed == 0 and last > adf then
    return ("cannot stop: last turn's speed %d is more than the ADF %d"):format(last, adf)
  end
  if math.abs(speed - last) > adf then
    return ("speed %d is more than ADF %d away from last turn's speed %d"):format(speed, adf, last)
  end
  return nil
end

--- Every legal speed this turn, ascending (no top speed: only the ADF limits it).
---@param last integer
---@param adf integer
---@return integer[]
function M.speed_options(last, adf)
  local out = {}
  local lo = math.max(0, last - adf)
  for s = lo, last + adf do out[#out + 1] = s end
  return out
end

-- One move ----------------------------------------------------------------------------------
--
-- env = {
--   on_board = function(h) -> bool,   -- false: the hex is off the map (the ship is lost there)
--   blocked  = function(h) -> bool,   -- true: a planet (cannot be entered)
--   crash    = bool,                  -- gravity variant: entering a blocked hex crashes instead
--   pull     = function(h, facing, left_to_move) -> facing, "crash" or nil, -- gravity variant
-- }
-- Result: { to, facing, turns, path (start hex first), exited, crashed, plan }.

---The movement environment (reading.move_env makes it; the gravity variant adds pull, crash).
---@class MoveEnv: ListingEnv
---@field on_board fun(h: Hex): boolean
---@field blocked fun(h: Hex): boolean
---@field crash? boolean
---@field pull? fun(h: Hex, facing: integer, left_to_move: integer): integer|"crash"|nil
---@field planets? Hex[]                       -- the planet hexes
---@field planet_blocked? fun(h: Hex): boolean -- the planets' own test (blocked unless replaced)
---@field board_ctx? CtxReader                 -- the game whose board on_board answers
---@field board_on_board? fun(h: Hex): boolean -- that board's test (on_board unless replaced)

---One simulated move.
---@class MoveResult
---@field to Hex
---@field facing integer
---@field turns integer
---@field path Hex[] start hex first
---@field plan string
---@field exited boolean
---@field crashed boolean

--- Simulate `plan` for a ship at `start` facing `facing` with `speed` and `mr`; returns the
-- result or nil and the reason the plan is illegal.
---@param start Hex
---@param facing integer
---@param speed integer
---@param mr integer
---@param plan any the plan to check (a string of F, L and R)
---@param env MoveEnv
---@return MoveResult|nil
---@return string|nil why
function M.simulate(start, facing, speed, mr, plan, env)
  if type(plan) ~= "string" then return nil, "the plan must be a string of F, L and R" end
  local pos, moved, turns, turned_here = start, 0, 0, true -- no turn in the start hex
  local path = { start }
  for i = 1, #plan do
    local c = plan:sub(i, i)
    if c == "F" then
      if moved >= speed then
        return nil, ("the plan moves more than the speed %d"):format(speed)
      end
      local nxt = M.step(pos, facing)
      if not env.on_board(nxt) or (env.blocked(nxt) and env.crash) then
        if i ~= #plan then
          return nil, "the plan goes on after the ship has left the map"
        end
        path[#path + 1] = nxt
        local crashed = env.on_board(nxt)
        return { to = nxt, facing = facing, turns = turns, path = path, plan = plan,
                 exited = not crashed, crashed = crashed }
      end
      if env.blocked(nxt) then
        return nil, ("hex %s holds a planet: no ship can move into or through it"):format(M.show(nxt))
      end
      pos, moved, turned_here = nxt, moved + 1, false
      path[#path + 1] = pos
      if env.pull and moved < speed then
        local pulled = env.pull(pos, facing, speed - moved)
        if pulled == "crash" then
          if i ~= #plan then
            return nil, ("the ship crashes at %s: the plan cannot go on"):format(M.show(pos))
          end
          return { to = pos, facing = facing, turns = turns, path = path, plan = plan,
                   exited = false, crashed = true }
        end
        facing = pulled or facing
      end
    elseif c == "L" or c == "R" then
      if moved == 0 then return nil, "a ship turns only after it enters a hex" end
      if turned_here then return nil, "a ship can turn only one hexside in any hex" end
      if turns >= mr then return nil, ("no turns left: the MR is %d"):format(mr) end
      facing = (c == "L") and M.left(facing) or M.right(facing)
      turns, turned_here = turns + 1, true
    else
      return nil, ("unknown plan letter %q (use F, L, R)"):format(c)
    end
  end
  if moved ~= speed then
    return nil, ("the plan moves %d hexes but the speed is %d: a ship moves exactly its speed"):format(moved, speed)
  end
  return { to = pos, facing = facing, turns = turns, path = path, plan = plan, exited = false, crashed = false }
end

--- Every legal move: a list of { to, facing, turns, plan, start_facing }, one per end
-- position and facing (the one with the fewest turns, then the first found), sorted by q, r,
-- facing; a second list, one per way of leaving the map or (env.crash) crashing (with
-- `exited` or `crashed` set); and a third, one per way of running into a planet when planets
-- are not crashed into (a forced crash, used only when nothing else is possible). Rebuild any
-- path with simulate(start, start_facing, speed, mr, plan, env).
-- `facings` lists the facings the ship may start with (more than one only for a ship leaving
-- orbit, which may rotate freely before it moves).
-- Why the engine: the search runs in Rust (`search.move_listing`, docs/API.md), in the same
-- order as the Lua search it replaced (kept in tests/_lua_reach.lua and compared there);
-- `env.on_board`, `env.blocked` and `env.pull` must be pure (they are asked once per hex, and
-- once per hex, facing and hexes left).
-- With `env.board_ctx` (set by move_env when env.on_board is the game's board), the engine
-- answers on_board itself (`ctx:move_listing`): the same moves, without a Lua call per hex.
-- The env the engine gets with the game's board: the planets as a list of hexes when `blocked`
-- is still the planets' own test (env.planet_blocked), so the engine answers it without a Lua
-- call per hex.
---@param env MoveEnv
---@return ListingEnv
local function board_env(env)
  local blocked = env.blocked
  if blocked ~= nil and blocked == env.planet_blocked and env.planets then blocked = env.planets end
  return { blocked = blocked, pull = env.pull, crash = env.crash }
end

---@param start Hex
---@param facings integer[]
---@param speed integer
---@param mr integer
---@param env MoveEnv
---@return ListedMove[] ends
---@return ListedMove[] exits
---@return ListedMove[] crashes
---@return boolean|nil truncated (from the engine's listing on the game's board)
function M.reach(start, facings, speed, mr, env)
  local rules = { speed = speed, max_turns = mr }
  local ctx = env.board_ctx
  if ctx and env.on_board == env.board_on_board then
    return ctx:move_listing(start, facings, rules, board_env(env))
  end
  local ends, exits, crashes = search.move_listing(start, facings, rules, env)
  return ends, exits, crashes
end

--- M.reach's moves as choice lists (engine-made, docs/API.md "Choice lists"): each choice is
-- `params` plus the move's plan, to, facing and path (start hex first; the editor draws it when
-- a player hovers the destination), and start_facing when `facings` offers more than one. A
-- listing returns them as they are: no Lua table per move, and a path is made only for a
-- choice that is converted.
---@param start Hex
---@param facings integer[]
---@param speed integer
---@param mr integer
---@param env MoveEnv
---@param params? table
---@return ChoiceList ends
---@return ChoiceList exits
---@return ChoiceList crashes
---@return boolean truncated
function M.reach_choices(start, facings, speed, mr, env, params)
  local rules = { speed = speed, max_turns = mr, paths = true }
  local ctx = env.board_ctx
  if ctx and env.on_board == env.board_on_board then
    return ctx:move_choices(start, facings, rules, board_env(env), params)
  end
  return search.move_choices(start, facings, rules, env, params)
end

-- Orbits ------------------------------------------------------------------------------------

--- The next hex of an orbit round `planet` from the adjacent hex `pos`, "cw" or "ccw"; nil if
-- `pos` is not next to the planet. Six steps return to the start.
---@param planet Hex
---@param pos Hex
---@param dir TurnWay
---@return Hex|nil
function M.orbit_next(planet, pos, dir)
  local k = M.dir_to_adjacent(planet, pos)
  if k == nil then return nil end
  local k2 = (dir == "cw") and (k + 1) % 6 or (k + 5) % 6
  return M.step(planet, k2)
end

return M
