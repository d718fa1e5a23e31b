-- tactics.lua: the `tactical` bot's scores: greedy's fire, but speeds and moves chosen by the
-- fire they trade, and interceptors kept for torpedoes.
--
-- greedy flies at the nearest enemy and ends as close as it can. In this game that is
-- costly in three ways: a ship's path is fired at in the other side's defensive fire, all of
-- it, from the start hex on, so a path through an enemy's bow band invites its laser cannon;
-- a ship that ends its move within the enemy's reach (its next speed plus torpedo range) but
-- beyond its own torpedo range hands the enemy the first torpedo; and an interceptor spent on
-- a rocket battery's shot (3 points off it) is missing from the next torpedo (10 points). This
-- bot weighs a move by what it expects in damage points:
--   + its offensive fire now, from where the move ends, at the enemy where it is;
--   + its defensive fire next half, at the enemy's start hex (every path starts there);
--   - the enemy's defensive fire now, at the best hex of the path for each of its weapons;
--   - the enemy's offensive fire next half, from as close as its next speed brings it
--     (left out once waiting no longer pays, see `waits`: then it closes in instead);
-- and a speed by the best move that speed offers (scored at the move's end hex, without the
-- path: the listing of a speed has no paths). Every shot is weighed as if the target's side
-- intercepted as this bot does. What it deliberately does not do: look further, coordinate
-- ships (each ship is weighed as if it were the only mover), or aim (fire and targets are
-- greedy's). main.lua registers it as `game.bots.tactical`:
--   local weigh = tactics.weigher(move_env)
--   local best, index = bot.choose(ctx, side, legal, weapon_info, move_env, weigh)

---@class OrbitalTactics
local T = {}

local mv = require("movement")
local C = require("combat")
local bot = require("bot")
local R = require("reading")

-- Mean of "NdS+K" dice (the one bot.lua uses).
local mean = bot.mean

-- How many interceptors a side fires at a shot of a weapon with this penalty: all it may at
-- a torpedo; none at a rocket battery or assault rocket while the enemy has torpedoes left.
---@param penalty integer
---@param torpedoes_left integer the enemy's torpedo rounds still carried
---@return integer
local function interceptors_at(penalty, torpedoes_left)
  if penalty < 10 and torpedoes_left > 0 then return 0 end
  return bot.interceptors_wanted(penalty)
end

---The expected damage of each weapon mount by slot, and their sum.
---@class FireValues
---@field [integer] number
---@field sum number

-- A band as a number, for T.fire_values' memo key.
local BAND = { centre = 0, side = 1, own = 2, none = 3, free = 4 }

-- The expected damage of each of `firer`'s weapons (a list by mount) in one fire phase at
-- `target`, `range` hexes away, where the target lies in the firer's bow band (`band`:
-- "centre", "side", "own" or "none", or "free" for a firer that turns to face it first), and
-- their sum. Memoised per decision: it depends on nothing else.
---@param ctx CtxReader
---@param cache table T.read's
---@param firer Ship
---@param target Ship
---@param range integer
---@param band string
---@param offensive boolean torpedoes and assault rockets fire only in offensive fire
---@param weapon_info fun(ctx: CtxReader, id: string): Weapon
---@return FireValues by_mount
---@return number sum
function T.fire_values(ctx, cache, firer, target, range, band, offensive, weapon_info)
  local key = (((firer.id * 4096 + target.id) * 256 + range) * 8 + (BAND[band] or 3)) * 2 + (offensive and 1 or 0)
  local v = cache.fire[key]
  if v ~= nil then return v, v.sum end
  v = { sum = 0 }
  local ammo, icm = firer.values.ammo or {}, target.values.icm or 0
  for slot, wid in ipairs(firer.stats.weapons) do
    local w = weapon_info(ctx, wid)
    local may = (offensive or w.fire ~= "offensive") and (w.limited ~= "yes" or (ammo[wid] or 0) > 0)
      and range <= w.range and (w.arc ~= "forward" or band ~= "none")
    v[slot] = 0
    if may then
      local bonus = (w.arc == "forward" and (band == "centre" or band == "free")) and cache.head_on or 0
      local n = w.icm_penalty > 0 and math.min(icm, interceptors_at(w.icm_penalty, 1)) or 0
      v[slot] = C.chance(w.chance + bonus, w.range_loss, range, w.icm_penalty, n) / 100 * mean(w.damage)
      v.sum = v.sum + v[slot]
    end
  end
  cache.fire[key] = v
  return v, v.sum
end


-- No fire at all.
local NONE = { sum = 0 } ---@type FireValues

