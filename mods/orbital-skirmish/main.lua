-- Orbital Skirmish: declarations and the rules that join movement and combat to the game.
--
-- What it is: the piece types and weapons table (numbers from ships.lua), the turn structure
-- (each side's half: move, the other side's defensive fire, own offensive fire), the actions
-- (speed, move, orbit, fire and intercept), setup, hooks and victory.
-- What it deliberately does not do: movement or fire geometry (movement.lua, combat.lua are
-- pure and tested on their own) or hold any state (everything lives in piece values:
-- speed, new_speed, moved, path, orbit, free_rot, damage, ammo, icm, fired).
--
-- A turn for one ship, as actions:
--   { id = "speed", piece = 1, speed = 6 }                      -- within ADF of last turn's
--   { id = "move",  piece = 1, plan = "FFFLFFLFLF" }            -- or to = {q=,r=}, facing = 3

local data = require("ships")
local mv = require("movement")
local C = require("combat")
local bot = require("bot")

-- The variant plugs into movement through this global (env_extensions); tests read helpers here.
---@class OrbitalSkirmish
---@field movement OrbitalMovement
---@field combat OrbitalCombat
---@field data OrbitalData
---@field env_extensions fun(ctx: CtxReader, env: GameMoveEnv)[] -- each may change the env
ORBITAL_SKIRMISH = { movement = mv, combat = C, data = data, env_extensions = {} }

---------------------------------------------------------------------------------------------
-- Declarations
---------------------------------------------------------------------------------------------
game.terrain { id = "planet", name = "Planet", color = "#a07850", blocks_movement = true, blocks_fire = "unless_avoidable" }

