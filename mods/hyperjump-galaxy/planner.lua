-- planner.lua: the planner bot (`game.bots.planner`), a stronger guide for the search bot than
-- greedy. It scores every legal action as greedy does (bot.lua: B.score on one B.read of the
-- state) except for these, where greedy loses games:
--   - Space: the side's starships move as one fleet. greedy spreads its warships over its
--     transports, and a lone or outnumbered group is what an enemy fleet shoots at (a hit
--     takes a warship first, then the transports with what they carry). Every starship jumps
--     (or moves by impulse) to one orbit box, `muster`, chosen from what does not change
--     while the side moves: enemy transports, cargo and warships where the whole fleet
--     outnumbers his warships (not in the last round: a ship sunk then changes nothing), what
--     the troops aboard would add to a target (`prospect`), room aboard for spare troops.
--     So transports are always escorted by every warship (greedy never attacks that), and
--     the fleet picks off what greedy leaves alone.
--   - Landing: on a target the enemy is not on, one unit (W.keep) holds it before the last two
--     rounds and the rest stay aboard, escorted, for another target (greedy lands all it
--     carries); where he is, into
--     his environ when the units over the planet outnumber him there within its size (S1:
--     Korrin's and Ilex's environs take two a side, so only Marrow's urban one gives three or
--     four against two), or beside him where he cannot bring as many as land; never a few
--     against many. In the last round (not the very last turn, where greedy's reading that
--     only presence counts is right) every unit aboard lands where it is likeliest to be left
--     after the enemy's one more attack: a lone unit in Marrow's seas (size 1) faces one die,
--     in its hills two. A planet he does not hold at the end counts against him (V1).
--   - Lifting off: the units beyond what holds their planet (one where the enemy is not, one
--     more than his where he is) board a transport of the fleet that is over them.
-- Combat, breaking off and characters are greedy's. What it deliberately does not do: look
-- ahead (a bot reads, it does not play), split the fleet (so it holds fewer planets early
-- and contests more), guess where the enemy will jump, or keep state between calls.
--
-- Example: `hexforge play mods/hyperjump-galaxy --bots accord=planner,hegemony=greedy`, or as
-- the search bot's guide: `--bots accord=mcts:iters=50:guide=planner:trust=3,hegemony=greedy`.

local data = require("data")
local G = require("galaxy")
local R = require("rules")
local bot = require("bot")

---@class HyperjumpPlanner
local P = {}
local get = bot.get

-- The weights (points of greedy's "worth", bot.lua; a target held is bot.W.hold = 10).
local W = {
  keep = 1,          -- own ground units that hold a target the enemy is not on
  hunt = 4,          -- the fleet's worth per enemy transport where it outnumbers his warships
  cargo = 3,         -- ... per enemy ground unit aboard there
  warship = 2,       -- ... per enemy warship there
  outgunned = 10,    -- the fleet where his warships outnumber it
  pickup = 6,        -- per own spare ground unit the fleet's transports have room for
  fly = 5,           -- a starship's move to where the fleet gathers (any other move: -1)
  fight = 30,        -- landing where the units over the planet outnumber the enemy's
  contest = 28,      -- landing beside the enemy where he cannot come at it next turn
  stronger = 26,     -- ... where what lands outnumbers what he can bring
  last = 20,         -- the last landings, plus 5 times the chance they are still there at the end
  lift = 12,         -- a spare unit lifting off
}

---What the planner reads besides greedy's view (filled on demand, for the call).
---@class PlanView: BotView
---@field my_ws? integer own warships, not aboard
---@field muster? string|false where the fleet gathers (false: nowhere)

-- Own warships anywhere (not aboard).
---@param v PlanView
---@return integer
local function warships(v)
  local known = v.my_ws
  if known then return known end
  local n = 0
  for _, p in pairs(v.piece) do
    if p.owner == v.side and p.stats.class == "starship" and (p.stats.combat or 0) > 0
      and (p.values.aboard or 0) == 0 then
      n = n + 1
    end
  end
  v.my_ws = n
  return n
end

-- Own ground units on target t beyond what holds it: more than W.keep where the enemy has
-- none, more than one above his where he has some.
---@param v PlanView
---@param t string
---@return integer
local function surplus(v, t)
  local mine = get(v.ground, t).mine
  if not v.targets[t] then return mine end
  return math.max(0, mine - math.max(W.keep, bot.foes(v, t) + 1))
end

-- What target t is worth with k more own ground units landed on it (greedy's planet worth
-- where the enemy has none; where he has some, what k units can do in the environ he holds
-- most in, within its size (S1): outnumber him there, or at least contest the planet).
---@param v PlanView
---@param t string
---@param k integer
---@return number
local function prospect(v, t, k)
  local have = get(v.ground, t).mine
  if bot.foes(v, t) == 0 then return bot.planet_worth(v, t, have + k) end
  local best = -bot.W.hold ---@type number
  if have + k > 0 then best = 0 end
  for _, e in ipairs(G.environs(v.g, t)) do
    local c = get(v.env, t .. "/" .. e.id)
    if c.theirs > 0 then
      local f = math.min(e.size or 0, c.mine + k)
      if f > c.theirs then
        best = math.max(best, bot.W.hold * (f * f - c.theirs * c.theirs) / (f * f + c.theirs * c.theirs))
      end
    end
  end
  return best
end

-- Where the fleet gathers: the orbit box whose worth to the whole fleet is highest, read
-- only from what does not change while the side's ships move (the enemy's ships, own troops
-- aboard, own ground units).
---@param v PlanView
---@return string|nil
local function muster(v)
  local known = v.muster
  if known ~= nil then return known or nil end
  local mine = warships(v)
  local cargo, room = 0, 0
  for id, p in pairs(v.piece) do
    if p.owner == v.side and p.type == "transport" then
      cargo = cargo + (v.cargo[id] or 0)
      room = room + (p.stats.troops or 0) - (v.cargo[id] or 0)
    end
  end
  local best, best_worth = false, -math.huge ---@type string|false, number
  local planets = G.ids_of_kind(v.g, data.kinds.planet)
  for _, p in ipairs(planets) do
    local ws, tp = get(v.ws, p), get(v.tp, p)
    local worth = 0 ---@type number
    if ws.theirs + tp.theirs > 0 and not v.last then
      if mine > ws.theirs then
        worth = worth + W.hunt * tp.theirs + W.cargo * get(v.inbound, p).theirs + W.warship * ws.theirs
      elseif ws.theirs > mine then
        worth = worth - W.outgunned
      end
    end
    if cargo > 0 and v.targets[p] then
      worth = worth + math.max(0, prospect(v, p, cargo) - prospect(v, p, 0))
    end
    if room > 0 and surplus(v, p) > 0 then worth = worth + W.pickup * math.min(room, surplus(v, p)) end
    if worth > best_worth then best, best_worth = p, worth end
  end
  v.muster = best
  if best then return best end
  return nil
