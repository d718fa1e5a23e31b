-- bot.lua: the greedy bot (`game.bots.greedy`), a one-step-lookahead player for quick playtests.
--
-- It scores every offered action and takes the best; `end_phase` scores 0, so the go ends only
-- when nothing useful is left. In order: place the mobile bases (as near the enemy as allowed),
-- colonise, bring in ships, fire at the best odds times the target's worth, then move transports
-- toward the nearest uncolonised planetoid (of any colour: they wait on its hex for it to
-- appear) and warships toward the nearest enemy.
-- A damaged transport makes for an own mobile base instead, to be repaired.
-- What it deliberately does not do: hyperspace, empty shots, moving mobile bases (they stay put
-- and so can repair), or timing a transport's arrival to its planetoid's turn. It keeps no state between
-- calls, so a game is a pure function of its seed. It only reads `ctx` (bots may not write).
--
-- Example: `hexforge play mods/planetoid-colonies --scenario standard-short --bots north=greedy,south=random`.

local data = require("data")
local R = require("rules")
local E = require("env")

local B = {}

-- What a hit on each kind of target is worth (before the odds): fixed bases carry the score,
-- transports found them, a fighter dies of one hit.
local WORTH = { fixed_base = 6, transport = 5, fighter = 4, cruiser = 3, mobile_base = 2 }

-- Warships stop closing in at this gap: fighters want adjacency, cruisers sit near the best
-- column of their table without ramming.
local APPROACH = { fighter = 1, cruiser = 2 }

-- An action's parameter (flat, or under `params`).
local function arg(a, k)
  if a[k] ~= nil then return a[k] end
  if a.params then return a.params[k] end
  return nil
end

local function other_side(ctx, side)
  for _, s in ipairs(ctx:sides()) do
    if s.id ~= side then return s.id end
  end
  return nil
end