do
  local rows, cells = {}, {}
  for _, w in ipairs(data.weapons) do
    rows[#rows + 1] = w.id
    local row = {}
    for _, c in ipairs(data.weapon_columns) do row[#row + 1] = w[c] end
    cells[#cells + 1] = row
  end
  game.table { id = "weapons", rows = rows, columns = data.weapon_columns, cells = cells }
end

game.table {
  id = "rules",
  rows = { "value" },
  columns = { "max_interceptors_per_attack", "to_hit_die", "head_on_bonus" },
  cells = { { data.rules.max_interceptors_per_attack, data.rules.to_hit_die, data.rules.head_on_bonus } },
}

-- How the editor draws a ship: its class letters, ADF-MR along the bottom, hull damage as a
-- bar, and markers for speed, orbit, interceptors and spent ammunition.
local LABELS = {
  fighter = "FT", scout = "SC", frigate = "FF", destroyer = "DD",
  heavy_cruiser = "HC", battleship = "BB", station = "ST",
}
local function ship_counter(_ctx, p)
  local v = p.values
  local markers = { ("spd %d"):format(v.speed or 0) }
  if v.orbit then markers[#markers + 1] = "orbit" end
  if (v.icm or 0) > 0 then markers[#markers + 1] = ("icm %d"):format(v.icm) end
  local had, left = 0, 0
  for k, n in pairs(p.stats.ammo or {}) do
    had = had + n
    left = left + ((v.ammo or {})[k] or 0)
  end
  if had > 0 and left == 0 then markers[#markers + 1] = "no ammo" end
  return {
    label = LABELS[p.type] or p.type:sub(1, 2):upper(),
    factors = p.stats.adf .. "-" .. p.stats.mr,
    damage = { math.min(v.damage or 0, p.stats.hull), p.stats.hull },
    markers = markers,
  }
end

for _, s in ipairs(data.ships) do
  local ammo = {}
  for k, v in pairs(s.ammo) do ammo[k] = v end
  game.piece_type {
    counter = ship_counter,
    id = s.id,
    name = s.name,
    stats = { hull = s.hull, adf = s.adf, mr = s.mr, weapons = s.weapons, ammo = s.ammo, interceptors = s.interceptors },
    values = {
      speed = 0, new_speed = -1, moved = false, path = {}, orbit = false, free_rot = false,
      damage = 0, ammo = ammo, icm = s.interceptors, fired = {},
    },
  }
end

game.turns {
  order = "fixed",
  phases = {
    { id = "move" },
    { id = "defensive_fire", actor = "others" },
    { id = "offensive_fire" },
  },
}

---------------------------------------------------------------------------------------------
-- Reading the game
---------------------------------------------------------------------------------------------
local R = require("reading")
local weapon, facing_of, SHARED, hull_left, hex_number, planets, ships_of, own_ship, move_env, listed_ships_of, listed_env, adjacent_planets =
  R.weapon, R.facing_of, R.SHARED, R.hull_left, R.hex_number, R.planets, R.ships_of, R.own_ship, R.move_env, R.listed_ships_of, R.listed_env, R.adjacent_planets
ORBITAL_SKIRMISH.greedy = function(ctx, side, actions) return (bot.choose(ctx, side, actions, weapon, move_env)) end
--- The same bot for the engine (docs/API.md, game.bots): the 1-based index of its pick.
game.bots.greedy = function(ctx, side, legal)
  local _, i = bot.choose(ctx, side, legal, weapon, move_env)
  assert(i, "a bot is asked only when its side has legal actions")
  return i
end
-- The tactical bot (tactics.lua): greedy's fire, speeds and moves by the fire they trade.
local tactical_weigh = require("tactics").weigher(move_env)
game.bots.tactical = function(ctx, side, legal)
  local _, i = bot.choose(ctx, side, legal, weapon, move_env, tactical_weigh)
  assert(i, "a bot is asked only when its side has legal actions")
  return i
end

---------------------------------------------------------------------------------------------
-- Movement actions
---------------------------------------------------------------------------------------------
---@param ctx Ctx
---@param a table the action (side, piece)
---@return Ship|nil
---@return string|nil why
local function may_start_move(ctx, a)
  if ctx.phase ~= "move" then return nil, "ships move only in their own movement phase" end
  local p, why = own_ship(ctx, a.side, a.piece)
  if not p then return nil, why end
  if p.values.moved then return nil, ("ship %d has already moved this turn"):format(p.id) end
  return p
end

-- How far a ship may fly straight on before a planet, best of the facings it may start with
-- (any, leaving orbit), up to `most` hexes.
---@param p Ship
---@param env MoveEnv
---@param most integer
---@return integer
local function straight_run(p, env, most)
  local best = 0
  for _, f in ipairs(p.values.orbit and { 0, 1, 2, 3, 4, 5 } or { facing_of(p) }) do
    local h, n = p.hex, 0
    while n < most do
      h = mv.step(h, f)
      if env.blocked(h) then break end
      n = n + 1
    end
    if n > best then best = n end
  end
  return best
end

-- Whether a ship may fly at `speed` this turn without entering a planet: some move ends on the
-- map or leaves it (speed 0, standing or stopping, enters nothing). A ship leaving orbit
-- rotates freely, so any facing counts. `run`: its straight_run when the caller has it.
---@param p Ship
---@param speed integer
---@param env MoveEnv
---@param run? integer
---@return boolean
local function speed_has_path(p, speed, env, run)
  -- Where entering a planet crashes rather than being refused (the gravity variant), every
  -- speed has a legal move.
  if speed == 0 or env.crash then return true end
  -- Nearly always the straight flight is clear: no search needed.
  if (run or straight_run(p, env, speed)) >= speed then return true end
  local facings = p.values.orbit and { 0, 1, 2, 3, 4, 5 } or { facing_of(p) }
  local ends, exits = mv.reach(p.hex, facings, speed, p.stats.mr, env)
  return ends[1] ~= nil or exits[1] ~= nil
end

-- The speeds a ship may choose now: those within its ADF that have a legal move; all of them
-- when none has one (then it crashes into the planet, README assumption 13a).
---@param ctx CtxReader
---@param p Ship
---@return integer[]
local function flyable_speeds(ctx, p)
  local env = ORBITAL_SKIRMISH.move_env(ctx)
  local all, out = mv.speed_options(p.values.speed, p.stats.adf), {}
  local run = straight_run(p, env, all[#all])
  for _, s in ipairs(all) do
    if speed_has_path(p, s, env, run) then out[#out + 1] = s end
  end
  return #out > 0 and out or all
end
ORBITAL_SKIRMISH.flyable_speeds = flyable_speeds

game.action {
  id = "speed",
  phases = { "move" },
  params = { piece = "piece", speed = "integer" },
  choices = function(ctx, side)
    local out = {}
    for _, p in ipairs(listed_ships_of(ctx, side)) do
      if not p.values.moved and p.values.new_speed < 0 and not (p.values.orbit and p.stats.adf == 0) then
        for _, s in ipairs(flyable_speeds(ctx, p)) do
          out[#out + 1] = { piece = p.id, speed = s }
        end
      end
    end
    return out
  end,
  check = function(ctx, a)
    local p, why = may_start_move(ctx, a)
    if not p then return false, why end
    if p.values.new_speed >= 0 then
      return false, ("ship %d has already chosen its speed this turn (a ship cannot both accelerate and decelerate)"):format(p.id)
    end
    if p.values.orbit and p.stats.adf == 0 then
      return false, ("ship %d has no engines (ADF 0): it never leaves its orbit"):format(p.id)
    end
    why = mv.speed_reason(p.values.speed, p.stats.adf, a.speed)
    if why then return false, why end
    for _, s in ipairs(flyable_speeds(ctx, p)) do
      if s == a.speed then return true end
    end
    return false, ("at speed %d every move of ship %d enters a planet"):format(a.speed, p.id)
  end,
  apply = function(ctx, a)
    local p = assert(ctx:piece(a.piece, SHARED), "check found the ship") --[[@as Ship]]
    local was_orbiting = p.values.orbit and true or false ---@type boolean
    ctx:set(p.id, "new_speed", a.speed)
    if was_orbiting then
      ctx:set(p.id, "orbit", false)
      ctx:log(("ship %d leaves orbit"):format(p.id))
    end
    if a.speed == 0 and not was_orbiting and p.values.speed > 0 then
      -- Stopping: the ship does not move at all this turn.
      ctx:set(p.id, "speed", 0)
      ctx:set(p.id, "moved", true)
      ctx:set(p.id, "path", { p.hex })
      ctx:log(("ship %d stops"):format(p.id))
    else
      -- Free rotation: speed 0 all turn, or leaving orbit (a ship in orbit has speed 0).
      ctx:set(p.id, "free_rot", was_orbiting or (a.speed == 0 and p.values.speed == 0))
      ctx:log(("ship %d speed %d"):format(p.id, a.speed))
    end
  end,
}

-- The legal moves of a ship that has chosen its speed: ends (and forced exits).
-- The facings a ship may start its move with: all six for one at speed 0 all turn or leaving
-- orbit (free rotation), else its own.
---@param p Ship
---@return integer[]
local function facings_of(p)
  if p.values.free_rot then return { 0, 1, 2, 3, 4, 5 } end
  return { facing_of(p) }
end

---@param _ctx CtxReader
---@param p Ship
---@param env MoveEnv
---@return ListedMove[] ends
---@return ListedMove[] exits
---@return ListedMove[] crashes
---@return boolean|nil truncated
local function moves_of(_ctx, p, env)
  return mv.reach(p.hex, facings_of(p), p.values.new_speed, p.stats.mr, env)
end
ORBITAL_SKIRMISH.moves_of = moves_of

-- The same moves as engine-kept lists (mv.reach_choices), each choice `params` plus the move:
-- a listing returns them as they are, and counting them or taking the first makes nothing for
-- the moves not read.
---@param _ctx CtxReader
---@param p Ship
---@param env MoveEnv
---@param params? table
---@return ChoiceList ends
---@return ChoiceList exits
---@return ChoiceList crashes
---@return boolean truncated
local function move_lists(_ctx, p, env, params)
  return mv.reach_choices(p.hex, facings_of(p), p.values.new_speed, p.stats.mr, env, params)
end

-- Resolve a move action to a simulation result, or nil and a reason.
---@param ctx CtxReader
---@param p Ship
---@param a table the action (plan, or to and facing; start_facing, path)
---@param env MoveEnv
---@return MoveResult|nil
---@return string|nil why
local function resolve_move(ctx, p, a, env)
  local speed = p.values.new_speed
  local start_facing = facing_of(p)
  if a.start_facing ~= nil then
    local f = mv.dir(a.start_facing)
    if f == nil then return nil, "start_facing must be a direction" end
    if f ~= start_facing and not p.values.free_rot then
      return nil, "only a ship at speed 0 all turn or leaving orbit may rotate freely"
    end
    start_facing = f
  end
  if speed == 0 then
    local f = start_facing ---@type integer|nil
    if a.facing ~= nil then f = mv.dir(a.facing) end
    if f == nil then return nil, "facing must be a direction" end
    if f ~= facing_of(p) and not p.values.free_rot then
      return nil, "only a ship at speed 0 all turn or leaving orbit may rotate freely"
    end
    if a.plan ~= nil and a.plan ~= "" then return nil, "a ship at speed 0 does not move" end
    if a.to ~= nil and not mv.eq(a.to, p.hex) then return nil, "a ship at speed 0 does not move" end
    return { to = p.hex, facing = f, turns = 0, path = { p.hex }, plan = "", exited = false, crashed = false }
  end
  local plan = a.plan
  if plan == nil then
    if a.to == nil then return nil, "give a plan, or a destination hex and facing" end
    local ends = moves_of(ctx, p, env)
    local want = a.facing ~= nil and mv.dir(a.facing) or nil
    for _, e in ipairs(ends) do
      if mv.eq(e.to, a.to) and (want == nil or e.facing == want) then
        plan, start_facing = e.plan, e.start_facing
        break
      end
    end
    if plan == nil then
      return nil, ("no legal move at speed %d ends in %s%s"):format(speed, mv.show(a.to),
        want and (" facing " .. mv.NAMES[want]) or "")
    end
  end
  local r, why = mv.simulate(p.hex, start_facing, speed, p.stats.mr, plan, env)
  if not r and not env.crash then
    -- A ship with no move that avoids every planet and stays on the map crashes.
    local ends, exits = move_lists(ctx, p, env)
    if #ends == 0 and #exits == 0 then
      local forced = setmetatable({ crash = true }, { __index = env })
      r = mv.simulate(p.hex, start_facing, speed, p.stats.mr, plan, forced)
    end
  end
  if not r then return nil, why end
  if a.to ~= nil and not mv.eq(a.to, r.to) then
    local far = type(a.to) == "table" and hex.distance(p.hex, a.to) or 0
    if far > speed then
      return nil, ("%s is %d hexes away: out of reach at speed %d"):format(mv.show(a.to), far, speed)
    end
    return nil, ("the plan ends in %s, not %s"):format(mv.show(r.to), mv.show(a.to))
  end
  if a.facing ~= nil and mv.dir(a.facing) ~= r.facing and not r.exited and not r.crashed then
    return nil, ("the plan ends facing %s, not %s"):format(mv.NAMES[r.facing], tostring(a.facing))
  end
  -- A path (as the listed choices carry it) must be the one the plan flies.
  if a.path ~= nil then
    local same = #a.path == #r.path
    for i = 1, #r.path do same = same and a.path[i] ~= nil and mv.eq(a.path[i], r.path[i]) end
    if not same then return nil, "the path is not the one the plan flies" end
  end
  return r
end

game.action {
  id = "move",
  phases = { "move" },
  params = { piece = "piece", plan = "string", start_facing = "direction", to = "hex", facing = "direction",
             path = "path" },
  choices = function(ctx, side)
    local out = {}
    local env
    for _, p in ipairs(listed_ships_of(ctx, side)) do
      if not p.values.moved and p.values.new_speed >= 0 then
        env = env or listed_env(ctx)
        -- Choice lists: { piece, plan, to, facing, path } per move (start_facing too for a
        -- ship that may rotate freely), made by the engine only for the choice a player takes.
        local ends, exits, crashes = move_lists(ctx, p, env, { piece = p.id })
        local list = ends
        -- Leaving the map (or crashing) is offered only when no move stays on it.
        if #ends == 0 then list = exits end
        if #list == 0 then list = crashes end
        out[#out + 1] = list
      end
    end
    return out
  end,
  check = function(ctx, a)
    local p, why = may_start_move(ctx, a)
    if not p then return false, why end
    if p.values.new_speed < 0 then return false, ("ship %d must choose its speed before it moves"):format(p.id) end
    local r
    r, why = resolve_move(ctx, p, a, move_env(ctx))
    if not r then return false, why end
    return true
  end,
  apply = function(ctx, a)
    local p = assert(ctx:piece(a.piece, SHARED), "check found the ship") --[[@as Ship]]
    local r = assert(resolve_move(ctx, p, a, move_env(ctx)))
    ORBITAL_SKIRMISH.finish_move(ctx, p, r)
  end,
}

-- Carry out a resolved move (shared by the move action and the default move).
---@param ctx Ctx
---@param p Ship
---@param r MoveResult
function ORBITAL_SKIRMISH.finish_move(ctx, p, r)
    ctx:set(p.id, "speed", p.values.new_speed)
    ctx:set(p.id, "moved", true)
    if r.exited then
      ctx:log(("ship %d leaves the map at %s and is lost"):format(p.id, mv.show(r.to)))
      ctx:destroy(p.id)
      return
    end
    if r.crashed then
      local _, planet = planets(ctx)
      if planet[hex_number(r.to)] then
        ctx:log(("ship %d crashes into the planet at %s"):format(p.id, mv.show(r.to)))
      else
        ctx:log(("ship %d flies head-on at a planet and crashes at %s"):format(p.id, mv.show(r.to)))
      end
      ctx:destroy(p.id)
      return
    end
    ctx:set(p.id, "path", r.path)
    ctx:move(p.id, r.to, r.facing)
    ctx:log(("ship %d moves %s to %s facing %s"):format(p.id, r.plan ~= "" and r.plan or "nowhere",
      mv.show(r.to), mv.NAMES[r.facing]))
end

game.action {
  id = "orbit",
  phases = { "move" },
  params = { piece = "piece", planet = "hex", dir = "string", facing = "direction" },
  choices = function(ctx, side)
    local out = {}
    local env
    for _, p in ipairs(listed_ships_of(ctx, side)) do
      if not p.values.moved and p.values.new_speed < 0 then
        env = env or listed_env(ctx)
        local options = {}
        if p.values.orbit then
          options[1] = { planet = p.values.orbit.planet, dir = p.values.orbit.dir }
        else
          for _, pl in ipairs(adjacent_planets(ctx, p.hex)) do
            options[#options + 1] = { planet = pl, dir = "cw" }
            options[#options + 1] = { planet = pl, dir = "ccw" }
          end
        end
        for _, o in ipairs(options) do
          local nxt = mv.orbit_next(o.planet, p.hex, o.dir)
          if nxt and env.on_board(nxt) and not env.blocked(nxt) then
            for f = 0, 5 do
              out[#out + 1] = { piece = p.id, planet = o.planet, dir = o.dir, facing = f }
            end
          end
        end
      end
    end
    return out
  end,
  check = function(ctx, a)
    local p, why = may_start_move(ctx, a)
    if not p then return false, why end
    if p.values.new_speed >= 0 then return false, ("ship %d has already chosen a speed this turn"):format(p.id) end
    if a.dir ~= "cw" and a.dir ~= "ccw" then return false, "the orbit direction is cw or ccw" end
    if mv.dir(a.facing) == nil then return false, "facing must be a direction" end
    if type(a.planet) ~= "table" then return false, "name the planet's hex" end
    local _, set = planets(ctx)
    if not set[hex_number(a.planet)] then return false, ("there is no planet at %s"):format(mv.show(a.planet)) end
    local o = p.values.orbit
    if o then
      if not mv.eq(o.planet, a.planet) then return false, "the ship is orbiting another planet" end
      if o.dir ~= a.dir then
        return false, "the orbit direction cannot change: leave orbit and start a new orbit to reverse it"
      end
    elseif mv.distance(p.hex, a.planet) ~= 1 then
      return false, "only a ship that starts its move next to a planet can orbit it"
    end
    local nxt = mv.orbit_next(a.planet, p.hex, a.dir)
    if nxt == nil then return false, "the ship is not next to that planet" end
    if set[hex_number(nxt)] then return false, ("the orbit is blocked by the planet at %s"):format(mv.show(nxt)) end
    return true
  end,
  apply = function(ctx, a)
    local p = assert(ctx:piece(a.piece, SHARED), "check found the ship") --[[@as Ship]]
    local nxt = assert(mv.orbit_next(a.planet, p.hex, a.dir), "check found the ship next to the planet")
    ctx:set(p.id, "speed", 0)
    ctx:set(p.id, "new_speed", 0)
    ctx:set(p.id, "moved", true)
    if not ctx:on_board(nxt) then
      ctx:log(("ship %d leaves the map in orbit and is lost"):format(p.id))
      ctx:destroy(p.id)
      return
    end
    if not p.values.orbit then
      ctx:log(("ship %d enters orbit %s around %s"):format(p.id, a.dir, mv.show(a.planet)))
    end
    ctx:set(p.id, "orbit", { planet = { q = a.planet.q, r = a.planet.r }, dir = a.dir })
    ctx:set(p.id, "path", { p.hex, nxt })
    ctx:move(p.id, nxt, mv.dir(a.facing))
    ctx:log(("ship %d orbits to %s facing %s"):format(p.id, mv.show(nxt), mv.NAMES[mv.dir(a.facing)]))
  end,
}

-- Every ship moves: a ship still without orders when its side ends the movement phase flies
-- straight on at last turn's speed, or goes on round its orbit (the runtime does not let a mod
-- refuse end_phase, so the rule is kept this way).
---@param ctx Ctx
---@param p Ship
local function default_move(ctx, p)
  local env = move_env(ctx)
  if p.values.orbit and p.values.new_speed < 0 then
    local o = p.values.orbit
    local nxt = mv.orbit_next(o.planet, p.hex, o.dir)
    if nxt and not env.blocked(nxt) then
      ctx:set(p.id, "moved", true)
      ctx:set(p.id, "new_speed", 0)
      if not env.on_board(nxt) then ctx:destroy(p.id) return end
      ctx:set(p.id, "path", { p.hex, nxt })
      ctx:move(p.id, nxt, facing_of(p))
      ctx:log(("ship %d goes on round its orbit"):format(p.id))
      return
    end
    ctx:set(p.id, "orbit", false)
  end
  if p.values.new_speed < 0 then
    ctx:set(p.id, "new_speed", p.values.speed)
    p = assert(ctx:piece(p.id, SHARED), "the ship is in the game") --[[@as Ship]]
  end
  if not speed_has_path(p, p.values.new_speed, env) then
    -- Every move at this speed enters a planet: the nearest speed it may choose with a move that
    -- avoids them instead, the slower of two (stopping where its ADF allows).
    local best ---@type integer|nil
    for _, s in ipairs(flyable_speeds(ctx, p)) do
      local d = math.abs(s - p.values.speed)
      if speed_has_path(p, s, env) and (best == nil or d < math.abs(best - p.values.speed)) then
        best = s
      end
    end
    if best == 0 and p.values.speed > 0 then
      ctx:set(p.id, "new_speed", 0)
      ctx:set(p.id, "speed", 0)
      ctx:set(p.id, "moved", true)
      ctx:set(p.id, "path", { p.hex })
      ctx:log(("ship %d had no orders and stops short of a planet"):format(p.id))
      return
    elseif best then
      ctx:set(p.id, "new_speed", best)
      p = assert(ctx:piece(p.id, SHARED), "the ship is in the game") --[[@as Ship]]
    end
  end
  local plan = string.rep("F", p.values.new_speed)
  local a = { piece = p.id, plan = plan }
  local r = resolve_move(ctx, p, a, env)
  if not r then
    local ends, exits, crashes = move_lists(ctx, p, env)
    local e = ends[1] or exits[1] or crashes[1]
    a.plan, a.start_facing = e.plan, e.start_facing
    r = assert(resolve_move(ctx, p, a, env))
  end
  ctx:log(("ship %d had no orders and flies straight on"):format(p.id))
  ORBITAL_SKIRMISH.finish_move(ctx, p, r)
end

-- Hooks run after the clock has moved on, so ctx.phase is already the next phase: the
-- event names the phase that ended, and phase_start recorded whose movement phase it was.
-- Filtered: the engine calls it only when a movement phase ends.
game.on("phase_end", { phases = { "move" } }, function(ctx)
  local mover = ctx:global("mover")
  if not mover then return end
  for _, p in ipairs(ships_of(ctx, mover)) do
    if not p.values.moved then default_move(ctx, p) end
  end
end)

require("fire")

---------------------------------------------------------------------------------------------
-- Setup, hooks, victory
---------------------------------------------------------------------------------------------
---@param ctx Ctx
---@param p Piece
local function reset_move(ctx, p)
  ctx:set(p.id, "new_speed", -1)
  ctx:set(p.id, "moved", false)
  ctx:set(p.id, "free_rot", false)
  ctx:set(p.id, "path", { p.hex })
end

game.setup(function(ctx)
  local list = ctx:board_hexes { terrain = "planet" }
  table.sort(list, function(a, b) if a.q ~= b.q then return a.q < b.q end return a.r < b.r end)
  ctx:set_global("planets", list)
  for _, p in ipairs(ctx:pieces {}) do
    if p.hex then
      reset_move(ctx, p)
      ctx:set(p.id, "fired", {})
    end
  end
end)

-- A movement phase starts: the mover's ships get a fresh turn. The hook reads only the fields
-- it needs (a light read, in id order like ships_of), shared. Fire phases need no hook (see
-- fire_phase).
game.on("phase_start", { phases = { "move" } }, function(ctx)
  ctx:set_global("mover", ctx.active)
  for _, p in ipairs(ctx:pieces { owner = ctx.active, fields = { "id", "hex" }, shared = true }) do
    if p.hex then reset_move(ctx, p) end
  end
end)

---@param ctx CtxReader
---@param side string
---@return integer
local function side_hull(ctx, side)
  local sum = 0
  for _, p in ipairs(ships_of(ctx, side)) do sum = sum + hull_left(p) end
  return sum
end

-- Victory runs after every action: one light ctx:pieces call (owner, type and hex only),
-- counted per side.
---@param ctx Ctx
---@return { winners: string[], reason: string }|nil
local function result(ctx)
  local count, objective = {}, 0
  local o = ctx.options or {}
  for _, p in ipairs(ctx:pieces { fields = { "owner", "type", "hex" } }) do
    if p.hex then
      count[p.owner] = (count[p.owner] or 0) + 1
      if p.owner == o.defender and p.type == o.objective_type then objective = objective + 1 end
    end
  end
  if o.objective_type and o.defender and o.attacker and objective == 0 then
    return { winners = { o.attacker }, reason = ("the %s is destroyed"):format(o.objective_type) }
  end
  local left = {}
  for _, s in ipairs(ctx:sides()) do
    if count[s.id] then left[#left + 1] = s.id end
  end
  if #left == 1 then return { winners = left, reason = left[1] .. " has the only ships left on the map" } end
  if #left == 0 then return { winners = {}, reason = "no ships are left on the map" } end
  return nil
end

-- At the turn limit: the scenario names a winner (the defender of an objective), or the side
-- with the most hull points left on the map wins; equal hull is a draw.
---@param ctx Ctx
---@return { winners: string[], reason: string }
local function turn_limit_result(ctx)
  local r = result(ctx)
  if r then return r end
  local o = ctx.options or {}
  if o.limit_winner and o.limit_winner ~= "hull" then
    return { winners = { o.limit_winner }, reason = "the turn limit is reached: " .. o.limit_winner .. " holds out" }
  end
  local best, best_hull, tie = nil, -1, false
  for _, s in ipairs(ctx:sides()) do
    local h = side_hull(ctx, s.id)
    if h > best_hull then best, best_hull, tie = s.id, h, false elseif h == best_hull then tie = true end
  end
  if tie then return { winners = {}, reason = "the turn limit is reached with equal hull points" } end
  return { winners = { best }, reason = ("the turn limit is reached: %s has the most hull left (%d)"):format(best, best_hull) }
end
ORBITAL_SKIRMISH.turn_limit_result = turn_limit_result

game.victory(result)

-- The search bot's heuristic (`--bots mcts`, docs/API.md section 2.10b): how the game stands
-- for `side`, from 0 to 1. Its share of the hull points left on the map (what the turn limit
-- decides on); in a scenario with an objective, half of it is the objective: for its defender
-- the share of the objective's hull still standing, for the attacker the share knocked out.
---@param ctx Ctx
---@param side string
---@return number
game.evaluate = function(ctx, side)
  local mine, all = 0, 0
  for _, s in ipairs(ctx:sides()) do
    local h = side_hull(ctx, s.id)
    all = all + h
    if s.id == side then mine = h end
  end
  local value = all > 0 and mine / all or 0.5
  local o = ctx.options or {}
  if o.objective_type and (side == o.attacker or side == o.defender) then
    local left, full = 0, 0
    for _, p in ipairs(ships_of(ctx, o.defender)) do
      if p.type == o.objective_type then left, full = left + hull_left(p), full + p.stats.hull end
    end
    local held = full > 0 and left / full or 0
    value = (value + (side == o.defender and held or 1 - held)) / 2
  end
  return value
end

-- The scenario's turn_limit ends the game after that round; the turn_limit event decides it.
game.on("turn_limit", function(ctx) ctx:end_game(turn_limit_result(ctx)) end)
