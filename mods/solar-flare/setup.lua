-- Solar Flare setup in play (the deploy phase before the battle): anomalies one per turn, then
-- ships one per turn; design changes before a ship is placed (standard and advanced setup).
-- main.lua requires this file where the deploy phase's actions are declared.
local D = require("data")
local G = require("geom")
local DES = require("design")
local PW = require("power")
local R = require("rules")
local X = require("decl")

local P = R.param
local action, battle = X.action, X.battle

local S = {}
function S.owes_anomaly(ctx, side)
  if battle(ctx) then return false end
  local s = ctx:side(side)
  return (s.values.anomalies_left or 0) > 0 and (s.values.anomaly_round or 0) ~= ctx.round
end

function S.may_deploy_ship(ctx, side)
  if battle(ctx) then return false end
  local s = ctx:side(side)
  if (s.values.ship_round or 0) == ctx.round then return false end
  if #R.reserve_ships(ctx, side) == 0 then return false end
  return R.all_anomalies_placed(ctx)
end

action {
  id = "place_anomaly",
  phases = { "deploy" },
  params = { kind = "string", at = "hex" },
  choices = function(ctx, side)
    if not S.owes_anomaly(ctx, side) then return {} end
    return R.anomaly_choices(ctx)
  end,
  check = function(ctx, a)
    if not S.owes_anomaly(ctx, a.side) then return false, "you have no anomaly to place this turn" end
    local at = P(a, "at")
    if type(at) ~= "table" then return false, "where?" end
    return R.anomaly_ok(ctx, R.terrain_map(ctx), R.occupancy(ctx), P(a, "kind"), at)
  end,
  apply = function(ctx, a)
    local kind, at = P(a, "kind"), P(a, "at")
    local map = R.terrain_map(ctx)
    local t = D.anomalies[kind].terrain
    for _, h in ipairs(R.anomaly_hexes(kind, at)) do
      map[G.key(h)] = t
      ctx:set_terrain(h, { t })
    end
    ctx:set_global("terrain", map)
    local used = R.global(ctx, "anomalies_used", {})
    used[kind] = (used[kind] or 0) + 1
    ctx:set_global("anomalies_used", used)
    local s = ctx:side(a.side)
    ctx:set_side(a.side, "anomalies_left", (s.values.anomalies_left or 0) - 1)
    ctx:set_side(a.side, "anomaly_round", ctx.round)
    ctx:log(("%s places a %s at %s"):format(a.side, kind, G.key(at)))
  end,
}

-- Deploy choices made once: ship id -> board hex -> its six choices (see TRANSFERS).
local DEPLOYS = {}

