-- bot.lua: the greedy bot (`game.bots.greedy`), a one-step player for Hyperjump Galaxy.
--
-- What it is: a score for every legal action, from one reading of the state per call; the bot
-- takes the highest (ties: the first listed, so a game is a pure function of its seed).
-- `end_phase` scores just above 0, so a segment ends only when nothing useful is left.
-- It plays toward what decides the game (V1): own ground units on the target planets. A target
-- is worth from -10 (the enemy holds it) through 0 (equal forces contest it) to +10 (held), by
-- the squares of the forces there (enemy units aboard ships over it counted), plus a little
-- for a reserve; in the very last turn of the game, when the enemy moves no more, only who is
-- there counts (a lone unit denies a planet).
--   - Space: a ship's worth in an orbit box is what it can do there: a loaded transport what
--     its troops add to that planet (nothing off the targets), an empty transport the troops it
--     could pick up where they wait off the targets, a warship a share of escorting own
--     transports, guarding own troops and hunting enemy transports where its side is not
--     outnumbered (outnumbered: a penalty). A jump scores its expected worth at the
--     destination (the exact hyperjump odds: a safe arrival counts fully, a drift later, damage
--     and disaster cost ships and cargo), less the ship's worth where it is and a little per
--     star; a joint jump the mean per ship. So short, safe jumps win, and transports spread
--     over the targets.
--   - Planet: troops land on targets (in the environ where all own units over the planet would
--     outnumber the enemy, else away from him; not a few against many), march into an environ
--     where they would outnumber the enemy, lift off from a planet that is not a target (a
--     reserve at home) or where they are spare and another target needs them.
--   - Combat: attack with more warships than the enemy's in an orbit box (or against
--     transports alone), with more ground units than his in an environ; even fights only in
--     the last two rounds and when not ahead on targets held.
-- What it deliberately does not do: look ahead (ctx is read-only in a bot), plan a fleet's
-- moves over several turns, guess the enemy's next jumps, break off (an emergency jump mostly
-- drifts), move characters or character spaceships, or keep any state between calls (only
-- the hyperjump odds, pure data, are cached).
--
-- Example: `hexforge play mods/hyperjump-galaxy --bots accord=greedy,hegemony=random`, or as
-- the search bot's guide: `--bots mcts:iters=50:guide=greedy`.

local data = require("data")
local G = require("galaxy")
local R = require("rules")

---@class HyperjumpBot
local B = {}

local SLOT = data.slots

-- The weights (points of "worth"; end_phase scores W.idle).
local W = {
  hold = 10,         -- a target planet held (V1); the enemy holding it is -hold
  reserve = 3,       -- own ground units on a target beyond what holds it (at most this)
  land = 3,          -- landing must gain more than this (else the troops go elsewhere)
  pickup = 3,        -- an empty transport over own troops waiting off the targets
  escort = 3,        -- the warships over own transports (shared among them)
  guard = 1,         -- the warships over a target planet with own troops (shared)
  hunt = 4,          -- per enemy transport in the box, shared by warships not outnumbered there
  danger = 3,        -- a ship in a box where enemy warships outnumber own ones
  damage = 2,        -- one ship damaged by a jump
  ship = 3,          -- a ship lost (its cargo counted as troops besides)
  drift1 = 0.5,      -- a Drift 1 arrival: the ship's worth a turn later (impulse then)
  drift2 = 0.25,     -- a Drift 2 arrival: it must jump again
  star = 0.1,        -- per star jumped: among equally safe jumps the shorter (nearer home)
  idle = 0.01,       -- end_phase: an action must gain more than this to be worth taking
  late = 1,          -- even fights only in the last late + 1 rounds (and when not ahead)
}

local ZERO = { mine = 0, theirs = 0 }

---Counts by key (a planet, or "planet/environ"), own and enemy.
---@alias Tally table<string, { mine: integer, theirs: integer }>

---@param t Tally
---@param key string
---@param mine boolean
---@param n? integer
local function bump(t, key, mine, n)
  local e = t[key]
  if not e then
    e = { mine = 0, theirs = 0 }
    t[key] = e
  end
  if mine then e.mine = e.mine + (n or 1) else e.theirs = e.theirs + (n or 1) end
end

---@param t Tally
---@param key string
---@return { mine: integer, theirs: integer }
local function get(t, key) return t[key] or ZERO end