-- Whether a planet blocks the line of fire between two hexes (either way: the test is
-- symmetric), memoised per decision.
---@return boolean
local function blocked(cache, a, b, env)
  local key = R.hex_number(a) * 67108864 + R.hex_number(b) -- hex numbers are below 2^26
  local v = cache.los[key]
  if v == nil then
    v = C.los_blocked(a, b, env.planets or {}, env.blocked)
    cache.los[key] = v
  end
  return v
end

-- The expected damage of `firer`'s fire from `from` facing `f` at `target` in hex `at`, by
-- mount and in all (T.fire_values): none out of every weapon's range or behind a planet.
---@return FireValues by_mount
---@return number sum
local function shot(ctx, cache, firer, from, f, target, at, offensive, env, weapon_info)
  local range = mv.distance(from, at)
  if range > cache.longest or blocked(cache, from, at, env) then return NONE, 0 end
  local band = C.forward_band(from, f, at) or "none"
  return T.fire_values(ctx, cache, firer, target, range, band, offensive, weapon_info)
end

-- How near a side that no longer waits wants to end its move (torpedo range).
local CLOSE_IN = 4

-- Whether keeping out of the enemy's reach still pays: not where the turn limit gives the
-- game to another side (a scenario's `limit_winner`: the raiders must go in), nor, where the
-- side with more hull wins at the limit, past half the game's rounds for a side that is not
-- ahead. Without this, two tactical players each wait for the other to come in, and the game
-- is decided at the limit without a shot that hits.
---@param ctx Ctx
---@param side string
---@param mine number this side's hull left on the map
---@param theirs number the other sides'
---@return boolean
local function waits(ctx, side, mine, theirs)
  local o = ctx.options or {}
  if o.limit_winner and o.limit_winner ~= "hull" then return o.limit_winner == side end
  local limit = ctx.turn_limit
  return not (limit and ctx.round > limit / 2 and mine <= theirs)
end

-- What one decision reads once for all its actions: the enemies on the map, the ships by id,
-- the head-on bonus, and how many torpedo rounds the enemy still carries.
---@param ctx CtxReader
---@param side string
---@param cache table
---@param weapon_info fun(ctx: CtxReader, id: string): Weapon
function T.read(ctx, side, cache, weapon_info)
  if cache.head_on ~= nil then return end
  cache.enemies, cache.ships, cache.order, cache.torpedoes = {}, {}, {}, 0
  cache.facing, cache.reach = {}, {}
  local mine, theirs = 0.0, 0.0
  for _, p in ipairs(ctx:pieces {}) do
    if p.hex then
      cache.ships[p.id] = p
      cache.order[#cache.order + 1] = p
      local hull = R.hull_left(p)
      if p.owner == side then mine = mine + hull else theirs = theirs + hull end
      if p.owner ~= side then
        cache.enemies[#cache.enemies + 1] = p
        cache.facing[p.id] = mv.dir(p.facing) or 0
        cache.reach[p.id] = (p.values.speed or 0) + (p.stats.adf or 0)
        cache.torpedoes = cache.torpedoes + ((p.values.ammo or {}).torpedo or 0)
      end
    end
  end
  cache.head_on = R.rule(ctx, "head_on_bonus") or 0
  cache.wait = waits(ctx --[[@as Ctx]], side, mine, theirs) and 1 or 0
  cache.fire, cache.los = {}, {}
  cache.longest = 0
  for _, p in pairs(cache.ships) do
    for _, wid in ipairs(p.stats.weapons) do
      local r = weapon_info(ctx, wid).range
      if r > cache.longest then cache.longest = r end
    end
  end
end

-- The fire a ship `p` ending at `to` facing `f` trades with the enemy, in expected damage
-- points (see the top of the file). `path`: the hexes of its move, or nil to weigh the end
-- hex alone.
---@param ctx CtxReader
---@param cache table T.read's
---@param p Ship
---@param to Hex
---@param f integer
---@param path Hex[]|nil
---@param env table
---@param weapon_info fun(ctx: CtxReader, id: string): Weapon
---@return number
function T.exchange(ctx, cache, p, to, f, path, env, weapon_info)
  local out, back = 0.0, 0.0
  local nearest = nil ---@type integer|nil
  for _, e in ipairs(cache.enemies) do
    local range = mv.distance(to, e.hex)
    if nearest == nil or range < nearest then nearest = range end
    local ef = cache.facing[e.id]
    if range <= cache.longest and not blocked(cache, to, e.hex, env) then
      -- This half's offensive fire, and next half's defensive fire at its start hex: at the
      -- enemy worth most (each weapon picks its own target in play; close enough here).
      local band = C.forward_band(to, f, e.hex) or "none"
      local _, now = T.fire_values(ctx, cache, p, e, range, band, true, weapon_info)
      local _, next = T.fire_values(ctx, cache, p, e, range, band, false, weapon_info)
      if now + next > out then out = now + next end
      -- This half: its defensive fire at the end hex (the path's other hexes below).
      if path == nil then
        local _, sum = T.fire_values(ctx, cache, e, p, range, C.forward_band(e.hex, ef, to) or "none",
          false, weapon_info)
        back = back + sum
      end
    end
    -- Next half: it closes by up to its speed plus its ADF, turns to face, and fires.
    local close = math.max(1, range - cache.reach[e.id]) --[[@as integer]]
    if close <= cache.longest and cache.wait > 0 then
      local _, sum = T.fire_values(ctx, cache, e, p, close, "free", true, weapon_info)
      back = back + sum
    end
    -- This half: its defensive fire at the path, each weapon at its best hex of it.
    if path ~= nil then
      local best = {}
      for _, h in ipairs(path) do
        local by_mount = shot(ctx, cache, e, e.hex, ef, p, h, false, env, weapon_info)
        for slot, v in ipairs(by_mount) do
          if v > (best[slot] or 0) then best[slot] = v end
        end
      end
      for _, v in pairs(best) do back = back + v end
    end
  end
  -- A side that no longer waits closes in: a point a hex beyond torpedo range.
  if cache.wait == 0 and nearest and nearest > CLOSE_IN then back = back + (nearest - CLOSE_IN) end
  return out - back
end

-- Above end_phase (0) and greedy's shots (100 and more) alike: in the movement phase a ship
-- always takes a speed and a move, whatever they trade (left alone it would fly straight on).
local MOVE_BASE = 1000

-- What greedy takes off a move that ends near trouble (the map edge ahead, a planet at the bow).
local hazards = bot.hazards

-- The most end positions of one speed weighed (evenly spread over its listing): a fast,
-- nimble ship lists hundreds, and a bot has a bounded budget a decision.
local ENDS_PER_SPEED = 48
-- The best a speed offers: the best exchange of the moves it lists, at their end hexes.
---@return number
local function speed_value(ctx, cache, p, speed, env, weapon_info)
  local facings = (p.values.orbit or speed == 0) and { 0, 1, 2, 3, 4, 5 } or { mv.dir(p.facing) or 0 }
  local ends ---@type { to: Hex, facing: integer|string }[]
  if speed == 0 then
    ends = {}
    local free = (p.values.speed or 0) == 0
    for _, f in ipairs(free and facings or { mv.dir(p.facing) or 0 }) do
      ends[#ends + 1] = { to = p.hex, facing = f }
    end
  else
    ends = mv.reach(p.hex, facings, speed, p.stats.mr, env)
  end
  local best = nil
  local stride = math.max(1, math.ceil(#ends / ENDS_PER_SPEED))
  for i = 1, #ends, stride do
    local m = ends[i] --[[@as { to: Hex, facing: integer|string }]]
    local f = mv.dir(m.facing) or 0
    local v = T.exchange(ctx, cache, p, m.to, f, nil, env, weapon_info)
      + hazards(ctx, m.to, f, speed, cache.planets)
    if best == nil or v > best then best = v end
  end
  return best or -100
end

-- Speed values by position. The search bot asks its guide about the same position many
-- times a decision (every simulation passes through the root's children), and a speed's
-- value depends only on where the ships are, how they fly and what they carry, and on the
-- planets: so a cache of a pure function (the same answers as computing them again), bounded
-- and emptied when full. Kept in the VM, which may be thrown away with it at any moment.
local SPEED_MEMO = {} ---@type table<string, table<integer, number>>
local SPEED_MEMO_SIZE, SPEED_MEMO_MAX = 0, 4096

-- What speed_value reads of the game, as a string: every ship's place, course and stores,
-- the ship choosing, and the planets.
---@return string
local function position_key(cache, p)
  local parts = { p.id, cache.wait }
  for _, s in ipairs(cache.order) do
    local v = s.values
    local orbit = v.orbit and (mv.key(v.orbit.planet) .. tostring(v.orbit.dir)) or "-"
    local stores = {}
    for k, n in pairs(v.ammo or {}) do stores[#stores + 1] = k .. "=" .. n end
    table.sort(stores)
    parts[#parts + 1] = ("%d:%s:%s:%d:%s:%s:%d"):format(s.id, mv.key(s.hex), tostring(s.facing),
      v.speed or 0, orbit, table.concat(stores, ","), v.icm or 0)
  end
  for _, h in ipairs(cache.planets) do parts[#parts + 1] = mv.key(h) end
  return table.concat(parts, "|")
end

-- speed_value of every speed `p` may choose, from the memo when the position was seen.
---@return table<integer, number>
local function speed_values(ctx, cache, p, env, weapon_info)
  local key = position_key(cache, p)
  local seen = SPEED_MEMO[key]
  if seen ~= nil then return seen end
  local values = {} ---@type table<integer, number>
  for _, s in ipairs(mv.speed_options(p.values.speed or 0, p.stats.adf)) do
    values[s] = speed_value(ctx, cache, p, s, env, weapon_info)
  end
  if SPEED_MEMO_SIZE >= SPEED_MEMO_MAX then
    SPEED_MEMO = {}
    SPEED_MEMO_SIZE = 0
  end
  SPEED_MEMO[key] = values
  SPEED_MEMO_SIZE = SPEED_MEMO_SIZE + 1
  return values
end

-- The score of one action other than a move (a move: see T.weigher).
---@return number
local function score(ctx, side, a, weapon_info, cache, move_env)
  if a.id == "fire" or a.id == "end_phase" then return bot.score(ctx, side, a, weapon_info, cache) end
  T.read(ctx, side, cache, weapon_info)
  if a.id == "intercept" then
    local pending = ctx:global("pending_shot") or {}
    return 60 - math.abs(a.count - interceptors_at(pending.penalty or 0, cache.torpedoes))
  end
  cache.env = cache.env or move_env(ctx)
  cache.planets = cache.planets or ctx:global("planets") or {}
  local p = cache.ships[a.piece] --[[@as Ship]]
  if a.id == "speed" then
    cache.speeds = cache.speeds or {}
    local values = cache.speeds[p.id] or speed_values(ctx, cache, p, cache.env, weapon_info)
    cache.speeds[p.id] = values
    return MOVE_BASE + (values[a.speed] or -100)
  end
  if a.id == "orbit" then
    local nxt = mv.orbit_next(a.planet, p.hex, a.dir)
    if not nxt then return MOVE_BASE - 100 end
    return MOVE_BASE + T.exchange(ctx, cache, p, nxt, mv.dir(a.facing) or 0, { p.hex, nxt }, cache.env, weapon_info)
  end
  return bot.score(ctx, side, a, weapon_info, cache)
end

--- The tactical bot's scores of the legal actions (a bot.ActionScores once `move_env` is
-- bound): greedy's for fire, the exchange for speeds, moves and orbits, interceptors kept for
-- torpedoes. Moves are weighed at their end hex first, which is an upper bound of their
-- score (the enemy fires at the path's worst hex, and the end hex is on it); only those whose
-- bound beats the best exact score so far have their path read and weighed: a fast ship
-- lists hundreds of moves, each path as long as its speed.
---@param move_env fun(ctx: CtxReader): MoveEnv
---@return ActionScores
function T.weigher(move_env)
  return function(ctx, side, actions, weapon_info)
    local scores, cache, moves = {}, {}, {}
    for i, a in ipairs(actions) do
      if a.id == "move" then
        T.read(ctx, side, cache, weapon_info)
        cache.env = cache.env or move_env(ctx)
        cache.planets = cache.planets or ctx:global("planets") or {}
        local p, f = cache.ships[a.piece] --[[@as Ship]], mv.dir(a.facing) or 0
        scores[i] = MOVE_BASE + T.exchange(ctx, cache, p, a.to, f, nil, cache.env, weapon_info)
          + hazards(ctx, a.to, f, p.values.new_speed or 0, cache.planets)
        moves[#moves + 1] = i
      else
        scores[i] = score(ctx, side, a, weapon_info, cache, move_env)
      end
    end
    table.sort(moves, function(x, y) return scores[x] > scores[y] or (scores[x] == scores[y] and x < y) end)
    local best = nil
    for _, i in ipairs(moves) do
      if best ~= nil and scores[i] < best then break end
      local a = actions[i]
      local p = cache.ships[a.piece] --[[@as Ship]]
      local f = mv.dir(a.facing) or 0
      scores[i] = MOVE_BASE + T.exchange(ctx, cache, p, a.to, f, a.path, cache.env, weapon_info)
        + hazards(ctx, a.to, f, p.values.new_speed or 0, cache.planets)
      if best == nil or scores[i] > best then best = scores[i] end
    end
    return scores
  end
end

return T
