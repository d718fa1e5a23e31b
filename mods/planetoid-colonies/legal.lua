-- legal.lua: who may do what now, written over an env (env.lua) so that the choices of one
-- listing share one snapshot: each L.<action> answers true (and what the action needs) or
-- false and the reason a player reads. main.lua's actions list and check with these; nothing
-- here changes the game.

local data = require("data")
local R = require("rules")
local E = require("env")

local L = {}

-- A side's value `key`, or nil.
---@param ctx RulesCtx
---@param side string
---@param key string
---@return any
function L.side_value(ctx, side, key)
  local s = ctx:side(side)
  return s and s.values and s.values[key]
end

-- Why piece `id` of `side` may not act now, or nil.
local function not_active(e, side, id)
  local entry = e.pieces[id]
  if not entry then return "piece " .. tostring(id) .. " is not on the board" end
  if entry.p.owner ~= side then return "piece " .. id .. " is not yours" end
  local v = entry.p.values or {}
  if v.hyper then return "piece " .. id .. " entered or left hyperspace this turn" end
  if v.done then return "piece " .. id .. " has finished for this turn" end
  return nil
end

-- Common checks for a piece of `side` on the board that is to act now. Kept per env: every
-- action's choices ask it for each piece and direction.
local function own_active(e, side, id)
  if type(id) ~= "number" then return nil, "no piece given" end
  local memo = e.active[side]
  if not memo then
    memo = {}
    e.active[side] = memo
  end
  local why = memo[id]
  if why == nil then
    why = not_active(e, side, id) or false
    memo[id] = why
  end
  if why then return nil, why end
  return e.pieces[id]
end

function L.place_base(e, side, at)
  if type(at) ~= "table" or not at.q then return false, "no hex given" end
  local fp = R.footprint("mobile_base", at, 0)
  local ok, why = e:footprint_ok("mobile_base", side, fp)
  if not ok then return false, why end
  local home = (e.ctx.options or {}).home and e.ctx.options.home[side]
  if not home then return false, "this scenario has no home planet for " .. side end
  if R.gap(fp, { home }) ~= 1 then return false, "a mobile base must be placed touching the home planet" end
  return true
end

-- Where a new ship of `kind` enters from ramp number `ramp`: anchor hex and facing.
function L.ramp_position(e, side, kind, ramp)
  local ramps = (e.ctx.options or {}).ramps and e.ctx.options.ramps[side]
  local r = ramps and ramps[ramp]
  if not r then return nil, nil, "no ramp " .. tostring(ramp) end
  local facing = R.dir(r.facing)
  local hex = { q = r.hex.q, r = r.hex.r }
  -- The rear hex sits on the ramp, the bow one hex further out.
  local fp = data.pieces[kind].footprint
  if #fp > 1 then
    assert(facing, "a ramp has a facing")
    hex = R.step(hex, facing)
  end
  return hex, facing
end

function L.deploy(e, side, kind, ramp)
  local limit = data.deploy_limits[kind]
  if not limit then return false, "only transports, cruisers and fighters can be brought in" end
  local ctx = e.ctx
  if (L.side_value(ctx, side, "reserve_" .. kind) or 0) < 1 then return false, "no " .. kind .. " left in reserve" end
  local dk, dn = ctx:global("deployed_kind"), ctx:global("deployed_count") or 0
  if dk and dk ~= "" and dk ~= kind then
    return false, "this go already brings in a " .. dk .. ": one transport, one cruiser or three fighters"
  end
  if dn >= limit then return false, ("at most %d %s per go"):format(limit, kind) end
  local hex, facing, why = L.ramp_position(e, side, kind, ramp)
  if not hex then return false, why end
  local ok, why2 = e:footprint_ok(kind, side, R.footprint(kind, hex, facing))
  if not ok then return false, why2 end
  return true
end

function L.step(e, side, id, d)
  local entry, why = own_active(e, side, id)
  if not entry then return false, why end
  local t = data.pieces[entry.kind]
  if not t.move then return false, "a " .. t.name:lower() .. " never moves" end
  d = R.dir(d)
  if d == nil then return false, "no direction given" end
  local v = entry.p.values
  if (v.steps or 0) >= t.speed then return false, ("no movement left: %d hexes a turn"):format(t.speed) end
  local anchor, facing = entry.p.hex, entry.facing
  if t.move == "straight" then
    if v.pivoted then return false, "a ship that has pivoted has ended its move" end
    if d ~= facing then return false, "it moves straight ahead only" end
  end
  local fp = R.footprint(entry.kind, R.step(anchor, d), facing)
  return e:footprint_ok(entry.kind, side, fp)
