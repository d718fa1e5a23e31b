-- planetoid-colonies: declarations (terrain, pieces, tables, turns) and the actions.
-- Numbers live in data.lua; the logic over the state lives in rules.lua; this file wires them to
-- the engine. See README.md for the rules in words and the assumptions.

local data = require("data")
local R = require("rules")
local E = require("env")
local L = require("legal")

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

-- How the editor draws a piece: its letters, speed and shots along the bottom, hits taken as a
-- bar, and markers for what it did this go and hyperspace.
local LABELS = { mobile_base = "MB", fixed_base = "FB", cruiser = "CR", fighter = "FT", transport = "TR" }
local function counter(_ctx, p)
  local t = data.pieces[p.type]
  local v = p.values
  local markers = {}
  if v.in_hyperspace then markers[#markers + 1] = "hyper" end
  if v.moved then markers[#markers + 1] = "moved" end
  if v.fired then markers[#markers + 1] = "fired" end
  if v.done then markers[#markers + 1] = "done" end
  local shots = t.shots == "each" and "*" or tostring(t.shots or 0)
  return {
    label = LABELS[p.type] or p.type:sub(1, 2):upper(),
    factors = (t.speed or 0) .. "-" .. shots,
    damage = { math.min(v.damage or 0, t.hits), t.hits },
    markers = markers,
  }
end

for _, id in ipairs(data.piece_order) do
  local t = data.pieces[id]
  ---@type table<string, any>
  local values = { damage = 0, repair_progress = 0, in_hyperspace = false, entered_round = 0 }
  for k, v in pairs(data.per_turn) do values[k] = v end
  game.piece_type {
    counter = counter,
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

local function bases_pending(ctx, side)
  return (L.side_value(ctx, side, "bases_to_place") or 0) > 0
end

local function my_go(ctx, side)
  if ctx.active ~= nil and ctx.active ~= side then return false, "it is not your go" end
  return true
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

-- Appends the items of list `from` to list `to`.
---@param to table[]
---@param from table[]
local function append(to, from)
  for _, x in ipairs(from) do to[#to + 1] = x end
end

---@param t table|nil
---@return table
local function copy(t)
  local out = {}
  for k, v in pairs(t or {}) do out[k] = v end
  return out
end


--------------------------------------------------------------------------------------------
-- Actions
--------------------------------------------------------------------------------------------

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
    ctx:set_side(a.side, "bases_to_place", L.side_value(ctx, a.side, "bases_to_place") - 1)
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
    ctx:set_side(a.side, "reserve_" .. kind, L.side_value(ctx, a.side, "reserve_" .. kind) - 1)
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
    for _, id in ipairs(L.own_ids(e, side)) do
      append(out, e:piece_choices(side, "step", id, function()
        local mine = {}
        for d = 0, 5 do
          if L.step(e, side, id, d) then mine[#mine + 1] = { piece = id, dir = d } end
        end
        return mine
      end))
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
    for _, id in ipairs(L.own_ids(e, side)) do
      append(out, e:piece_choices(side, "pivot", id, function()
        local mine = {}
        for f = 0, 5 do
          if L.pivot(e, side, id, f) then mine[#mine + 1] = { piece = id, facing = f } end
        end
        return mine
      end))
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
    for _, id in ipairs(L.own_ids(e, side)) do
      append(out, e:piece_choices(side, "fire", id, function(entry)
        local mine = {}
        local t = data.pieces[entry.kind]
        local range = t.table and #data.tables[t.table].cells[1]
        -- Why the gap test: a crooked path is never shorter than the straight distance, so a
        -- piece with no enemy within its range needs no path search.
        if range and L.shots_left(entry) and L.enemy_gap(e, side, entry.fp, range) <= range then
          local dist = e:reach(entry.fp, range)
          for _, tid in ipairs(e.order) do
            if e.pieces[tid].p.owner ~= side and L.fire(e, side, id, tid, dist) then
              mine[#mine + 1] = { piece = id, target = tid }
            end
          end
        end
        return mine
      end))
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
  -- How the editor names a shot: the d6 roll needed at this distance, and its chance.
  label = function(ctx, a)
    local e = E.listed_env(ctx)
    local ok, need, d = L.fire(e, a.side, arg(a, "piece"), arg(a, "target"))
    if not ok then return nil end
    local tgt = e.pieces[arg(a, "target")]
    local chance = math.floor(math.max(0, math.min(6, 7 - need)) * 100 / 6 + 0.5)
    return {
      text = ("%d -> %s %d at %d hexes: needs %d (%d%%)"):format(a.piece, data.pieces[tgt.kind].name, a.target, d, need, chance),
      short = chance .. "%",
    }
  end,
}

game.action {
  id = "fire_empty",
  phases = { "act" },
  params = { piece = "piece", at = "hex" },
  choices = function(ctx, side)
    if not pre(ctx, { side = side }) then return {} end
    local e, out = E.listed_env(ctx), {}
    local cands = L.empty_candidates(e, side)
    if #cands == 0 then return out end
    for _, id in ipairs(L.own_ids(e, side)) do
      -- Kept per scene and piece as if the hexes were empty; whether one of the side's own
      -- pieces stands there is asked now.
      local aims = e:piece_choices(side, "fire_empty", id, function(entry)
        local mine = {}
        local t = data.pieces[entry.kind]
        local range = t.table and #data.tables[t.table].cells[1]
        if range and R.gap(entry.fp, cands) <= range then
          local dist = e:reach(entry.fp, range)
          for _, h in ipairs(cands) do
            if L.fire_empty(e, side, id, h, dist, true) then mine[#mine + 1] = { piece = id, at = h } end
          end
        end
        return mine
      end)
      for _, c in ipairs(aims) do
        if #e:ids_at(c.at) == 0 then out[#out + 1] = c end
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
    for _, id in ipairs(L.own_ids(e, side)) do
      append(out, e:piece_choices(side, "hyperspace_in", id, function()
        local mine = {}
        for d = 0, 5 do
          if L.hyperspace_in(e, side, id, d) then mine[#mine + 1] = { piece = id, dir = d } end
        end
        return mine
      end))
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
    local e, out = nil, {}
    for _, p in ipairs(ctx:pieces({ owner = side, shared = true })) do
      if p.values and p.values.in_hyperspace and p.values.entered_round ~= ctx.round then
        e = e or E.listed_env(ctx)
        -- The ship's own conditions were checked just above (in hyperspace, not entered this
        -- turn): what is left depends on its type and the scene (L.exit_clear).
        for _, x in ipairs(e:exits(side, R.kind_of(p))) do
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
    for _, id in ipairs(L.own_ids(e, side)) do
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
require("evaluate") -- game.evaluate, the search bot's heuristic (evaluate.lua)
