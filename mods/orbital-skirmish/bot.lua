-- bot.lua: a simple greedy player (closes range, fires at the best odds).
--
-- What it is: a scoring function over the legal actions the rules list; the bot takes the
-- highest score (ties: the first). What it deliberately does not do: look ahead, coordinate
-- ships, or change the game (it only reads ctx). main.lua registers it as `game.bots.greedy`
-- (`hexforge play mods/orbital-skirmish --bots blue=greedy,red=random`).
--   local best, index = bot.choose(ctx, "blue", legal_actions, weapon_info)

---@class OrbitalBot
local B = {}

local mv = require("movement")

-- `enemies`: the enemy ships on the map (read once per decision, not once per action).
---@param enemies Ship[]
---@param h Hex
---@return Ship|nil
---@return integer|nil distance
local function nearest_enemy(enemies, h)
  local best, best_d
  for _, p in ipairs(enemies) do
    local d = mv.distance(h, p.hex)
    if best_d == nil or d < best_d then best, best_d = p, d end
  end
  return best, best_d
end

-- Mean of "NdS+K" dice.
---@param notation any
---@return number
local function mean(notation)
  local n, s, k = tostring(notation):match("^(%d*)d(%d+)([%+%-]?%d*)$")
  if not s then return 0 end
  local count = tonumber(n) or 1
  local sides = assert(tonumber(s), "the sides are digits")
  return count * (sides + 1) / 2 + (tonumber(k) or 0)
end
B.mean = mean

