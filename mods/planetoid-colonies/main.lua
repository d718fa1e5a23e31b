-- planetoid-colonies: declarations (terrain, pieces, tables, turns) and the actions.
-- Numbers live in data.lua; the logic over the state lives in rules.lua; this file wires them to
-- the engine. See README.md for the rules in words and the assumptions.

local data = require("data")
local R = require("rules")
local E = require("env")

--------------------------------------------------------------------------------------------
-- Declarations
--------------------------------------------------------------------------------------------

-- Terrain declarations are for the editor (colours, names); the rules read data.terrain.
for _, id in ipairs({ "asteroids", "home_planet", "planetoid_blue", "planetoid_red", "planetoid_yellow" }) do
  local t = data.terrain[id]
  game.terrain {
    id = id, name = t.name, color = t.color,
    blocks_movement = t.obstacle or false, obstacle = t.obstacle or false,
    planetoid = t.planetoid,
  }
end

-- Per-piece values: damage and repair progress persist; the rest (data.per_turn) is reset at
-- each of the owner's goes (turns.lua).

for _, id in ipairs(data.piece_order) do
  local t = data.pieces[id]
  ---@type table<string, any>
  local values = { damage = 0, repair_progress = 0, in_hyperspace = false, entered_round = 0 }
  for k, v in pairs(data.per_turn) do values[k] = v end
  game.piece_type {
    id = id, name = t.name,
    stats = {
      hits = t.hits, speed = t.speed or 0, keep_away = t.keep_away or 0,
      shots = type(t.shots) == "number" and t.shots or 0,
    },
    values = values,
    footprint = t.footprint,
  }
end

for _, id in ipairs(data.table_order) do
  local t = data.tables[id]
  local columns = {}
  for d = 1, #t.cells[1] do columns[d] = tostring(d) end
  game.table { id = id, rows = t.rows, columns = columns, cells = t.cells }
end

game.turns {
  order = "fixed",
  phases = { { id = "act" } },
  time_track = data.colours,
  turn_limit = data.turn_limit,
}

--------------------------------------------------------------------------------------------
-- Helpers over actions and the state
--------------------------------------------------------------------------------------------

-- An action's parameter (flat per docs/API.md, or under `params`).
---@param a table
---@param k string
---@return any
local function arg(a, k)
  if a[k] ~= nil then return a[k] end
  if a.params then return a.params[k] end
  return nil
end

local function side_value(ctx, side, key)
  local s = ctx:side(side)
  return s and s.values and s.values[key]
end

local function bases_pending(ctx, side)
  return (side_value(ctx, side, "bases_to_place") or 0) > 0
end

local function my_go(ctx, side)
  if ctx.active ~= nil and ctx.active ~= side then return false, "it is not your go" end
  return true
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

local function pre(ctx, a)
  local ok, why = my_go(ctx, a.side)
  if not ok then return false, why end
  if bases_pending(ctx, a.side) then return false, "place your mobile bases first" end
  return true
end

-- The piece acting now becomes the current one; the previous one is finished for the turn.
local function activate(ctx, id)
  local cur = ctx:global("current")
  if cur and cur ~= 0 and cur ~= id and ctx:piece(cur) then ctx:set(cur, "done", true) end
  ctx:set_global("current", id)
end

---@param t table|nil
---@return table
local function copy(t)
  local out = {}
  for k, v in pairs(t or {}) do out[k] = v end
  return out
end

--------------------------------------------------------------------------------------------
-- Legality, written over an env so that choices can share one snapshot
--------------------------------------------------------------------------------------------

local L = {}
---@type fun(e: Env, side: string, fp: Hex[], limit: integer): number
local enemy_gap -- defined with the fire actions

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
  if (side_value(ctx, side, "reserve_" .. kind) or 0) < 1 then return false, "no " .. kind .. " left in reserve" end
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

local function shots_left(entry)
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
  local ok, why2 = shots_left(entry)
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