-- Planetoid hexes of every colour that hold no fixed base yet. Every colour, not only this
-- turn's: a transport may wait on a planetoid's hex for it to appear (B5), and a goal that
-- changed with the turn's colour left transports turning to face a new one every turn (0-0 in
-- every standard game).
---@param e Env
---@return Hex[]
local function open_planetoids(e)
  local taken = e:fixed_bases()
  local out = {}
  for _, h in ipairs(e:planetoid_sites()) do
    if not taken[R.ik(h)] then out[#out + 1] = h end
  end
  return out
end

-- Hexes of every enemy piece on the board (or the enemy home planet when none is).
local function enemy_hexes(ctx, e, side)
  local out = {}
  for _, id in ipairs(e.order) do
    local entry = e.pieces[id]
    if entry.p.owner ~= side then
      for _, h in ipairs(entry.fp) do out[#out + 1] = h end
    end
  end
  if #out == 0 then
    local home = (ctx.options or {}).home
    local foe = other_side(ctx, side)
    if home and foe and home[foe] then out[1] = home[foe] end
  end
  return out
end

-- Where a piece of `kind` wants to go, and the gap at which it is close enough.
-- A damaged transport cannot colonise: it makes for an own mobile base to be repaired (R1).
local function goal(ctx, e, side, kind, damaged)
  if kind == "transport" and damaged then
    local out = {}
    for _, id in ipairs(e.order) do
      local entry = e.pieces[id]
      if entry.p.owner == side and entry.kind == "mobile_base" then
        for _, h in ipairs(entry.fp) do out[#out + 1] = h end
      end
    end
    return out, 1
  end
  if kind == "transport" then return open_planetoids(e), 0 end
  return enemy_hexes(ctx, e, side), APPROACH[kind] or 1
end

-- Gap from a footprint to a goal list (math.huge with no goal).
local function gap_to(fp, goals)
  if #goals == 0 then return math.huge end
  return R.gap(fp, goals)
end

-- Steps round the obstacles from every hex to the nearest open planetoid, once per env (a
-- transport's way to its goal: the straight gap led transports into the asteroid belts and
-- left them there, facing a hex they could not enter).
local WAYS = setmetatable({}, { __mode = "k" }) ---@type table<Env, Distances>

-- How far a footprint is from `goals` for piece `me`: for a transport making for a planetoid,
-- the steps round the obstacles (math.huge on an obstacle or out of reach), else the gap.
---@param ctx RulesCtx
---@param e Env
---@param me PieceEntry
---@param goals Hex[]
---@return fun(fp: Hex[]): number
local function measure(ctx, e, me, goals)
  if me.kind ~= "transport" or (me.p.values.damage or 0) > 0 or #goals == 0 then
    return function(fp) return gap_to(fp, goals) end
  end
  local way = WAYS[e]
  if not way then
    way = ctx:distances(goals, 64, { blocked = e:obstacle_hexes() })
    WAYS[e] = way
  end
  return function(fp)
    local best = math.huge
    for _, h in ipairs(fp) do
      local d = not e:is_obstacle(h) and way:at(h) or nil
      if d and d < best then best = d end
    end
    return best
  end
end

local score = {}

function score.place_base(ctx, e, side, a)
  local at = arg(a, "at")
  local foes = enemy_hexes(ctx, e, side)
  local s = 100 - 0.01 * gap_to({ at }, foes)
  -- Two bases on one spot die together (K6): spread them.
  local fp = R.footprint("mobile_base", at, 0)
  for _, id in ipairs(e.order) do
    local entry = e.pieces[id]
    if entry.p.owner == side and entry.kind == "mobile_base" and R.gap(fp, entry.fp) == 0 then s = s - 5 end
  end
  return s
end

function score.colonise() return 90 end

function score.deploy(ctx, e, side, a)
  local kind, ramp = arg(a, "kind"), arg(a, "ramp")
  local own = 0
  for _, id in ipairs(e.order) do
    local entry = e.pieces[id]
    if entry.p.owner == side and entry.kind == "transport" then own = own + 1 end
  end
  -- One or two transports at sea at a time; then warships to guard them.
  local pref = { transport = own < 2 and 3 or 0.5, cruiser = 2, fighter = 1 }
  local goals = goal(ctx, e, side, kind)
  local ramps = (ctx.options or {}).ramps and ctx.options.ramps[side]
  local r = ramps and ramps[ramp]
  local d = (r and #goals > 0) and R.gap({ r.hex }, goals) or 0
  return 80 + pref[kind] - 0.01 * d
end

function score.fire(_, e, _side, a)
  local id, target = arg(a, "piece"), arg(a, "target")
  local me, tgt = e.pieces[id], e.pieces[target]
  if not me or not tgt then return -1 end
  local t = data.pieces[me.kind]
  local maxd = #data.tables[t.table].cells[1]
  local d = e:shot_distance(me.fp, tgt.fp, maxd)
  if not d then return -1 end
  local need = R.need(me.kind, tgt.kind, d, me.p.values.damage)
  if not need then return -1 end
  local odds = (7 - need) / 6
  -- A target nearer its last hit is worth more.
  local hits = data.pieces[tgt.kind].hits
  local worth = (WORTH[tgt.kind] or 1) * (1 + (tgt.p.values.damage or 0) / hits)
  return 50 + 10 * odds * worth
end

function score.step(ctx, e, side, a)
  local id, d = arg(a, "piece"), R.dir(arg(a, "dir"))
  local me = e.pieces[id]
  if not me or me.kind == "mobile_base" or d == nil then return -1 end
  local goals, near = goal(ctx, e, side, me.kind, (me.p.values.damage or 0) > 0)
  if #goals == 0 then return -1 end
  local dist = measure(ctx, e, me, goals)
  local before = dist(me.fp)
  if before <= near then return -1 end
  local after = dist(R.footprint(me.kind, R.step(me.p.hex, d), me.facing))
  -- Finish moving the current piece before starting another (which would end its turn).
  local bonus = ctx:global("current") == id and 5 or 0
  if after < before then return 20 + (before - after) + bonus end
  -- A ship that moves straight may slide past its goal at an equal gap, looking for a hex
  -- from which a pivot lines it up (below any pivot that already does, see score.pivot).
  if after == before and data.pieces[me.kind].move == "straight" then return 10 end
  return -1
end

function score.pivot(ctx, e, side, a)
  local id, f = arg(a, "piece"), R.dir(arg(a, "facing"))
  local me = e.pieces[id]
  if not me then return -1 end
  local goals, near = goal(ctx, e, side, me.kind, (me.p.values.damage or 0) > 0)
  if #goals == 0 then return -1 end
  local dist = measure(ctx, e, me, goals)
  if dist(me.fp) <= near then return -1 end
  -- Face the goal for next turn: the hex ahead of the bow should be as near to it as possible.
  local function ahead(facing) return dist({ R.step(me.p.hex, facing) }) end
  local gain = ahead(me.facing) - ahead(f)
  if gain <= 0 then return -1 end
  return 15 + gain
end

-- Returns the 1-based index of the chosen action in `legal`.
function B.greedy(ctx, side, legal)
  local e = E.listed_env(ctx)
  local best, best_score, end_index = nil, 0, nil
  for i, a in ipairs(legal) do
    if a.id == "end_phase" then
      end_index = end_index or i
    else
      local f = score[a.id]
      local s = f and f(ctx, e, side, a) or -1
      if s > best_score then best, best_score = i, s end
    end
  end
  return best or end_index or 1
end

return B