--- What a move that ends at `to` facing `f` at `speed` loses for ending near trouble: 10 when
-- the hex a full move ahead is off the map (keep away from the edge), 30 for each planet next
-- to the bow (next turn's first hex would be the planet).
---@param ctx CtxReader
---@param to Hex
---@param f integer
---@param speed integer
---@param planets Hex[]
---@return number
function B.hazards(ctx, to, f, speed, planets)
  local s = 0
  local ahead = to
  for _ = 1, math.max(1, speed) do ahead = mv.step(ahead, f) end
  if not ctx:on_board(ahead) then s = s - 10 end
  local bow = mv.step(to, f)
  for _, pl in ipairs(planets) do
    if mv.eq(pl, bow) then s = s - 30 end
  end
  return s
end

--- How many interceptors greedy fires at a shot whose weapon loses `penalty` points an
-- interceptor: three at a torpedo (10 points each), two at an assault rocket (5), one at a
-- rocket battery's rocket (3 points: interceptors are worth keeping).
---@param penalty integer
---@return integer
function B.interceptors_wanted(penalty)
  return penalty >= 10 and 3 or penalty >= 5 and 2 or 1
end

--- The score of one legal action; higher is better.
---@param ctx CtxReader
---@param side string
---@param a table a legal action (id, side and its params)
---@param weapon_info fun(ctx: CtxReader, id: string): Weapon
---@param cache? table what one decision reads once for all its actions (enemies, ships, planets)
---@return number
function B.score(ctx, side, a, weapon_info, cache)
  cache = cache or {}
  if not cache.enemies then
    cache.enemies, cache.ships = {}, {}
    for _, p in ipairs(ctx:pieces {}) do
      if p.hex then
        cache.ships[p.id] = p
        if p.owner ~= side then cache.enemies[#cache.enemies + 1] = p end
      end
    end
    cache.planets = ctx:global("planets") or {}
  end
  local function piece(id) return cache.ships[id] end
  if a.id == "fire" then
    local p, t = piece(a.piece), piece(a.target)
    local w = weapon_info(ctx, p.stats.weapons[a.weapon])
    local range = mv.distance(p.hex, a.at or t.hex)
    local chance = math.max(0, w.chance - w.range_loss * range)
    -- Save limited rounds for good odds.
    if w.limited == "yes" and chance < 35 then return -1 end
    return 100 + chance * mean(w.damage) / 100
  end
  if a.id == "speed" then
    local p = piece(a.piece)
    local _, d = nearest_enemy(cache.enemies, p.hex)
    -- Close to one hex; with an enemy already that near, stop and fire rather than fly past.
    local want = math.max(0, math.min((d or 4) - 1, 8))
    return 50 - math.abs(a.speed - want)
  end
  if a.id == "move" then
    local p = piece(a.piece)
    local to, f = a.to, mv.dir(a.facing) or 0
    local e, d = nearest_enemy(cache.enemies, to)
    local s = 50 - (d or 0)
    if e then
      local v = mv.VECTORS[f]
      local dq, dr = e.hex.q - to.q, e.hex.r - to.r
      local k = mv.distance(to, e.hex)
      if dq == k * v[1] and dr == k * v[2] then s = s + 3 end -- enemy in the forward band
    end
    return s + B.hazards(ctx, to, f, p.values.new_speed, cache.planets)
  end
  if a.id == "intercept" then
    -- As many as the rules allow at a torpedo (10 points each), two at an assault rocket,
    -- one at a rocket battery's rocket (3 points: interceptors are worth keeping).
    local shot = ctx:global("pending_shot") or {}
    return 60 - math.abs(a.count - B.interceptors_wanted(shot.penalty or 0))
  end
  if a.id == "orbit" then
    -- With an enemy within reach of its guns, a ship next to a planet holds station in orbit
    -- (free to face any way), best facing the enemy after its orbit step.
    local p = piece(a.piece)
    local e, d = nearest_enemy(cache.enemies, p.hex)
    if not e or d > 6 then return 10 end
    local nxt = mv.orbit_next(a.planet, p.hex, a.dir)
    if not nxt then return 51 end
    local v, k = mv.VECTORS[mv.dir(a.facing) or 0], mv.distance(nxt, e.hex)
    local ahead = e.hex.q - nxt.q == k * v[1] and e.hex.r - nxt.r == k * v[2]
    return ahead and 53 or 51
  end
  return 0 -- end_phase
end

--- Whether a ship with `p`'s stats that ends this turn at `to` facing `f`, having flown
-- `speed`, has a way on next turn: a speed it may then choose at which some move stays on the
-- map and crashes into nothing. In the base game a planet ahead only blocks (the bow penalty in
-- B.score covers it); where planets pull (the gravity variant's env.pull and env.crash), a
-- planet two hexes ahead, or a pull on the way, can leave every move of the next turn a crash.
---@param p Ship
---@param to Hex
---@param f integer
---@param speed integer
---@param env MoveEnv
---@return boolean
function B.has_way_on(p, to, f, speed, env)
  for _, s in ipairs(mv.speed_options(speed, p.stats.adf)) do
    if s == 0 then return true end
    local ends = mv.reach(to, { f }, s, p.stats.mr, env)
    if ends[1] ~= nil then return true end
  end
  return false
end

-- Whether a speed or a move leaves the ship a safe way on: a speed needs a move that neither
-- crashes nor leaves the map, a move a way on next turn.
---@param ctx CtxReader
---@param a table
---@param env MoveEnv
---@return boolean
local function safe(ctx, a, env)
  local p = ctx:piece(a.piece, { shared = true }) --[[@as Ship]]
  if a.id == "speed" then
    if a.speed == 0 then return true end
    local facings = p.values.orbit and { 0, 1, 2, 3, 4, 5 } or { mv.dir(p.facing) or 0 }
    local ends = mv.reach(p.hex, facings, a.speed, p.stats.mr, env)
    return ends[1] ~= nil
  end
  return B.has_way_on(p, a.to, mv.dir(a.facing) or 0, p.values.new_speed, env)
end

-- How many of the best-scored actions B.choose checks for safety before it gives up and takes
-- the best (a ship with no safe way on left anywhere would otherwise cost a search per move).
local MAX_SAFETY_CHECKS = 12

---How a bot weighs the legal actions: the score of each, by index (greedy's is B.score for
---each; tactics.lua has the tactical bot's).
---@alias ActionScores fun(ctx: CtxReader, side: string, actions: table[], weapon_info: fun(ctx: CtxReader, id: string): Weapon): number[]

--- The best action of `actions` (a list of legal actions) for `side`, and its 1-based index.
-- With `move_env` (the game's movement environment, reading.move_env), a speed or move that
-- leaves the ship no safe way on is passed over for the next best (up to 12 tries); the check runs
-- best score first and stops at the first safe one, so it costs a move search or two a pick.
---@param ctx CtxReader
---@param side string
---@param actions table[]
---@param weapon_info fun(ctx: CtxReader, id: string): Weapon
---@param move_env? fun(ctx: CtxReader): MoveEnv
---@param weigh? ActionScores how to weigh the actions (B.score, greedy's, unless given)
---@return table|nil best
---@return integer|nil index
function B.choose(ctx, side, actions, weapon_info, move_env, weigh)
  local scores = {}
  if weigh then
    scores = weigh(ctx, side, actions, weapon_info)
  else
    local cache = {}
    for i, a in ipairs(actions) do scores[i] = B.score(ctx, side, a, weapon_info, cache) end
  end
  -- The best-scored action not yet passed over (ties: the first).
  ---@param passed table<integer, boolean>
  ---@return integer|nil
  local function best_of(passed)
    local best_i = nil ---@type integer|nil
    for i = 1, #actions do
      if not passed[i] and (best_i == nil or scores[i] > scores[best_i]) then best_i = i end
    end
    return best_i
  end
  local first_i = best_of({})
  if first_i == nil then return nil, nil end
  if move_env ~= nil then
    local passed, env, i = {}, nil, first_i ---@type table<integer, boolean>, MoveEnv|nil, integer|nil
    for _ = 1, MAX_SAFETY_CHECKS do
      if i == nil then break end
      local a = actions[i] --[[@as table]]
      if a.id ~= "speed" and a.id ~= "move" then return a, i end
      local e = env or move_env(ctx)
      env = e
      if safe(ctx, a, e) then return a, i end
      passed[i] = true
      i = best_of(passed)
    end
  end
  return actions[first_i], first_i
end

return B
