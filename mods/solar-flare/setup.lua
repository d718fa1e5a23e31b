-- Solar Flare setup in play (the deploy phase before the battle), in the document's order:
-- 1. designs: each player picks a sample design for each of its ships (quick and standard
--    setup; `choose_design`), modifies its levels (standard: `adjust`) or builds one from a
--    blank sheet (advanced: `install`, `remove`, `adjust`), and marks it final (`finish_design`);
--    a ship whose design the scenario names is final from the start;
-- 2. when the last design is final, the players roll for the play order, the first player
--    rolls how many anomalies each player places, and from the next round (the first
--    player's) they are placed one per turn (`place_anomaly`);
-- 3. then ships are placed one per turn (`deploy`).
-- main.lua requires this file where the deploy phase's actions are declared, and calls
-- S.setup_ships from game.setup.
local D = require("data")
local G = require("geom")
local DES = require("design")
local PW = require("power")
local R = require("rules")
local PL = require("placement")
local X = require("decl")
local DESIGNS = require("designs")

local P = R.param
local action, battle = X.action, X.battle

local S = {}

local function setup_mode(ctx) return (ctx.options or {}).setup or "quick" end

-- Designs --------------------------------------------------------------------------------------
---Whether every design is final and the round they became so has ended (anomalies and ships
---wait for the next round, which the first player begins).
function S.designs_done(ctx)
  local r = R.global(ctx, "designs_round", false)
  return r ~= false and (r == 0 or ctx.round > r) -- 0: final at setup
end

---The ships of `side` (every side when nil) whose design is not final yet.
function S.open_designs(ctx, side)
  local out = {}
  for _, p in ipairs(R.ships(ctx, side)) do
    if not p.values.design_final then out[#out + 1] = p end
  end
  return out
end

local BLANK = { components = {}, crew = {} }

---Writes a whole ship record (as design.build makes it) into piece `id`.
local function write_record(ctx, id, rec, final)
  for k, v in pairs(rec) do ctx:set(id, k, v) end
  ctx:set(id, "design_final", final)
end

---The first player's roll of the anomalies each player places (when the scenario has them),
---once every design is final. Anomalies and ships wait for the next round.
local function designs_final(ctx, at_setup)
  ctx:set_global("designs_round", at_setup and 0 or ctx.round)
  if not at_setup then ctx:log("every design is final") end
  -- The roll for the play order comes after the designs; the next round is the first
  -- player's, and so is the anomaly roll below.
  local order = ctx:roll_order(D.play_order_die)
  ctx:log(("play order from the next round: %s"):format(table.concat(order, ", ")))
  if (ctx.options or {}).anomalies ~= false then
    local n = ctx:roll(D.anomaly_count_die, "anomalies per player")
    ctx:set_global("anomaly_count", n)
    for _, s in ipairs(ctx:sides()) do ctx:set_side(s.id, "anomalies_left", n) end
    ctx:log(("each player places %d anomalies"):format(n))
  end
end

---At game setup: a ship with a whole record from the scenario or a `design` value is final; any
---other ship gets a blank record and is designed in play. Rolls for anomalies when no design is
---left to make.
function S.setup_ships(ctx)
  for _, p in ipairs(R.ships(ctx)) do
    local v = p.values
    if v.comps ~= nil and next(v.comps) ~= nil then
      ctx:set(p.id, "design_final", true)
    elseif v.design ~= nil then
      local d = DESIGNS[v.design]
      if v.design == "order" or d == nil then error("unknown ship design " .. tostring(v.design)) end
      write_record(ctx, p.id, DES.build(d, v.design), true)
    else
      write_record(ctx, p.id, DES.build(BLANK, "custom"), false)
      ctx:set(p.id, "design", nil)
    end
  end
  if #S.open_designs(ctx) == 0 then designs_final(ctx, true) end
end

---The ship `id` of `side` whose design may still change, or nil and why.
local function open_ship(ctx, side, id)
  if battle(ctx) then return nil, "the battle has begun" end
  local p, why = R.own_ship(ctx, side, id)
  if not p then return nil, why end
  if p.values.design_final then return nil, "the design of ship " .. p.id .. " is final" end
  return p
end

action {
  id = "choose_design",
  phases = { "deploy" },
  params = { ship = "piece", design = "string" },
  choices = function(ctx, side)
    local out = {}
    if battle(ctx) or setup_mode(ctx) == "advanced" then return out end
    for _, p in ipairs(S.open_designs(ctx, side)) do
      for _, d in ipairs(DESIGNS.order) do out[#out + 1] = { ship = p.id, design = d } end
    end
    return out
  end,
  check = function(ctx, a)
    if setup_mode(ctx) == "advanced" then return false, "the advanced setup designs ships from scratch" end
    local p, why = open_ship(ctx, a.side, P(a, "ship"))
    if not p then return false, why end
    local d = P(a, "design")
    if type(d) ~= "string" or d == "order" or DESIGNS[d] == nil then
      return false, "no sample design " .. tostring(d) .. " (" .. table.concat(DESIGNS.order, ", ") .. ")"
    end
    return true
  end,
  apply = function(ctx, a)
    local id, d = P(a, "ship"), P(a, "design")
    write_record(ctx, id, DES.build(DESIGNS[d], d), false)
    ctx:log(("%s chooses the %s design (%d points) for ship %d"):format(a.side, DESIGNS[d].name, DES.cost(DESIGNS[d]), id))
  end,
}

action {
  id = "finish_design",
  phases = { "deploy" },
  params = { ship = "piece" },
  choices = function(ctx, side)
    local out = {}
    if battle(ctx) then return out end
    local advanced = setup_mode(ctx) == "advanced"
    for _, p in ipairs(S.open_designs(ctx, side)) do
      if advanced or p.values.design ~= nil then out[#out + 1] = { ship = p.id } end
    end
    return out
  end,
  check = function(ctx, a)
    local p, why = open_ship(ctx, a.side, P(a, "ship"))
    if not p then return false, why end
    if setup_mode(ctx) ~= "advanced" and p.values.design == nil then return false, "choose a design first" end
    local ok, problems = DES.validate(DES.of_ship(p.values))
    if not ok then return false, problems[1] end
    return true
  end,
  apply = function(ctx, a)
    local p = ctx:piece(P(a, "ship"))
    ctx:set(p.id, "design_final", true)
    local d = DES.of_ship(p.values)
    ctx:log(("%s's ship %d: design final (%s, %d points, %d systems, %d crew teams)"):format(
      a.side, p.id, p.values.design or "custom", DES.cost(d), #d.components, #d.crew))
    if #S.open_designs(ctx) == 0 then designs_final(ctx, false) end
  end,
}

-- Anomalies and ships ---------------------------------------------------------------------------
function S.owes_anomaly(ctx, side)
  if battle(ctx) or not S.designs_done(ctx) then return false end
  local s = ctx:side(side)
  return (s.values.anomalies_left or 0) > 0 and (s.values.anomaly_round or 0) ~= ctx.round
end

function S.may_deploy_ship(ctx, side)
  if battle(ctx) or not S.designs_done(ctx) then return false end
  local s = ctx:side(side)
  if (s.values.ship_round or 0) == ctx.round then return false end
  if #PL.reserve_ships(ctx, side) == 0 then return false end
  return PL.all_anomalies_placed(ctx)
end

action {
  id = "place_anomaly",
  phases = { "deploy" },
  params = { kind = "string", at = "hex" },
  choices = function(ctx, side)
    if not S.owes_anomaly(ctx, side) then return {} end
    return PL.anomaly_choices(ctx)
  end,
  check = function(ctx, a)
    if not S.owes_anomaly(ctx, a.side) then return false, "you have no anomaly to place this turn" end
    local at = P(a, "at")
    if type(at) ~= "table" then return false, "where?" end
    return PL.anomaly_ok(ctx, R.terrain_map(ctx), R.occupancy(ctx), P(a, "kind"), at)
  end,
  apply = function(ctx, a)
    local kind, at = P(a, "kind"), P(a, "at")
    local map = R.terrain_map(ctx)
    local t = D.anomalies[kind].terrain
    for _, h in ipairs(PL.anomaly_hexes(kind, at)) do
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
    local p = assert(PL.reserve_ships(ctx, side)[1], "may_deploy_ship found a ship in reserve")
    local map, occ, out = R.terrain_map(ctx), R.occupancy(ctx), {}
    local ships = R.ship_spots(ctx)
    -- Choices made once (see TRANSFERS): ship -> board hex (the board's own table) -> list.
    local made = DEPLOYS[p.id]
    if not made then made = setmetatable({}, { __mode = "k" }); DEPLOYS[p.id] = made end
    for _, h in ipairs(R.board(ctx).hexes) do
      if PL.deploy_ok(ctx, side, map, occ, h, ships) then
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
    return PL.deploy_ok(ctx, a.side, R.terrain_map(ctx), R.occupancy(ctx), at)
  end,
  apply = function(ctx, a)
    local id, at, f = P(a, "ship"), P(a, "at"), R.dir(P(a, "facing"))
    ctx:place(id, { q = at.q, r = at.r })
    ctx:move(id, { q = at.q, r = at.r }, f)
    ctx:set_side(a.side, "ship_round", ctx.round)
    ctx:log(("%s places ship %d at %s facing %s"):format(a.side, id, G.key(at), G.NAMES[f]))
  end,
}

-- Design changes (standard: levels +-1 of a chosen sample design's systems; advanced: also
-- install/remove), while the design is not final.
local function design_ship(ctx, side, id)
  local mode = setup_mode(ctx)
  if mode == "quick" then return nil, "the quick setup uses the designs as they are" end
  local p, why = open_ship(ctx, side, id)
  if not p then return nil, why end
  if mode ~= "advanced" and p.values.design == nil then return nil, "choose a design first" end
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
    for _, p in ipairs(S.open_designs(ctx, side)) do
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
    for _, p in ipairs(S.open_designs(ctx, side)) do
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
    for _, p in ipairs(S.open_designs(ctx, side)) do
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