function L.fire_empty(e, side, id, at, dist)
  local entry, why = own_active(e, side, id)
  if not entry then return false, why end
  local t = data.pieces[entry.kind]
  if not t.table then return false, "a " .. t.name:lower() .. " never fires" end
  if t.shots == "each" then
    if (entry.p.values.empty_shots or 0) >= t.empty_shots then
      return false, ("no empty shots left: %d a turn"):format(t.empty_shots)
    end
  else
    local ok, why2 = shots_left(entry)
    if not ok then return false, why2 end
  end
  if type(at) ~= "table" or not at.q then return false, "no hex given" end
  if not e:on_board(at) then return false, "off the board" end
  if e:blocks_fire(at) then return false, "that hex is not empty space" end
  if #e:ids_at(at) > 0 then return false, "that hex is not empty: fire at the piece" end
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

--------------------------------------------------------------------------------------------
-- Actions
--------------------------------------------------------------------------------------------

-- The ids of `side`'s pieces that may still act, in id order; kept per env (every action's
-- choices ask), so callers only read the list.
local function own_ids(e, side)
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

game.action {
  id = "place_base",
  phases = { "act" },
  params = { at = "hex" },
  choices = function(ctx, side)
    if not bases_pending(ctx, side) or not my_go(ctx, side) then return {} end
    local e, out = E.listed_env(ctx), {}
    local home = (ctx.options or {}).home and ctx.options.home[side]
    if not home then return {} end
    for dq = -3, 3 do
      for dr = -3, 3 do
        local at = { q = home.q + dq, r = home.r + dr }
        if L.place_base(e, side, at) then out[#out + 1] = { at = at } end
      end
    end
    return out
  end,
  check = function(ctx, a)
    local ok, why = my_go(ctx, a.side)
    if not ok then return false, why end
    if not bases_pending(ctx, a.side) then return false, "all your mobile bases are placed" end
    return L.place_base(E.env(ctx), a.side, arg(a, "at"))
  end,
  apply = function(ctx, a)
    local at = arg(a, "at")
    local id = ctx:create { type = "mobile_base", owner = a.side, hex = at, facing = 0 }
    ctx:set_side(a.side, "bases_to_place", side_value(ctx, a.side, "bases_to_place") - 1)
    ctx:log(("%s places mobile base %d at %s"):format(a.side, id, R.key(at)))
  end,
}

game.action {
  id = "deploy",
  phases = { "act" },
  params = { kind = "string", ramp = "integer" },
  choices = function(ctx, side)
    if not pre(ctx, { side = side }) then return {} end
    local e, out = E.listed_env(ctx), {}
    local ramps = (ctx.options or {}).ramps and ctx.options.ramps[side] or {}
    for _, kind in ipairs({ "transport", "cruiser", "fighter" }) do
      for i = 1, #ramps do
        if L.deploy(e, side, kind, i) then out[#out + 1] = { kind = kind, ramp = i } end
      end
    end
    return out
  end,
  check = function(ctx, a)
    local ok, why = pre(ctx, a)
    if not ok then return false, why end
    return L.deploy(E.env(ctx), a.side, arg(a, "kind"), arg(a, "ramp"))
  end,
  apply = function(ctx, a)
    local kind, ramp = arg(a, "kind"), arg(a, "ramp")
    local hex, facing = L.ramp_position(E.env(ctx), a.side, kind, ramp)
    local id = ctx:create { type = kind, owner = a.side, hex = hex, facing = facing }
    ctx:set_side(a.side, "reserve_" .. kind, side_value(ctx, a.side, "reserve_" .. kind) - 1)
    ctx:set_global("deployed_kind", kind)
    ctx:set_global("deployed_count", (ctx:global("deployed_count") or 0) + 1)
    ctx:log(("%s brings in %s %d on ramp %d"):format(a.side, kind, id, ramp))
  end,
}

game.action {
  id = "step",
  phases = { "act" },
  params = { piece = "piece", dir = "direction" },
  choices = function(ctx, side)
    if not pre(ctx, { side = side }) then return {} end
    local e, out = E.listed_env(ctx), {}
    for _, id in ipairs(own_ids(e, side)) do
      for d = 0, 5 do
        if L.step(e, side, id, d) then out[#out + 1] = { piece = id, dir = d } end
      end
    end
    return out
  end,
  check = function(ctx, a)
    local ok, why = pre(ctx, a)
    if not ok then return false, why end
    return L.step(E.env(ctx), a.side, arg(a, "piece"), arg(a, "dir"))
  end,
  apply = function(ctx, a)
    local id, d = arg(a, "piece"), R.dir(arg(a, "dir"))
    local p = assert(ctx:piece(id), "check found the piece")
    assert(p.hex and d, "check found the piece on the board and the direction")
    activate(ctx, id)
    ctx:move(id, R.step(p.hex, d), R.dir(p.facing) or 0)
    ctx:set(id, "steps", (p.values.steps or 0) + 1)
    ctx:set(id, "moved", true)
  end,
}

game.action {
  id = "pivot",
  phases = { "act" },
  params = { piece = "piece", facing = "direction" },
  choices = function(ctx, side)
    if not pre(ctx, { side = side }) then return {} end
    local e, out = E.listed_env(ctx), {}
    for _, id in ipairs(own_ids(e, side)) do
      for f = 0, 5 do
        if L.pivot(e, side, id, f) then out[#out + 1] = { piece = id, facing = f } end
      end
    end
    return out
  end,
  check = function(ctx, a)
    local ok, why = pre(ctx, a)
    if not ok then return false, why end
    return L.pivot(E.env(ctx), a.side, arg(a, "piece"), arg(a, "facing"))
  end,
  apply = function(ctx, a)
    local id, f = arg(a, "piece"), R.dir(arg(a, "facing"))
    local p = assert(ctx:piece(id), "check found the piece")
    assert(p.hex, "check found the piece on the board")
    activate(ctx, id)
    ctx:move(id, p.hex, f)
    ctx:set(id, "pivoted", true)
    ctx:set(id, "moved", true)
  end,
}

-- Roll one shot: returns whether it hit.
local function roll_shot(ctx, need, label)
  local roll = ctx:roll("d6", label)
  if type(roll) == "table" then roll = roll.total end
  return roll >= need, roll
end

game.action {
  id = "fire",
  phases = { "act" },
  params = { piece = "piece", target = "piece" },
  choices = function(ctx, side)
    if not pre(ctx, { side = side }) then return {} end
    local e, out = E.listed_env(ctx), {}
    for _, id in ipairs(own_ids(e, side)) do
      local entry = e.pieces[id]
      local t = data.pieces[entry.kind]
      local range = t.table and #data.tables[t.table].cells[1]
      -- Why the gap test: a crooked path is never shorter than the straight distance, so a
      -- piece with no enemy within its range needs no path search.
      if range and shots_left(entry) and enemy_gap(e, side, entry.fp, range) <= range then
        local dist = e:reach(entry.fp, range)
        for _, tid in ipairs(e.order) do
          if e.pieces[tid].p.owner ~= side and L.fire(e, side, id, tid, dist) then
            out[#out + 1] = { piece = id, target = tid }
          end
        end
      end
    end
    return out
  end,
  check = function(ctx, a)
    local ok, why = pre(ctx, a)
    if not ok then return false, why end
    local ok2, why2 = L.fire(E.env(ctx), a.side, arg(a, "piece"), arg(a, "target"))
    if not ok2 then return false, why2 end
    return true
  end,
  apply = function(ctx, a)
    local e = E.env(ctx)
    local id, target = arg(a, "piece"), arg(a, "target")
    local _, need, d = L.fire(e, a.side, id, target)
    local p, tgt = e.pieces[id].p, e.pieces[target]
    activate(ctx, id)
    ctx:set(id, "shots", (p.values.shots or 0) + 1)
    local targets = copy(p.values.targets)
    targets[tostring(target)] = true
    ctx:set(id, "targets", targets)
    ctx:set(id, "fired", true)
    local hit, roll = roll_shot(ctx, need, "to hit")
    local tname = data.pieces[tgt.kind].name
    if not hit then
      ctx:log(("%d fires at %s %d at %d hexes: rolls %d, needs %d, misses"):format(id, tname, target, d, roll, need))
      return
    end
    local damage = (tgt.p.values.damage or 0) + 1
    ctx:log(("%d fires at %s %d at %d hexes: rolls %d, needs %d, hits (damage %d)"):format(id, tname, target, d, roll, need, damage))
    if damage >= data.pieces[tgt.kind].hits then
      R.destroy(ctx, e, target)
    else
      ctx:set(target, "damage", damage)
    end
  end,
}

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
enemy_gap = function(e, side, fp, limit)
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
local function empty_candidates(e, side)
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

game.action {
  id = "fire_empty",
  phases = { "act" },
  params = { piece = "piece", at = "hex" },
  choices = function(ctx, side)
    if not pre(ctx, { side = side }) then return {} end
    local e, out = E.listed_env(ctx), {}
    local cands = empty_candidates(e, side)
    if #cands == 0 then return out end
    for _, id in ipairs(own_ids(e, side)) do
      local entry = e.pieces[id]
      local t = data.pieces[entry.kind]
      local range = t.table and #data.tables[t.table].cells[1]
      if range and R.gap(entry.fp, cands) <= range then
        local dist = e:reach(entry.fp, range)
        for _, h in ipairs(cands) do
          if L.fire_empty(e, side, id, h, dist) then out[#out + 1] = { piece = id, at = h } end
        end
      end
    end
    return out
  end,
  check = function(ctx, a)
    local ok, why = pre(ctx, a)
    if not ok then return false, why end
    local ok2, why2 = L.fire_empty(E.env(ctx), a.side, arg(a, "piece"), arg(a, "at"))
    if not ok2 then return false, why2 end
    return true
  end,
  apply = function(ctx, a)
    local e = E.env(ctx)
    local id, at = arg(a, "piece"), arg(a, "at")
    local _, need, d = L.fire_empty(e, a.side, id, at)
    local p = e.pieces[id].p
    activate(ctx, id)
    if data.pieces[e.pieces[id].kind].shots == "each" then
      ctx:set(id, "empty_shots", (p.values.empty_shots or 0) + 1)
    else
      ctx:set(id, "shots", (p.values.shots or 0) + 1)
    end
    ctx:set(id, "fired", true)
    local hit, roll = roll_shot(ctx, need, "empty shot")
    if hit then
      local blasts = copy(ctx:global("blasts"))
      -- False positive (emmylua_check 0.25.1): it takes the `R.key` call in the index for a
      -- reassignment of the module's field `key`.
      ---@diagnostic disable-next-line: duplicate-set-field
      blasts[R.key(at)] = a.side
      ctx:set_global("blasts", blasts)
      ctx:log(("%d fires into %s at %d hexes: rolls %d, needs %d: the hex is closed"):format(id, R.key(at), d, roll, need))
    else
      ctx:log(("%d fires into %s at %d hexes: rolls %d, needs %d: no effect"):format(id, R.key(at), d, roll, need))
    end
  end,
}

game.action {
  id = "hyperspace_in",
  phases = { "act" },
  params = { piece = "piece", dir = "direction" },
  choices = function(ctx, side)
    if not pre(ctx, { side = side }) then return {} end
    local e, out = E.listed_env(ctx), {}
    for _, id in ipairs(own_ids(e, side)) do
      for d = 0, 5 do
        if L.hyperspace_in(e, side, id, d) then out[#out + 1] = { piece = id, dir = d } end
      end
    end
    return out
  end,
  check = function(ctx, a)
    local ok, why = pre(ctx, a)
    if not ok then return false, why end
    return L.hyperspace_in(E.env(ctx), a.side, arg(a, "piece"), arg(a, "dir"))
  end,
  apply = function(ctx, a)
    local id = arg(a, "piece")
    activate(ctx, id)
    ctx:set(id, "hyper", true)
    ctx:set(id, "done", true)
    ctx:set(id, "in_hyperspace", true)
    ctx:set(id, "entered_round", ctx.round)
    ctx:place(id, { box = "hyperspace" })
    ctx:set_global("current", 0)
    ctx:log(("%d enters hyperspace"):format(id))
  end,
}

game.action {
  id = "hyperspace_out",
  phases = { "act" },
  params = { piece = "piece", at = "hex", facing = "direction" },
  choices = function(ctx, side)
    if not pre(ctx, { side = side }) then return {} end
    local e, out, grid = nil, {}, nil
    for _, p in ipairs(ctx:pieces({ owner = side, shared = true })) do
      if p.values and p.values.in_hyperspace and p.values.entered_round ~= ctx.round then
        e = e or E.listed_env(ctx)
        local kind = R.kind_of(p)
        -- Exits depend only on the ship's type and the scene (map, explosions, enemies): listed
        -- once per type and scene.
        local by_kind = e:scene(side).exits
        if not by_kind[kind] then
          local exits, g = {}, data.exit_grid
          grid = grid or ctx:board_hexes()
          for _, h in ipairs(grid) do
            if h.q % g == 0 and h.r % g == 0 then
              for f = 0, 5 do
                -- The ship's own conditions were checked above (in hyperspace, not entered
                -- this turn): what is left depends on the map.
                if L.exit_clear(e, side, kind, h, f) then
                  exits[#exits + 1] = { at = { q = h.q, r = h.r }, facing = f }
                end
              end
            end
          end
          by_kind[kind] = exits
        end
        for _, x in ipairs(by_kind[kind]) do
          out[#out + 1] = { piece = p.id, at = x.at, facing = x.facing }
        end
      end
    end
    return out
  end,
  check = function(ctx, a)
    local ok, why = pre(ctx, a)
    if not ok then return false, why end
    return L.hyperspace_out(E.env(ctx), a.side, arg(a, "piece"), arg(a, "at"), arg(a, "facing"))
  end,
  apply = function(ctx, a)
    local id, at, f = arg(a, "piece"), arg(a, "at"), R.dir(arg(a, "facing"))
    activate(ctx, id)
    ctx:place(id, { q = at.q, r = at.r })
    ctx:move(id, { q = at.q, r = at.r }, f)
    ctx:set(id, "in_hyperspace", false)
    ctx:set(id, "hyper", true)
    ctx:set(id, "done", true)
    ctx:set_global("current", 0)
    ctx:log(("%d leaves hyperspace at %s"):format(id, R.key(at)))
  end,
}

game.action {
  id = "colonise",
  phases = { "act" },
  params = { piece = "piece", at = "hex" },
  choices = function(ctx, side)
    if not pre(ctx, { side = side }) then return {} end
    local e, out = E.listed_env(ctx), {}
    for _, id in ipairs(own_ids(e, side)) do
      if data.pieces[e.pieces[id].kind].colonises then
        for _, h in ipairs(e.pieces[id].fp) do
          if L.colonise(e, side, id, h) then out[#out + 1] = { piece = id, at = h } end
        end
      end
    end
    return out
  end,
  check = function(ctx, a)
    local ok, why = pre(ctx, a)
    if not ok then return false, why end
    return L.colonise(E.env(ctx), a.side, arg(a, "piece"), arg(a, "at"))
  end,
  apply = function(ctx, a)
    local id, at = arg(a, "piece"), arg(a, "at")
    activate(ctx, id)
    local colour = (ctx:global("planetoids") or {})[R.key(at)]
    local base = ctx:create {
      type = "fixed_base", owner = a.side, hex = { q = at.q, r = at.r }, facing = 0,
      values = { colour = colour },
    }
    ctx:log(("transport %d founds fixed base %d on the %s planetoid at %s"):format(id, base, colour, R.key(at)))
  end,
}

game.action {
  id = "end_phase",
  check = function(ctx, a)
    if bases_pending(ctx, a.side) then return false, "place your mobile bases first" end
    return true
  end,
}

-- Turn events, setup and the end of the game: turns.lua.
require("turns")

-- Bots: `random` is built in; `greedy` lives in bot.lua.
game.bots.greedy = require("bot").greedy