end

function L.pivot(e, side, id, f)
  local entry, why = own_active(e, side, id)
  if not entry then return false, why end
  local t = data.pieces[entry.kind]
  if t.move ~= "straight" then return false, "only cruisers and transports pivot" end
  f = R.dir(f)
  if f == nil then return false, "no facing given" end
  if entry.p.values.pivoted then return false, "it has already pivoted this turn" end
  if f == entry.facing then return false, "it already faces that way" end
  return e:footprint_ok(entry.kind, side, R.footprint(entry.kind, entry.p.hex, f))
end

function L.shots_left(entry)
  local t = data.pieces[entry.kind]
  if not t.table then return false, "a " .. t.name:lower() .. " never fires" end
  if t.shots == "each" then return true end
  if (entry.p.values.shots or 0) >= t.shots then
    return false, ("no shots left: %d a turn"):format(t.shots)
  end
  return true
end

-- dist: optional precomputed reach map of the firer.
function L.fire(e, side, id, target, dist)
  local entry, why = own_active(e, side, id)
  if not entry then return false, why end
  local ok, why2 = L.shots_left(entry)
  if not ok then return false, why2 end
  local t = data.pieces[entry.kind]
  local tgt = e.pieces[target]
  if not tgt then return false, "there is no target " .. tostring(target) .. " on the board" end
  if tgt.p.owner == side then return false, "that piece is yours" end
  if t.shots == "each" and (entry.p.values.targets or {})[tostring(target)] then
    return false, "a mobile base fires once at each target per turn"
  end
  -- The path may reach as far as the table; R.need then applies any shorter cap.
  local maxd = #data.tables[t.table].cells[1]
  local d ---@type integer|nil
  if dist then
    d = E.nearest(dist, tgt.fp)
    if d and d > maxd then d = nil end
  else
    d = e:shot_distance(entry.fp, tgt.fp, maxd)
  end
  if not d then return false, ("no clear path within %d hexes"):format(maxd) end
  local need, why3 = R.need(entry.kind, tgt.kind, d, entry.p.values.damage)
  if not need then return false, why3 end
  return true, need, d
end