---What one call reads of the state, once.
---@class BotView
---@field side string
---@field g table the normalised star map
---@field targets table<string, boolean>
---@field cap table<string, integer> a target's room for one side's ground units (its environs' sizes)
---@field last boolean the last round: a drift arrival comes too late
---@field here table<integer, number|nil> each ship's worth where it is (filled on demand)
---@field final boolean the last turn of the last round: the enemy moves no more
---@field late boolean one of the last W.late + 1 rounds: even fights are worth it when not ahead
---@field piece table<integer, Piece>
---@field cargo table<integer, integer> ground units aboard each ship
---@field room table<integer, number> room left for ground units aboard each transport
---@field lead table<integer, integer> the best leadership aboard each ship
---@field nav table<integer, integer> the best navigation rating aboard each ship (a courier's pilot)
---@field ground Tally ground units in a planet's environs
---@field env Tally ground units in one environ ("planet/environ")
---@field inbound Tally ground units aboard ships in a planet's orbit box
---@field ws Tally warships (starships with a combat value) in a planet's orbit box
---@field tp Tally other starships (transports) in a planet's orbit box
---@field waiting table<string, integer> own ground units on a planet that is not a target
---@field lift_room table<string, number> room aboard own transports in a planet's orbit box
---@field dist table<string, table<string, integer>> stars between two systems (filled on demand)

---@param ctx CtxReader
---@param side string
---@return BotView
local function read(ctx, side)
  local c = ctx --[[@as Ctx]]
  local g = G.normalize(ctx:graph(data.graph))
  local v = {
    side = side, g = g, targets = {}, cap = {}, piece = {}, cargo = {}, room = {}, lead = {},
    nav = {}, ground = {}, env = {}, inbound = {}, ws = {}, tp = {}, waiting = {}, lift_room = {},
    dist = {}, here = {}, final = false,
    last = c.turn_limit ~= nil and c.round >= c.turn_limit,
    late = c.turn_limit ~= nil and c.round >= c.turn_limit - W.late,
  } ---@type BotView
  local sides = ctx:sides()
  local last_side = sides[#sides]
  v.final = v.last and last_side ~= nil and last_side.id == side
  for _, t in ipairs((c.options or {}).target_planets or {}) do
    v.targets[t] = true
    local n = 0
    for _, e in ipairs(G.environs(g, t)) do n = n + (e.size or 0) end
    v.cap[t] = n
  end
  local list = ctx:pieces {}
  for _, p in ipairs(list) do
    v.piece[p.id] = p
    local aboard = p.values.aboard or 0
    local class = p.stats.class
    if aboard ~= 0 then
      if class == "ground" then
        v.cargo[aboard] = (v.cargo[aboard] or 0) + 1
      elseif class == "character" then
        v.lead[aboard] = math.max(v.lead[aboard] or 0, p.values.leadership or 0)
        v.nav[aboard] = math.max(v.nav[aboard] or 0, p.values.navigation or 0)
      end
    end
  end
  for _, p in ipairs(list) do
    local loc, slot = R.where(p)
    local mine = p.owner == side
    if loc and (p.values.aboard or 0) == 0 then
      local class = p.stats.class
      if class == "ground" and slot ~= SLOT.orbit and not R.is_drift(slot) then
        bump(v.ground, loc, mine)
        bump(v.env, loc .. "/" .. slot, mine)
        if mine and not v.targets[loc] then v.waiting[loc] = (v.waiting[loc] or 0) + 1 end
      elseif class == "starship" and slot == SLOT.orbit then
        if (p.stats.combat or 0) > 0 then bump(v.ws, loc, mine) else bump(v.tp, loc, mine) end
        local n = v.cargo[p.id] or 0
        if n > 0 then bump(v.inbound, loc, mine, n) end
        local room = math.max(0, (p.stats.troops or 0) - n)
        v.room[p.id] = room
        if mine then v.lift_room[loc] = (v.lift_room[loc] or 0) + room end
      end
    end
  end
  return v
end

-- Stars between two systems (H1), from the normalised map; memoised for the call.
---@param v BotView
---@param a string
---@param b string
---@return integer
local function stars(v, a, b)
  local row = v.dist[a]
  if not row then
    row = {}
    v.dist[a] = row
  end
  local d = row[b]
  if d == nil then
    d = G.distance(v.g, a, b) or 99
    row[b] = d
  end
  return d
end

---What a jump comes to, as fractions: a safe arrival, Drift 1 or 2 (damaged or not), one ship
---damaged, a disaster.
---@class JumpOdds
---@field safe number
---@field drift1 number
---@field drift2 number
---@field damaged number
---@field disaster number

-- Hyperjump odds by column difference (distance - rating; emergency jumps are never scored):
-- a pure function of data.lua, so kept between calls.
---@type table<integer, JumpOdds|nil>
local odds_by_diff = {}

---@param diff number
---@return JumpOdds
local function odds(diff)
  local key = math.floor(math.max(-1, diff))
  local known = odds_by_diff[key]
  if known then return known end
  local o = { safe = 0, drift1 = 0, drift2 = 0, damaged = 0, disaster = 0 } ---@type JumpOdds
  for _, r in ipairs(G.odds(key, false)) do
    local f = r.in36 / 36
    local eff = data.results[r.result]
    if eff.eliminate then
      o.disaster = o.disaster + f
    else
      if eff.damage then o.damaged = o.damaged + f end
      if r.result == "safe" then o.safe = o.safe + f
      elseif eff.to == SLOT.drift1 then o.drift1 = o.drift1 + f
      else o.drift2 = o.drift2 + f end
    end
  end
  odds_by_diff[key] = o
  return o
end

-- Enemy ground units on planet t or aboard enemy ships in its orbit box.
---@param v BotView
---@param t string
---@return integer
local function foes(v, t)
  return get(v.ground, t).theirs + get(v.inbound, t).theirs
end

-- What target planet t is worth with k own ground units on it (V1): from -hold (the enemy
-- holds it) through 0 (equal forces contest it) to +hold (held), by the squares of the forces,
-- plus a little for each own unit kept as a reserve. Nothing for a planet that is not a target.
---@param v BotView
---@param t string
---@param k integer
---@return number
local function planet_worth(v, t, k)
  if not v.targets[t] then return 0 end
  k = math.min(k, v.cap[t] or 0)
  if v.final then
    -- The enemy moves no more: what counts is who is there at the end (V1).
    local e = get(v.ground, t).theirs
    if e == 0 then return k > 0 and W.hold or 0 end
    return k > 0 and 0 or -W.hold
  end
  local e = foes(v, t)
  local worth = 0 ---@type number
  if k + e > 0 then worth = W.hold * (k * k - e * e) / (k * k + e * e) end
  return worth + W.reserve * (1 - 0.5 ^ k)
end

-- Worth of `n` more own ground units on planet t above `have`.
---@param v BotView
---@param t string
---@param have integer
---@param n integer
---@return number
local function troops_worth(v, t, have, n)
  return planet_worth(v, t, have + n) - planet_worth(v, t, have)
end

-- Own ground units on planet t or aboard own ships in its orbit box.
---@param v BotView
---@param t string
---@return integer
local function committed(v, t)
  return get(v.ground, t).mine + get(v.inbound, t).mine
end

---Own ships counted as there besides the ones the state shows: a joint jump's other ships, or
---minus the ship itself where it already is.
---@class Extra
---@field ws integer
---@field tp integer
---@field troops integer
---@field room number

-- What ship s is worth in the orbit box of planet `at`, with `extra` own ships there.
---@param v BotView
---@param s Piece
---@param at string
---@param extra Extra
---@return number
local function ship_worth(v, s, at, extra)
  local class = s.stats.class
  if class ~= "starship" then return 0 end -- character spaceships do not decide the game
  local ws, tp = get(v.ws, at), get(v.tp, at)
  local own_ws, own_tp = ws.mine + extra.ws, tp.mine + extra.tp
  local warship = (s.stats.combat or 0) > 0
  local worth = 0 ---@type number
  if warship then
    -- Shared by the warships there (this one included).
    local share = 1 / (own_ws + 1)
    if own_ws + 1 >= ws.theirs then
      worth = worth + W.hunt * tp.theirs * share
    else
      worth = worth - W.danger
    end
    if own_tp > 0 then worth = worth + W.escort * share end
    if v.targets[at] and get(v.ground, at).mine > 0 then worth = worth + W.guard * share end
  else
    local n = v.cargo[s.id] or 0
    if n > 0 then
      worth = troops_worth(v, at, committed(v, at) + extra.troops, n)
    elseif (v.waiting[at] or 0) > (v.lift_room[at] or 0) + extra.room then
      worth = W.pickup
    end
    if ws.theirs > own_ws then worth = worth - W.danger end
  end
  return worth
end

-- The ships an action names, as snapshots.
---@param v BotView
---@param ids integer[]
---@return Piece[]
local function ships_of(v, ids)
  local out = {}
  for _, id in ipairs(ids) do out[#out + 1] = v.piece[id] end
  return out
end

-- The worth of each ship where it is now (0 in a drift area: it must leave).
---@param v BotView
---@param s Piece
---@return number
local function worth_here(v, s)
  local known = v.here[s.id]
  if known then return known end
  local loc, slot = R.where(s)
  local worth = 0 ---@type number
  if slot == SLOT.orbit and loc then
    local warship = (s.stats.combat or 0) > 0
    worth = ship_worth(v, s, loc, {
      ws = warship and -1 or 0,
      tp = warship and 0 or -1,
      troops = -(v.cargo[s.id] or 0),
      room = -(v.room[s.id] or 0),
    })
  end
  v.here[s.id] = worth
  return worth
end

-- Mean gain per ship of moving `ships` together to the orbit of `to`, arriving with the
-- fractions of `o` (impulse: all safe).
---@param v BotView
---@param ships Piece[]
---@param to string
---@param o JumpOdds
---@return number
local function move_gain(v, ships, to, o)
  local warships, transports = 0, 0
  for _, s in ipairs(ships) do
    if (s.stats.combat or 0) > 0 then warships = warships + 1 else transports = transports + 1 end
  end
  local late = v.last and 0 or 1
  local arrive = o.safe + late * (W.drift1 * o.drift1 + W.drift2 * o.drift2)
  local total, loss, troops = 0, 0, 0 ---@type number, number, integer
  for _, s in ipairs(ships) do
    local warship = (s.stats.combat or 0) > 0
    local extra = {
      ws = warships - (warship and 1 or 0),
      tp = transports - (warship and 0 or 1),
      troops = troops,
      room = 0,
    }
    local cargo = v.cargo[s.id] or 0
    troops = troops + cargo
    total = total + arrive * ship_worth(v, s, to, extra) - worth_here(v, s)
    loss = loss + W.ship + W.hold * cargo
  end
  -- Damage hits one ship of the stack; a disaster takes half of it with its cargo.
  local risk = o.damaged * W.damage + o.disaster * loss / 2
  return (total - risk) / #ships
end

local SAFE = { safe = 1, drift1 = 0, drift2 = 0, damaged = 0, disaster = 0 }

-- The odds of a plain jump of `ships` to planet `to` (H1, H3, H5, H8, H9).
---@param v BotView
---@param ships Piece[]
---@param to string
---@return JumpOdds
---@return integer distance
local function jump_odds(v, ships, to)
  local first = assert(ships[1], "a jump names its ships")
  local loc, slot = R.where(first)
  local from_sys, to_sys = G.system_of(v.g, loc), G.system_of(v.g, to)
  local distance
  if from_sys == to_sys then
    distance = data.drift2_same_system_distance
  else
    distance = stars(v, from_sys, to_sys)
    if slot == SLOT.drift2 then distance = distance + data.drift2_penalty end
    if slot == SLOT.drift1 then distance = distance + data.drift1_penalty end
  end
  if #ships > 1 then
    local leader = 0
    for _, s in ipairs(ships) do leader = math.max(leader, v.lead[s.id] or 0) end
    distance = distance + G.joint_penalty(#ships, leader)
  end
  local rating = first.stats.navigation
  if first.stats.class ~= "starship" then rating = v.nav[first.id] or 0 end
  return odds(distance - rating), distance
end

-- Own ground units on planet t that could march (outside environs where the enemy is).
---@param v BotView
---@param t string
---@return integer
local function free_ground(v, t)
  local n = 0
  for _, e in ipairs(G.environs(v.g, t)) do
    local c = get(v.env, t .. "/" .. e.id)
    if c.theirs == 0 then n = n + c.mine end
  end
  return n
end

-- The most one more own ground unit would add on another target than `t`.
---@param v BotView
---@param t string
---@return number
local function need_elsewhere(v, t)
  local best = 0 ---@type number
  for other in pairs(v.targets) do
    if other ~= t then best = math.max(best, troops_worth(v, other, committed(v, other), 1)) end
  end
  return best
end

-- Is a fight at even odds worth its risk? Only near the end (the last W.late + 1 rounds) and
-- when the side is level or behind on target planets held (V1): there it turns a draw or a
-- loss into a chance to win; earlier, or ahead, the side keeps what it has (an even fight
-- costs both sides alike, and a side without ground units loses at once).
---@param v BotView
---@return boolean
local function even_fight(v)
  if not v.late then return false end
  local mine, theirs = 0, 0
  for t in pairs(v.targets) do
    local c = get(v.ground, t)
    if c.mine > 0 and c.theirs == 0 then mine = mine + 1 end
    if c.theirs > 0 and c.mine == 0 then theirs = theirs + 1 end
  end
  return mine <= theirs
end

-- The score of one legal action; higher is better, end_phase W.idle.
---@param v BotView
---@param a table a legal action (id, side and its params, flat)
---@return number
function B.score(v, a)
  local id = a.id
  if id == "end_phase" then return W.idle end
  if id == "jump" then
    local ships = ships_of(v, a.ships)
    local o, distance = jump_odds(v, ships, a.to)
    return move_gain(v, ships, a.to, o) - W.star * distance
  end
  if id == "impulse" then
    return move_gain(v, { v.piece[a.piece] }, a.to, SAFE)
  end
  if id == "land" then
    local p = v.piece[a.piece]
    local t = R.where(p)
    if p.stats.class ~= "ground" or not v.targets[t] then return -1 end
    -- Against enemy units, worth landing when all own units over this planet landing gain
    -- more than W.land each (not a lone unit against many: it goes where it counts).
    local have, over = get(v.ground, t).mine, get(v.inbound, t).mine
    if foes(v, t) > 0 and troops_worth(v, t, have, over) <= W.land * over then return -1 end
    local gain = troops_worth(v, t, have, 1)
    local here = get(v.env, t .. "/" .. a.to)
    local bonus = 0
    if here.theirs > 0 then
      -- Where the enemy is, to fight him when all own troops over this planet land here.
      local could = here.mine + get(v.inbound, t).mine
      if could > here.theirs or (could == here.theirs and even_fight(v)) then bonus = 5
      elseif could < here.theirs then bonus = -5 end
    elseif here.mine > 0 then
      bonus = 1
    end
    return 20 + gain + bonus
  end
  if id == "march" then
    local p = v.piece[a.piece]
    local t, slot = R.where(p)
    if p.stats.class ~= "ground" or not v.targets[t] then return -1 end
    local from, to = get(v.env, t .. "/" .. slot), get(v.env, t .. "/" .. a.to)
    if from.theirs > 0 or to.theirs == 0 then return -1 end
    -- Into the enemy's environ when own troops free to march there would outnumber him.
    local could = to.mine + free_ground(v, t)
    if could > to.theirs or (could == to.theirs and even_fight(v)) then
      return 15 + to.theirs - to.mine
    end
    return -1
  end
  if id == "lift" then
    local p, carrier = v.piece[a.piece], v.piece[a.carrier]
    if p.stats.class ~= "ground" or carrier.stats.class ~= "starship" then return -1 end
    local t, slot = R.where(p)
    if not v.targets[t] then return 12 end
    -- A spare unit (worth little here) where another target needs one.
    if get(v.env, t .. "/" .. slot).theirs > 0 then return -1 end
    local mine = get(v.ground, t).mine
    local keep = troops_worth(v, t, mine - 1, 1)
    if need_elsewhere(v, t) > keep + 5 then return 8 end
    return -1
  end
  if id == "attack" then
    if a.slot == SLOT.orbit then
      local ws, tp = get(v.ws, a.location), get(v.tp, a.location)
      if ws.theirs == 0 then return 100 + tp.theirs end
      if ws.mine > ws.theirs then return 50 + ws.mine - ws.theirs end
      return -5
    end
    local e = get(v.env, a.location .. "/" .. a.slot)
    if e.mine > e.theirs or (e.mine == e.theirs and even_fight(v)) then return 50 + e.mine - e.theirs end
    return -5
  end
  if id == "break_off" then return -10 end
  return -1 -- restack, take_off, characters and couriers landing
end

---The greedy bot: the 1-based index of the best-scored legal action (ties: the first).
---@param ctx CtxReader
---@param side string
---@param legal table[]
---@return integer
function B.greedy(ctx, side, legal)
  local v = read(ctx, side)
  local best, best_score = 1, -math.huge
  for i, a in ipairs(legal) do
    local s = B.score(v, a)
    if s > best_score then best, best_score = i, s end
  end
  return best
end

-- What other bots of this mod reuse (planner.lua): the weights, one reading of the state and
-- the worths greedy scores by. Exported, not changed: greedy plays as before.
B.W = W
B.get = get
B.read = read
B.stars = stars
B.odds = odds
B.foes = foes
B.planet_worth = planet_worth
B.troops_worth = troops_worth
B.committed = committed
B.ships_of = ships_of
B.move_gain = move_gain
B.jump_odds = jump_odds
B.free_ground = free_ground
B.need_elsewhere = need_elsewhere
B.even_fight = even_fight

return B