action {
  id = "deploy",
  phases = { "deploy" },
  params = { ship = "piece", at = "hex", facing = "direction" },
  choices = function(ctx, side)
    if not S.may_deploy_ship(ctx, side) then return {} end
    local p = R.reserve_ships(ctx, side)[1]
    local map, occ, out = R.terrain_map(ctx), R.occupancy(ctx), {}
    local ships = R.ship_spots(ctx)
    -- Choices made once (see TRANSFERS): ship -> board hex (the board's own table) -> list.
    local made = DEPLOYS[p.id]
    if not made then made = setmetatable({}, { __mode = "k" }); DEPLOYS[p.id] = made end
    for _, h in ipairs(R.board(ctx).hexes) do
      if R.deploy_ok(ctx, side, map, occ, h, ships) then
        local six = made[h]
        if not six then
          six = {}
          for f = 0, 5 do six[f + 1] = { ship = p.id, at = h, facing = f } end
          made[h] = six
        end
        for f = 1, 6 do out[#out + 1] = six[f] end
      end
    end
    return out
  end,
  check = function(ctx, a)
    local p, why = R.own_ship(ctx, a.side, P(a, "ship"))
    if not p then return false, why end
    if R.on_board(p) then return false, "ship " .. p.id .. " is already on the board" end
    if not S.may_deploy_ship(ctx, a.side) then return false, "you can not place a ship now" end
    local f = R.dir(P(a, "facing"))
    if type(f) ~= "number" or f < 0 or f > 5 then return false, "facing must be one of the six directions" end
    local at = P(a, "at")
    if type(at) ~= "table" then return false, "where?" end
    return R.deploy_ok(ctx, a.side, R.terrain_map(ctx), R.occupancy(ctx), at)
  end,
  apply = function(ctx, a)
    local id, at, f = P(a, "ship"), P(a, "at"), R.dir(P(a, "facing"))
    ctx:place(id, { q = at.q, r = at.r })
    ctx:move(id, { q = at.q, r = at.r }, f)
    ctx:set_side(a.side, "ship_round", ctx.round)
    ctx:log(("%s places ship %d at %s facing %s"):format(a.side, id, G.key(at), G.NAMES[f]))
  end,
}

-- Design changes (standard: levels +-1 of existing systems; advanced: also install/remove).
local function setup_mode(ctx) return (ctx.options or {}).setup or "quick" end

local function design_ship(ctx, side, id)
  if battle(ctx) then return nil, "the battle has begun" end
  local mode = setup_mode(ctx)
  if mode == "quick" then return nil, "the quick setup uses the designs as they are" end
  local p, why = R.own_ship(ctx, side, id)
  if not p then return nil, why end
  if R.on_board(p) then return nil, "ship " .. p.id .. " is already placed" end
  return p
end

local function try_level(s, what, index, delta)
  local d = DES.of_ship(s)
  local list = (what == "crew") and d.crew or d.components
  local item = list[index]
  if item == nil then return false, "no such " .. what end
  if what == "crew" then
    if list[index] + delta < 1 then return false, "a system can not go below level 1" end
    if list[index] + delta > D.max_level then return false, "level " .. D.max_level .. " is the highest" end
    list[index] = list[index] + delta
  else
    if item.level + delta < 1 then return false, "a system can not go below level 1" end
    if item.level + delta > D.max_level then return false, "level " .. D.max_level .. " is the highest" end
    item.level = item.level + delta
  end
  local ok, problems = DES.validate(d)
  if not ok then return false, problems[1] end
  return true
end

action {
  id = "adjust",
  phases = { "deploy" },
  params = { ship = "piece", what = "string", index = "integer", delta = "integer" },
  choices = function(ctx, side)
    local out = {}
    if battle(ctx) or setup_mode(ctx) == "quick" then return out end
    for _, p in ipairs(R.reserve_ships(ctx, side)) do
      local s = p.values
      for _, what in ipairs({ "component", "crew" }) do
        local list = (what == "crew") and s.crew or s.comps
        for i = 1, #list do
          for _, delta in ipairs({ 1, -1 }) do
            if try_level(s, what, i, delta) then out[#out + 1] = { ship = p.id, what = what, index = i, delta = delta } end
          end
        end
      end
    end
    return out
  end,
  check = function(ctx, a)
    local p, why = design_ship(ctx, a.side, P(a, "ship"))
    if not p then return false, why end
    local delta = P(a, "delta")
    if delta ~= 1 and delta ~= -1 then return false, "levels change one at a time" end
    return try_level(p.values, P(a, "what"), P(a, "index"), delta)
  end,
  apply = function(ctx, a)
    local p = ctx:piece(P(a, "ship"))
    local s = p.values
    local what, i, delta = P(a, "what"), P(a, "index"), P(a, "delta")
    local item = (what == "crew") and s.crew[i] or s.comps[i]
    item.level = item.level + delta
    if what ~= "crew" then item.charge = PW.capacity(item); item.partial = 0 end
    R.save_ship(ctx, p.id, s)
  end,
}

action {
  id = "install",
  phases = { "deploy" },
  params = { ship = "piece", kind = "string", section = "integer" },
  choices = function(ctx, side)
    local out = {}
    if battle(ctx) or setup_mode(ctx) ~= "advanced" then return out end
    for _, p in ipairs(R.reserve_ships(ctx, side)) do
      local d = DES.of_ship(p.values)
      for _, kind in ipairs(D.component_kinds) do
        for sec = 1, D.sections do
          d.components[#d.components + 1] = { kind = kind, section = sec, level = 1 }
          if DES.validate(d) then out[#out + 1] = { ship = p.id, kind = kind, section = sec } end
          d.components[#d.components] = nil
        end
      end
      d.crew[#d.crew + 1] = 1
      if DES.validate(d) then out[#out + 1] = { ship = p.id, kind = "crew", section = 0 } end
    end
    return out
  end,
  check = function(ctx, a)
    if setup_mode(ctx) ~= "advanced" then return false, "only the advanced setup designs ships from scratch" end
    local p, why = design_ship(ctx, a.side, P(a, "ship"))
    if not p then return false, why end
    local d = DES.of_ship(p.values)
    local kind = P(a, "kind")
    if kind == "crew" then d.crew[#d.crew + 1] = 1
    else d.components[#d.components + 1] = { kind = kind, section = P(a, "section"), level = 1 } end
    local ok, problems = DES.validate(d)
    if not ok then return false, problems[1] end
    return true
  end,
  apply = function(ctx, a)
    local p = ctx:piece(P(a, "ship"))
    local s = p.values
    local kind = P(a, "kind")
    if kind == "crew" then s.crew[#s.crew + 1] = { level = 1, used_round = 0 }
    else
      local comp = { kind = kind, section = P(a, "section"), level = 1, charge = 0, partial = 0, over = 0, over_round = 0, fired_round = 0, charged_round = 0, dead = false }
      comp.charge = PW.capacity(comp)
      s.comps[#s.comps + 1] = comp
    end
    R.save_ship(ctx, p.id, s)
  end,
}

action {
  id = "remove",
  phases = { "deploy" },
  params = { ship = "piece", what = "string", index = "integer" },
  choices = function(ctx, side)
    local out = {}
    if battle(ctx) or setup_mode(ctx) ~= "advanced" then return out end
    for _, p in ipairs(R.reserve_ships(ctx, side)) do
      for i = 1, #p.values.comps do out[#out + 1] = { ship = p.id, what = "component", index = i } end
      for i = 1, #p.values.crew do out[#out + 1] = { ship = p.id, what = "crew", index = i } end
    end
    return out
  end,
  check = function(ctx, a)
    if setup_mode(ctx) ~= "advanced" then return false, "only the advanced setup removes systems" end
    local p, why = design_ship(ctx, a.side, P(a, "ship"))
    if not p then return false, why end
    local list = (P(a, "what") == "crew") and p.values.crew or p.values.comps
    if list[P(a, "index")] == nil then return false, "nothing to remove there" end
    return true
  end,
  apply = function(ctx, a)
    local p = ctx:piece(P(a, "ship"))
    local s = p.values
    local list = (P(a, "what") == "crew") and s.crew or s.comps
    table.remove(list, P(a, "index"))
    R.save_ship(ctx, p.id, s)
  end,
}


return S
