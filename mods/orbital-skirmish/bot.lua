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
    -- Keep away from the edge: the hex a full move ahead should be on the map.
    local ahead = to
    for _ = 1, math.max(1, p.values.new_speed) do ahead = mv.step(ahead, f) end
    if not ctx:on_board(ahead) then s = s - 10 end
    -- Never end facing a planet next to the bow: next turn's first hex would be the planet.
    local bow = mv.step(to, f)
    for _, pl in ipairs(cache.planets) do
      if mv.eq(pl, bow) then s = s - 30 end
    end
    return s
  end
  if a.id == "intercept" then
    -- As many as the rules allow at a torpedo (10 points each), two at an assault rocket,
    -- one at a rocket battery's rocket (3 points: interceptors are worth keeping).
    local shot = ctx:global("pending_shot") or {}
    local want = (shot.penalty or 0) >= 10 and 3 or (shot.penalty or 0) >= 5 and 2 or 1
    return 60 - math.abs(a.count - want)
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

--- The best action of `actions` (a list of legal actions) for `side`, and its 1-based index.
---@param ctx CtxReader
---@param side string
---@param actions table[]
---@param weapon_info fun(ctx: CtxReader, id: string): Weapon
---@return table|nil best
---@return integer|nil index
function B.choose(ctx, side, actions, weapon_info)
  local best, best_s, best_i
  local cache = {}
  for i, a in ipairs(actions) do
    local s = B.score(ctx, side, a, weapon_info, cache)
    if best_s == nil or s > best_s then best, best_s, best_i = a, s, i end
  end
  return best, best_i
end

return B
