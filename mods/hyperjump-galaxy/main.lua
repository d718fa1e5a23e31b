-- Hyperjump Galaxy: fleets, troops and agents on a star map (a graph, not a hex grid).
--
-- This file only declares: piece types and the hyperjump table from data.lua, the turn
-- structure, the actions (each a choices/check/apply triple delegating to rules.lua), setup,
-- victory and hooks. It holds no rule numbers (data.lua) and no map maths (galaxy.lua).
--
-- Example: in the space segment `{ id = "jump", side = "hegemony", ships = {1, 2}, to = "marrow" }`
-- jumps two warships from Vessa Prime to Marrow (distance 2, rating 4: the leftmost column).

local data = require("data")
local G = require("galaxy")
local R = require("rules")
local bot = require("bot")

-- How the editor draws a unit: its letters, navigation or combat along the bottom, and markers
-- for damage, what it carries and where it moved.
local LABELS = { warship = "WS", transport = "TP", courier = "CS", trooper = "GU", character = "CH" }
local function counter(_ctx, p)
  local v, s = p.values, p.stats
  local markers = {}
  if v.damaged then markers[#markers + 1] = "damaged" end
  if (v.aboard or 0) ~= 0 then markers[#markers + 1] = "aboard" end
  if v.moved and v.moved ~= "" then markers[#markers + 1] = "moved" end
  -- Navigation, combat, troops and crew, where the type has them (a character's own numbers
  -- are in its values).
  local parts = {}
  local nav = s.navigation or ((v.navigation or 0) > 0 and v.navigation) or nil
  if nav then parts[#parts + 1] = "n" .. nav end
  if (s.combat or 0) ~= 0 then parts[#parts + 1] = "c" .. s.combat end
  if (s.troops or 0) > 0 then parts[#parts + 1] = "t" .. s.troops end
  if (s.crew or 0) > 0 then parts[#parts + 1] = "cr" .. s.crew end
  if (v.leadership or 0) > 0 then parts[#parts + 1] = "l" .. v.leadership end
  local factors = table.concat(parts, " ")
  if factors == "" then factors = "-" end
  return {
    label = LABELS[p.type] or p.type:sub(1, 2):upper(),
    factors = factors,
    markers = markers,
  }
end

for _, t in ipairs(data.piece_types) do
  local decl = { id = t.id, counter = counter }
  for k, v in pairs(t) do decl[k] = v end
  game.piece_type(decl)
end

game.table {
  id = data.hyperjump.id,
  rows = data.hyperjump.rows,
  columns = data.hyperjump.columns,
  row_policy = data.hyperjump.row_policy,
  column_policy = data.hyperjump.column_policy,
  cells = data.hyperjump.cells,
  roll = data.jump_dice,           -- the editor's tables panel shows each cell's exact odds
}

-- T1: a player turn is three segments; the scenario sets the side order and the turn limit.
game.turns {
  order = "fixed",
  phases = {
    { id = "space" },
    { id = "planet" },
    { id = "combat" },
  },
  turn_limit = 8,
}

-- Check adaptor: rules.lua returns a reason or nil; the API wants true | false, reason.
local function verdict(why)
  if why then return false, why end
  return true
end

local function unmoved_own(ctx, side, classes)
  local key, out = R.segment_key(ctx), {}
  for _, p in ipairs(R.all(ctx)) do
    if p.owner == side and classes[R.class(ctx, p)] and p.values.moved ~= key then out[#out + 1] = p end
  end
  return out
end

---------------------------------------------------------------------------------------------
-- Space segment
---------------------------------------------------------------------------------------------
game.action {
  id = "impulse",
  phases = { "space" },
  params = { piece = "piece", to = "node" },
  choices = function(ctx, side)
    ctx = R.memo(ctx)
    local g, out = R.graph(ctx), {}
    for _, p in ipairs(unmoved_own(ctx, side, { starship = true, courier = true })) do
      local loc = R.where(p)
      local sys = loc and G.system_of(g, loc)
      if sys then
        for _, planet in ipairs(G.planets(g, sys)) do
          if R.check_impulse(ctx, side, p.id, planet) == nil then
            out[#out + 1] = { piece = p.id, to = planet }
          end
        end
      end
    end
    return out
  end,
  check = function(ctx, a) return verdict(R.check_impulse(R.memo(ctx), a.side, a.piece, a.to)) end,
  apply = function(ctx, a) R.apply_impulse(ctx, a.side, a.piece, a.to) end,
}

-- The jumping groups a side could name: each ship alone, and all unmoved starships of a box
-- together (a joint jump). Destinations: every planet (checks drop the illegal ones).
local function jump_choices(ctx, side, checker)
  local g, out, groups, boxes = R.graph(ctx), {}, {}, {}
  for _, p in ipairs(unmoved_own(ctx, side, { starship = true, courier = true })) do
    if (p.values.aboard or 0) == 0 then
      groups[#groups + 1] = { p.id }
      if R.class(ctx, p) == "starship" then
        local loc, slot = R.where(p)
        local key = tostring(loc) .. "/" .. tostring(slot)
        if not boxes[key] then boxes[key] = {} boxes[#boxes + 1] = key end
        table.insert(boxes[key], p.id)
      end
    end
  end
  for _, key in ipairs(boxes) do
    if #boxes[key] > 1 then groups[#groups + 1] = boxes[key] end
  end
  local planets = G.ids_of_kind(g, data.kinds.planet)
  for _, ships in ipairs(groups) do
    for _, planet in ipairs(planets) do
      if checker(ctx, side, ships, planet) == nil then out[#out + 1] = { ships = ships, to = planet } end
    end
  end
  return out
end

game.action {
  id = "jump",
  phases = { "space" },
  params = { ships = "any", to = "node" },
  choices = function(ctx, side) return jump_choices(R.memo(ctx), side, R.check_jump) end,
  check = function(ctx, a) return verdict(R.check_jump(R.memo(ctx), a.side, a.ships, a.to)) end,
  label = function(ctx, a) return R.jump_label(R.memo(ctx), a.side, a.ships, a.to, false) end,
  apply = function(ctx, a)
    local plan = R.jump_plan(ctx, a.side, a.ships, a.to, false)
    R.resolve_jump(ctx, plan, a.ships)
  end,
}

---------------------------------------------------------------------------------------------
-- Planet segment
---------------------------------------------------------------------------------------------
game.action {
  id = "land",
  phases = { "planet" },
  params = { piece = "piece", to = "box" },
  choices = function(ctx, side)
    ctx = R.memo(ctx)
    local g, out = R.graph(ctx), {}
    for _, p in ipairs(unmoved_own(ctx, side, { ground = true, character = true, courier = true })) do
      local loc, slot = R.where(p)
      -- Units land from aboard a ship; a character spaceship lands itself.
      local aboard = (p.values.aboard or 0) ~= 0
      if aboard ~= (R.class(ctx, p) == "courier") and slot == data.slots.orbit then
        for _, e in ipairs(G.environs(g, loc)) do
          if R.check_land(ctx, side, p.id, e.id) == nil then out[#out + 1] = { piece = p.id, to = e.id } end
        end
      end
    end
    return out
  end,
  check = function(ctx, a) return verdict(R.check_land(R.memo(ctx), a.side, a.piece, a.to)) end,
  apply = function(ctx, a) R.apply_land(ctx, a.side, a.piece, a.to) end,
}

game.action {
  id = "take_off",
  phases = { "planet" },
  params = { piece = "piece" },
  choices = function(ctx, side)
    ctx = R.memo(ctx)
    local out = {}
    for _, p in ipairs(unmoved_own(ctx, side, { courier = true })) do
      if R.check_take_off(ctx, side, p.id) == nil then out[#out + 1] = { piece = p.id } end
    end
    return out
  end,
  check = function(ctx, a) return verdict(R.check_take_off(R.memo(ctx), a.side, a.piece)) end,
  apply = function(ctx, a) R.apply_take_off(ctx, a.side, a.piece) end,
}

game.action {
  id = "lift",
  phases = { "planet" },
  params = { piece = "piece", carrier = "piece" },
  choices = function(ctx, side)
    ctx = R.memo(ctx)
    local out = {}
    for _, p in ipairs(unmoved_own(ctx, side, { ground = true, character = true })) do
      local loc, slot = R.where(p)
      if (p.values.aboard or 0) == 0 and slot ~= data.slots.orbit and not R.is_drift(slot) then
        for _, c in ipairs(R.at(ctx, loc, data.slots.orbit, side)) do
          if R.check_lift(ctx, side, p.id, c.id) == nil then out[#out + 1] = { piece = p.id, carrier = c.id } end
        end
      end
    end
    return out
  end,
  check = function(ctx, a) return verdict(R.check_lift(R.memo(ctx), a.side, a.piece, a.carrier)) end,
  apply = function(ctx, a) R.apply_lift(ctx, a.side, a.piece, a.carrier) end,
}

game.action {
  id = "march",
  phases = { "planet" },
  params = { piece = "piece", to = "box" },
  choices = function(ctx, side)
    ctx = R.memo(ctx)
    local g, out = R.graph(ctx), {}
    for _, p in ipairs(unmoved_own(ctx, side, { ground = true, character = true })) do
      local loc, slot = R.where(p)
      if (p.values.aboard or 0) == 0 and slot ~= data.slots.orbit and not R.is_drift(slot) then
        for _, e in ipairs(G.environs(g, loc)) do
          if R.check_march(ctx, side, p.id, e.id) == nil then out[#out + 1] = { piece = p.id, to = e.id } end
        end
      end
    end
    return out
  end,
  check = function(ctx, a) return verdict(R.check_march(R.memo(ctx), a.side, a.piece, a.to)) end,
  apply = function(ctx, a) R.apply_march(ctx, a.side, a.piece, a.to) end,
}

game.action {
  id = "restack",
  phases = { "space", "planet" },
  params = { piece = "piece", stack = "string" },
  choices = function(ctx, side)
    ctx = R.memo(ctx)
    local out = {}
    for _, p in ipairs(R.all(ctx)) do
      if p.owner == side then
        for _, s in ipairs({ data.stacks.military, data.stacks.characters }) do
          if R.check_restack(ctx, side, p.id, s) == nil then out[#out + 1] = { piece = p.id, stack = s } end
        end
      end
    end
    return out
  end,
  check = function(ctx, a) return verdict(R.check_restack(R.memo(ctx), a.side, a.piece, a.stack)) end,
  apply = function(ctx, a)
    ctx:set(a.piece, "stack", a.stack)
    ctx:log(("piece %d joins the %s stack"):format(a.piece, a.stack))
  end,
}

---------------------------------------------------------------------------------------------
-- Combat segment
---------------------------------------------------------------------------------------------
game.action {
  id = "attack",
  phases = { "combat" },
  params = { location = "node", slot = "box" },
  choices = function(ctx, side)
    ctx = R.memo(ctx)
    local seen, out = {}, {}
    for _, p in ipairs(R.all(ctx)) do
      if p.owner == side and (p.values.aboard or 0) == 0 then
        local loc, slot = R.where(p)
        local key = tostring(loc) .. "/" .. tostring(slot)
        if loc and not seen[key] then
          seen[key] = true
          if R.check_attack(ctx, side, loc, slot) == nil then out[#out + 1] = { location = loc, slot = slot } end
        end
      end
    end
    return out
  end,
  check = function(ctx, a) return verdict(R.check_attack(R.memo(ctx), a.side, a.location, a.slot)) end,
  label = function(ctx, a) return R.attack_label(R.memo(ctx), a.side, a.location, a.slot) end,
  apply = function(ctx, a) R.apply_attack(ctx, a.side, a.location, a.slot) end,
}

game.action {
  id = "break_off",
  phases = { "combat" },
  params = { ships = "any", to = "node" },
  choices = function(ctx, side) return jump_choices(R.memo(ctx), side, R.check_break_off) end,
  check = function(ctx, a) return verdict(R.check_break_off(R.memo(ctx), a.side, a.ships, a.to)) end,
  label = function(ctx, a) return R.jump_label(R.memo(ctx), a.side, a.ships, a.to, true) end,
  apply = function(ctx, a)
    local plan = R.jump_plan(ctx, a.side, a.ships, a.to, true)
    R.resolve_jump(ctx, plan, a.ships)
  end,
}

-- I1, H8, H9: a ship that begins its move in a drift area must leave it: from Drift 1 by impulse
-- to a planet of its system or by hyperjump, from Drift 2 by hyperjump. The side's ships that
-- still must and can (a courier without a pilot cannot, I4).
local function stranded(ctx, side)
  local g, out = R.graph(ctx), {}
  local planets = G.ids_of_kind(g, data.kinds.planet)
  for _, p in ipairs(unmoved_own(ctx, side, { starship = true, courier = true })) do
    local loc, slot = R.where(p)
    if (p.values.aboard or 0) == 0 and R.is_drift(slot) then
      local can = false
      if slot == data.slots.drift1 then
        for _, planet in ipairs(G.planets(g, G.system_of(g, loc))) do
          can = can or R.check_impulse(ctx, side, p.id, planet) == nil
        end
      end
      for _, planet in ipairs(planets) do
        can = can or R.check_jump(ctx, side, { p.id }, planet) == nil
      end
      if can then out[#out + 1] = p.id end
    end
  end
  return out
end

-- S3: a segment cannot end with more than two stacks of the side in a box; and no space segment
-- ends with a ship left in a drift area it could leave.
game.action {
  id = "end_phase",
  check = function(ctx, a)
    ctx = R.memo(ctx)
    local over = R.overstacked(ctx, a.side)
    if #over > 0 then
      return false, ("more than %d stacks in %s: rearrange them first"):format(data.max_stacks, table.concat(over, ", "))
    end
    if ctx.phase == "space" then
      local left = stranded(ctx, a.side)
      if #left > 0 then
        return false, ("ship %d is in a drift area: it must move by impulse to a planet of its system (Drift 1 only) or hyperjump"):format(left[1])
      end
    end
    return true
  end,
}

---------------------------------------------------------------------------------------------
-- Setup, victory, hooks
---------------------------------------------------------------------------------------------

-- S5: units the scenario puts in an orbit box go aboard: ground units into transports with room,
-- characters into the courier (or, with values.board = "warship", a warship), in file order.
game.setup(function(ctx)
  for _, p in ipairs(R.all(ctx)) do
    local loc, slot = R.where(p)
    local class = R.class(ctx, p)
    if slot == data.slots.orbit and (class == "ground" or class == "character") then
      local want = p.values.board
      if (want == nil or want == "") and class == "character" then want = "courier" end
      local placed = false
      for _, c in ipairs(R.at(ctx, loc, slot, p.owner)) do
        local cc = R.class(ctx, c)
        local fits = R.is_ship(cc) and (want == nil or want == "" or c.type == want)
          and (c.values.aboard or 0) == 0
        if not placed and fits and R.room_aboard(ctx, c, p) == nil then
          R.embark(ctx, p, c)
          placed = true
        end
      end
      if not placed then error(("setup: no room aboard for %s %d at %s"):format(p.type, p.id, loc)) end
    elseif loc then
      ctx:set(p.id, "stack", R.basic_stack(class))
    end
  end
end)

game.victory(function(ctx) return R.sudden_death(R.memo(ctx)) end)

-- The search bot's heuristic (`--bots mcts`, docs/API.md section 2.10b): how the game stands
-- for `side`, from 0 (lost) to 1 (won). Half its share of the target planets held (V1; one
-- added to every side so that none held is even), half its share of the ground units (a side
-- without any loses at once).
game.evaluate = function(ctx, side)
  local m = R.memo(ctx)
  local _, held = R.holdings(m)
  local my_held, all_held, sides = 0, 0, 0
  for _, s in ipairs(m:sides()) do
    local n = held[s.id] or 0
    all_held, sides = all_held + n, sides + 1
    if s.id == side then my_held = n end
  end
  local my_ground, all_ground = 0, 0
  for _, p in ipairs(R.all(m)) do
    if R.class(m, p) == "ground" then
      all_ground = all_ground + 1
      if p.owner == side then my_ground = my_ground + 1 end
    end
  end
  local planets = (my_held + 1) / (all_held + sides)
  local ground = all_ground > 0 and my_ground / all_ground or 0.5
  return (planets + ground) / 2
end

-- The greedy bot (bot.lua): `hexforge play mods/hyperjump-galaxy --bots accord=greedy,hegemony=random`,
-- and the search bot's guide (`--bots mcts:iters=50:guide=greedy`).
game.bots.greedy = bot.greedy

game.on("turn_limit", function(ctx) ctx:end_game(R.final_outcome(ctx)) end)

-- The planner bot (planner.lua): greedy with one fleet, landings that outnumber or contest and
-- a last round played for the count; the stronger guide (`--bots mcts:guide=planner:trust=3`).
game.bots.planner = require("planner").planner