-- any_occupant: answer as if no piece stood on `at` (the listing keeps its answers per scene,
-- which knows where the enemies stand but not the side's own pieces, and asks that part apart).
---@param any_occupant? boolean
function L.fire_empty(e, side, id, at, dist, any_occupant)
  local entry, why = own_active(e, side, id)
  if not entry then return false, why end
  local t = data.pieces[entry.kind]
  if not t.table then return false, "a " .. t.name:lower() .. " never fires" end
  if t.shots == "each" then
    if (entry.p.values.empty_shots or 0) >= t.empty_shots then
      return false, ("no empty shots left: %d a turn"):format(t.empty_shots)
    end
  else
    local ok, why2 = L.shots_left(entry)
    if not ok then return false, why2 end
  end
  if type(at) ~= "table" or not at.q then return false, "no hex given" end
  if not e:on_board(at) then return false, "off the board" end
  if e:blocks_fire(at) then return false, "that hex is not empty space" end
  if not any_occupant and #e:ids_at(at) > 0 then return false, "that hex is not empty: fire at the piece" end
  if e:is_blast(at) then return false, "that hex has already exploded" end
  local maxd = R.max_range(entry.kind, entry.kind)
  local d ---@type integer|nil
  if dist then
    d = dist:at(at)
    if d and d > maxd then d = nil end
  else
    d = e:shot_distance(entry.fp, { at }, maxd)
  end
  if not d or d < 1 then return false, ("no clear path within %d hexes"):format(maxd) end
  local need, why3 = R.need(entry.kind, entry.kind, d, entry.p.values.damage)
  if not need then return false, why3 end
  return true, need, d
end

function L.hyperspace_in(e, side, id, d)
  local entry, why = own_active(e, side, id)
  if not entry then return false, why end
  local t = data.pieces[entry.kind]
  if not t.hyperspace then return false, "bases cannot enter hyperspace" end
  local v = entry.p.values
  if (v.damage or 0) > 0 then return false, "only undamaged ships enter hyperspace" end
  if v.moved or v.fired then return false, "entering hyperspace takes the ship's whole turn" end
  d = R.dir(d)
  if d == nil then return false, "no direction given" end
  if not t.any_direction and d ~= entry.facing then
    return false, "the corridor must lie straight ahead of the bow"
  end
  return e:corridor_clear(side, entry.p.hex, d)
end

function L.hyperspace_out(e, side, id, at, f)
  local ctx = e.ctx
  if type(id) ~= "number" then return false, "no piece given" end
  local p = ctx:piece(id)
  if not p or p.owner ~= side then return false, "not your piece" end
  local v = p.values or {}
  if not v.in_hyperspace then return false, "piece " .. id .. " is not in hyperspace" end
  if v.entered_round == ctx.round then return false, "a ship cannot leave hyperspace in the turn it entered" end
  if type(at) ~= "table" or not at.q then return false, "no hex given" end
  f = R.dir(f)
  if f == nil then return false, "no facing given" end
  return L.exit_clear(e, side, R.kind_of(p), at, f)
end

-- Whether a ship of `kind` may come out of hyperspace at `at` facing `f` (0..5): room for its
-- footprint there and a clear corridor ahead. The part of hyperspace_out that depends only on
-- the map, so its choices ask it once per ship type.
function L.exit_clear(e, side, kind, at, f)
  local ok, why = e:footprint_ok(kind, side, R.footprint(kind, at, f))
  if not ok then return false, why end
  return e:corridor_clear(side, at, f)
end

function L.colonise(e, side, id, at)
  local entry, why = own_active(e, side, id)
  if not entry then return false, why end
  local t = data.pieces[entry.kind]
  if not t.colonises then return false, "only transports colonise" end
  if (entry.p.values.damage or 0) > 0 then return false, "only an undamaged transport may colonise" end
  if type(at) ~= "table" or not at.q then return false, "no hex given" end
  local under = false
  for _, h in ipairs(entry.fp) do
    if R.eq(h, at) then under = true end
  end
  if not under then return false, "the transport is not on that hex" end
  if not e:is_planetoid(at) then return false, "no planetoid exists there this turn" end
  if e:fixed_bases()[R.ik(at)] then return false, "that planetoid already has a fixed base" end
  return true
end

-- The ids of `side`'s pieces that may still act, in id order; kept per env (every action's
-- choices ask), so callers only read the list.
function L.own_ids(e, side)
  local out = e.own[side]
  if out then return out end
  out = {}
  for _, id in ipairs(e.order) do
    local entry = e.pieces[id]
    local v = entry.p.values or {}
    if entry.p.owner == side and not v.done and not v.hyper then out[#out + 1] = id end
  end
  e.own[side] = out
  return out
end

-- How far the hexes of a footprint reach from its first hex (kept per footprint: footprints
-- are shared, R.footprint).
---@type table<Hex[], integer|nil>
local SPAN = setmetatable({}, { __mode = "k" })
---@param fp Hex[]
---@return integer
local function span(fp)
  local n = SPAN[fp]
  if n == nil then
    n = 0
    local first = assert(fp[1], "a footprint has a hex")
    for _, h in ipairs(fp) do n = math.max(n, R.distance(first, h)) end
    SPAN[fp] = n
  end
  return n
end

-- Straight distance from a footprint to the nearest enemy piece on the board, when it is at
-- most `limit`; otherwise some number above `limit`. Why the limit: callers only ask whether
-- an enemy is within reach, and a piece whose first hexes lie farther apart than the limit
-- plus both spans cannot be nearer, so most pairs need no hex-by-hex comparison. Kept per
-- scene (the enemies stand still) and footprint list (shared, R.footprint).
function L.enemy_gap(e, side, fp, limit)
  local gaps = e:scene(side).gaps
  local by_limit = gaps[fp]
  if not by_limit then
    by_limit = {}
    gaps[fp] = by_limit
  end
  local known = by_limit[limit]
  if known then return known end
  local best = math.huge
  for _, id in ipairs(e.order) do
    local entry = e.pieces[id]
    if entry.p.owner ~= side
      and R.distance(fp[1], entry.fp[1]) - span(fp) - span(entry.fp) <= limit then
      local d = R.gap(fp, entry.fp)
      if d < best then best = d end
    end
  end
  by_limit[limit] = best
  return best
end

-- Candidate hexes for empty shots offered to bots (players may name any hex): the hex ahead of
-- each enemy cruiser's or transport's bow, where its straight move or corridor would go.
function L.empty_candidates(e, side)
  local seen, out = {}, {}
  for _, id in ipairs(e.order) do
    local entry = e.pieces[id]
    if entry.p.owner ~= side and data.pieces[entry.kind].move == "straight" then
      local n = R.step(entry.p.hex, entry.facing)
      local k = R.ik(n)
      if not seen[k] then
        seen[k] = true
        out[#out + 1] = n
      end
    end
  end
  return out
end

return L