end

-- The chance that at least one of n units is left after one attack of k dice (C1: each die
-- hits on 5-6 and removes a unit).
---@param n integer
---@param k integer
---@return number
local function survive(n, k)
  local p = (7 - data.combat_hit) / 6
  local lost = 0 ---@type number
  -- P(hits >= n) for hits ~ Binomial(k, p).
  for h = n, k do
    local c = 1 ---@type number
    for i = 1, h do c = c * (k - h + i) / i end
    lost = lost + c * p ^ h * (1 - p) ^ (k - h)
  end
  return 1 - lost
end

---@param v PlanView
---@param a table
---@return number|nil
local function override(v, a)
  if a.id == "land" then
    local u = v.piece[a.piece]
    local t = R.where(u)
    if u.stats.class ~= "ground" or not v.targets[t] then return -1 end
    local here = get(v.env, t .. "/" .. a.to)
    local mine, e = get(v.ground, t).mine, bot.foes(v, t)
    if not v.late and e == 0 and mine >= W.keep then return -1 end
    local env = G.environ(v.g, t, a.to) or {}
    local could = math.min(env.size or 0, here.mine + get(v.inbound, t).mine)
    if here.theirs > 0 then
      if could > here.theirs then return W.fight + here.theirs end
      -- The last turn but the enemy's: more units where he will attack once more.
      if v.last and not v.final then return W.last + 5 * survive(could, here.theirs) end
      if could < here.theirs and not v.final then return -1 end
    elseif e > 0 and not v.final then
      -- Beside the enemy: what he can bring into this environ next turn (units of his in
      -- environs without own ones march, units aboard land; at most its size) against what
      -- lands here. Late in the game a contest that may survive is worth it: a planet the
      -- enemy does not hold at the end counts against him (V1).
      local threat = get(v.inbound, t).theirs
      for _, x in ipairs(G.environs(v.g, t)) do
        local c = get(v.env, t .. "/" .. x.id)
        if c.mine == 0 then threat = threat + c.theirs end
      end
      threat = math.min(threat, env.size or 0)
      if threat == 0 then return W.contest end
      if could > threat then return W.stronger end
      if v.last then return W.last + 5 * survive(could, threat) end
      return -1
    end
  end
  if a.id == "lift" then
    local u, carrier = v.piece[a.piece], v.piece[a.carrier]
    if u.stats.class ~= "ground" or carrier.stats.class ~= "starship" then return -1 end
    local t, slot = R.where(u)
    if get(v.env, t .. "/" .. slot).theirs > 0 then return -1 end
    if surplus(v, t) > 0 then return W.lift end
    return -1
  end
  if a.id == "jump" or a.id == "impulse" then
    local ids = a.ships or { a.piece }
    for _, id in ipairs(ids) do
      if v.piece[id].stats.class ~= "starship" then return nil end
    end
    local d = muster(v)
    if a.to == d then return W.fly + #ids * 0.01 end
    return -1
  end
  return nil
end

---@param ctx CtxReader
---@param side string
---@param legal table[]
---@return integer
function P.planner(ctx, side, legal)
  local v = bot.read(ctx, side) --[[@as PlanView]]
  local best, best_score = 1, -math.huge
  for i, a in ipairs(legal) do
    local s = override(v, a) or bot.score(v, a)
    if s > best_score then best, best_score = i, s end
  end
  return best
end

return P
