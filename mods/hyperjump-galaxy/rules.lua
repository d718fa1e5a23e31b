-- rules.lua: the game's rules over ctx (checks return a reason string, or nil when legal;
-- appliers change the state through ctx only).
--
-- It does not declare anything (main.lua does) and holds no numbers (data.lua does). Star-map
-- and table maths are in galaxy.lua. Every check is a pure read, so `choices` can reuse it.
--
-- Example: `R.check_impulse(ctx, "hegemony", 1, "rime")` is nil when warship 1 may move there,
-- or a reason such as "a ship in a Drift 2 box must hyperjump".

local data = require("data")
local G = require("galaxy")

---@class HyperjumpRules
local R = {}

local SLOT = data.slots

---What R.memo keeps for one read-only proxy.
---@class ReadMemo
---@field graph? table the normalised star map (G.normalize)
---@field all? Piece[] every piece, by id
---@field by_id? table<integer, Piece|nil>

-- Read-only memo over ctx for callbacks that only read (choices, end-of-segment checks): the
-- map and the piece list are fetched from the engine once per call instead of once per check.
-- Why: choices run every check for every candidate; without this a bot game spends most of its
-- time copying the same state into Lua.
---@type table<table, ReadMemo|nil>
local memo_of = setmetatable({}, { __mode = "k" })

function R.memo(ctx)
  local proxy = setmetatable({}, {
    __index = function(_, k)
      local v = ctx[k]
      if type(v) == "function" then return function(_, ...) return v(ctx, ...) end end
      return v
    end,
  })
  memo_of[proxy] = {}
  return proxy
end

-- The normalised star map of this game.
function R.graph(ctx)
  local m = memo_of[ctx]
  if m then
    if not m.graph then m.graph = G.normalize(ctx:graph(data.graph)) end
    return m.graph
  end
  return G.normalize(ctx:graph(data.graph))
end

-- Where a piece is: location (node id) and slot (box), or nil off the map.
function R.where(p)
  local pos = p.position
  if type(pos) ~= "table" then return nil end
  if pos.location then return pos.location, pos.slot end
  if pos.node then return pos.node.location, pos.node.slot end
  return nil
end

-- The piece's class: "starship", "courier", "ground" or "character".
function R.class(ctx, p)
  if p.stats and p.stats.class then return p.stats.class end
  return ctx:type(p.type).stats.class
end

local function stat(ctx, p, key)
  if p.stats and p.stats[key] ~= nil then return p.stats[key] end
  return ctx:type(p.type).stats[key]
end
R.stat = stat

-- A key naming the current segment; a unit whose `moved` value equals it has moved in it (T2).
function R.segment_key(ctx)
  return ("%s/%s/%s/%s"):format(ctx.round, ctx.segment or 1, ctx.active or "-", ctx.phase)
end

local function is_ship(class) return class == "starship" or class == "courier" end
R.is_ship = is_ship

local function is_space_slot(slot)
  return slot == SLOT.orbit or slot == SLOT.drift1 or slot == SLOT.drift2
end

local function is_drift(slot) return slot == SLOT.drift1 or slot == SLOT.drift2 end
R.is_drift = is_drift

-- Every piece, sorted by id (callers must not change the list).
function R.all(ctx)
  local m = memo_of[ctx]
  if m and m.all then return m.all end
  local out = ctx:pieces {}
  table.sort(out, function(a, b) return a.id < b.id end)
  if m then
    m.all, m.by_id = out, {}
    for _, p in ipairs(out) do m.by_id[p.id] = p end
  end
  return out
end

-- One piece snapshot (memoised like R.all).
function R.piece(ctx, id)
  local m = memo_of[ctx]
  if m then
    R.all(ctx)
    local by_id = assert(m.by_id, "R.all filled the memo")
    return by_id[id]
  end
  return ctx:piece(id)
end

-- Pieces in a box (not aboard), optionally of one owner and class.
function R.at(ctx, loc, slot, owner, class)
  local out = {}
  for _, p in ipairs(R.all(ctx)) do
    local l, s = R.where(p)
    if l == loc and s == slot and (p.values.aboard or 0) == 0
      and (owner == nil or p.owner == owner)
      and (class == nil or R.class(ctx, p) == class) then
      out[#out + 1] = p
    end
  end
  return out
end

-- Pieces aboard a ship.
function R.cargo(ctx, ship)
  local out = {}
  for _, p in ipairs(R.all(ctx)) do
    if (p.values.aboard or 0) == ship then out[#out + 1] = p end
  end
  return out
end

-- The navigation rating of a ship (H3): starships their type's; a courier its pilot's (the best
-- rating aboard), nil without a pilot.
function R.rating(ctx, p)
  if R.class(ctx, p) == "starship" then return stat(ctx, p, "navigation") end
  local best
  for _, c in ipairs(R.cargo(ctx, p.id)) do
    if R.class(ctx, c) == "character" then
      local n = c.values.navigation or 0
      if best == nil or n > best then best = n end
    end
  end
  return best
end

-- Stack labels a side has in a box (S3), sorted.
function R.stacks(ctx, side, loc, slot)
  local set, out = {}, {}
  for _, p in ipairs(R.at(ctx, loc, slot, side)) do
    local s = p.values.stack or ""
    if not set[s] then set[s] = true out[#out + 1] = s end
  end
  table.sort(out)
  return out
end

-- The stack an arriving unit joins: its side's matching basic stack.
local function basic_stack(class)
  if class == "ground" or class == "starship" then return data.stacks.military end
  return data.stacks.characters
end
R.basic_stack = basic_stack

-- Move a unit (and everything aboard it) into a box; it joins its basic stack there.
function R.relocate(ctx, p, loc, slot)
  ctx:place(p.id, { location = loc, slot = slot })
  ctx:set(p.id, "aboard", 0)
  ctx:set(p.id, "stack", basic_stack(R.class(ctx, p)))
  for _, c in ipairs(R.cargo(ctx, p.id)) do
    ctx:place(c.id, { location = loc, slot = slot })
  end
end

-- Put a unit aboard a ship (it leaves every stack).
function R.embark(ctx, p, ship)
  local loc, slot = R.where(ship)
  ctx:place(p.id, { location = loc, slot = slot })
  ctx:set(p.id, "aboard", ship.id)
  ctx:set(p.id, "stack", "")
end

-- Remove a unit and everything aboard it.
function R.eliminate(ctx, p)
  for _, c in ipairs(R.cargo(ctx, p.id)) do ctx:destroy(c.id) end
  ctx:destroy(p.id)
end

-- Damage a ship: a second damage eliminates it.
function R.damage(ctx, p)
  if p.values.damaged then
    R.eliminate(ctx, p)
    return "eliminated"
  end
  ctx:set(p.id, "damaged", true)
  return "damaged"
end

-- Ground units of a side in an environ (S1).
function R.ground_in(ctx, side, planet, env)
  return #R.at(ctx, planet, env, side, "ground")
end

-- A roll's total (the runtime may return an integer or a detail table).
function R.roll(ctx, dice, label)
  local r = ctx:roll(dice, label)
  if type(r) == "table" then return r.total end
  return r
end

-- A table cell id (the runtime may return a string or a table with an id).
local function cell_id(c)
  if type(c) == "table" then return c.id or c[1] end
  return c
end

local function own(ctx, side, id)
  if type(id) ~= "number" then return nil, "name a piece by its number" end
  local p = R.piece(ctx, id)
  if not p then return nil, ("there is no piece %s"):format(tostring(id)) end
  if p.owner ~= side then return nil, ("piece %d is not yours"):format(id) end
  return p
end
R.own = own

local function moved(ctx, p)
  return p.values.moved == R.segment_key(ctx)
end

---------------------------------------------------------------------------------------------
-- Impulse movement (I1-I4)
---------------------------------------------------------------------------------------------

function R.check_impulse(ctx, side, id, to)
  local p, why = own(ctx, side, id)
  if not p then return why end
  local class = R.class(ctx, p)
  if not is_ship(class) then return "only ships move by impulse" end
  if (p.values.aboard or 0) ~= 0 then return "a ship aboard another ship cannot move" end
  if moved(ctx, p) then return ("piece %d has already moved this segment"):format(id) end
  local loc, slot = R.where(p)
  if slot == SLOT.drift2 then return "a ship in a Drift 2 box must hyperjump" end
  if slot ~= SLOT.orbit and slot ~= SLOT.drift1 then return "the ship is not in space" end
  local g = R.graph(ctx)
  local n = g.nodes[to]
  if type(to) ~= "string" or not n or n.kind ~= data.kinds.planet then
    return "the destination must be a planet"
  end
  local here = G.system_of(g, loc)
  if G.system_of(g, to) ~= here then
    return "impulse movement stays inside the system: hyperjump to reach another system"
  end
  if slot == SLOT.orbit and to == loc then return "the ship is already in that orbit box" end
  if class == "courier" and R.rating(ctx, p) == nil then
    return "a character spaceship needs a character aboard to move"
  end
  return nil
end

function R.apply_impulse(ctx, _side, id, to)
  local p = ctx:piece(id)
  R.relocate(ctx, p, to, SLOT.orbit)
  ctx:set(id, "moved", R.segment_key(ctx))
  ctx:log(("%s %d moves by impulse to the orbit of %s"):format(p.type, id, to))
end

---------------------------------------------------------------------------------------------
-- Hyperjumps (H1-H10)
---------------------------------------------------------------------------------------------

-- Everything about a proposed jump, or nil and the reason it is illegal.
-- plan = { from, slot, from_system, to, to_system, route, stars, drift_penalty, joint_penalty,
--          leader, ships, distance, rating, diff, emergency }
function R.jump_plan(ctx, side, ships, to, emergency)
  if type(ships) ~= "table" or #ships == 0 then return nil, "name the ships that jump" end
  local loc, slot, starships, seen = nil, nil, 0, {}
  local first
  for i, id in ipairs(ships) do
    local p, why = own(ctx, side, id)
    if not p then return nil, why end
    if seen[id] then return nil, ("piece %d is named twice"):format(id) end
    seen[id] = true
    local class = R.class(ctx, p)
    if not is_ship(class) then return nil, "only ships hyperjump" end
    if (p.values.aboard or 0) ~= 0 then return nil, "a ship aboard another ship cannot jump" end
    if moved(ctx, p) then return nil, ("piece %d has already moved this segment"):format(id) end
    if class == "starship" then starships = starships + 1 end
    local l, s = R.where(p)
    if i == 1 then
      loc, slot, first = l, s, p
    elseif l ~= loc or s ~= slot then
      return nil, "the ships of a joint hyperjump must be in one box"
    end
  end
  if #ships > 1 and starships < #ships then
    return nil, "only military starships may jump as a stack"
  end
  if not is_space_slot(slot) then return nil, "ships jump from an orbit box or a drift area" end
  local g = R.graph(ctx)
  local n = type(to) == "string" and g.nodes[to] or nil
  if not n or n.kind ~= data.kinds.planet then return nil, "the destination must be a planet" end
  local from_system, to_system = G.system_of(g, loc), G.system_of(g, to)
  local rating = R.rating(ctx, first)
  if rating == nil then return nil, "a character spaceship needs a character aboard to jump" end
  local plan = {
    from = loc, slot = slot, from_system = from_system, to = to, to_system = to_system,
    ships = #ships, rating = rating, emergency = emergency and true or false,
    drift_penalty = 0, joint_penalty = 0, leader = 0,
  }
  if to_system == from_system then
    if slot ~= SLOT.drift2 then
      return nil, "use impulse movement inside a system (only a Drift 2 box jumps back in)"
    end
    plan.route, plan.stars = {}, data.drift2_same_system_distance
  else
    -- The engine's shortest route (ties: alphabetically first), start excluded: #route stars.
    local full = ctx:graph_route(data.graph, from_system, to_system)
    if not full then return nil, "no route joins those stars" end
    local route = { table.unpack(full, 2) }
    plan.route, plan.stars = route, #route
    if slot == SLOT.drift2 then
      plan.drift_penalty = data.drift2_penalty
    elseif slot == SLOT.drift1 then
      plan.drift_penalty = data.drift1_penalty
    end
  end
  if #ships > 1 then
    for _, id in ipairs(ships) do
      for _, c in ipairs(R.cargo(ctx, id)) do
        local l = c.values.leadership or 0
        if R.class(ctx, c) == "character" and l > plan.leader then plan.leader = l end
      end
    end
    plan.joint_penalty = G.joint_penalty(#ships, plan.leader)
  end
  plan.distance = plan.stars + plan.drift_penalty + plan.joint_penalty
  plan.diff = plan.distance - rating
  return plan
end

-- A jump in words before it is rolled: "jump 2 ships to rime: distance 4, rating 2: safe 58%,
-- disaster 3%"; on the map "safe 58%". Nil when the jump is not legal.
function R.jump_label(ctx, side, ships, to, emergency)
  local plan = R.jump_plan(ctx, side, ships, to, emergency)
  if not plan then return nil end
  local odds = {}
  for _, o in ipairs(G.odds(plan.diff, emergency)) do odds[o.result] = o.in36 end
  local pct = function(id) return ((odds[id] or 0) * 100 + 18) // 36 end
  local what = #ships == 1 and ("ship " .. ships[1]) or (#ships .. " ships")
  return {
    text = ("%s %s to %s: distance %d, rating %d: safe %d%%, disaster %d%%"):format(
      emergency and "break off:" or "jump", what, to, plan.distance, plan.rating, pct("safe"), pct("disaster")),
    short = ("safe %d%%"):format(pct("safe")),
  }
end

function R.check_jump(ctx, side, ships, to)
  local plan, why = R.jump_plan(ctx, side, ships, to, false)
  if not plan then return why end
  return nil
end

-- Ships of a side in an orbit box that holds enemy starships (breaking off is possible there).
local function in_combat(ctx, side, loc, slot)
  if slot ~= SLOT.orbit then return false end
  for _, e in ipairs(R.at(ctx, loc, slot, nil, "starship")) do
    if e.owner ~= side then return true end
  end
  return false
end

function R.check_break_off(ctx, side, ships, to)
  local plan, why = R.jump_plan(ctx, side, ships, to, true)
  if not plan then return why end
  if not in_combat(ctx, side, plan.from, plan.slot) then
    return "an emergency hyperjump breaks off from combat: no enemy starships in this orbit box"
  end
  return nil
end

-- Pick `k` of `list` by die rolls (one die per pick, sides = pieces left), in list order.
---@param ctx Ctx
---@param list Piece[]
---@param k integer
---@param label string
---@return Piece[] picked
---@return Piece[] left
local function pick(ctx, list, k, label)
  local left, out = {}, {} ---@type Piece[], Piece[]
  for i, p in ipairs(list) do left[i] = p end
  for _ = 1, k do
    if #left == 0 then break end
    local i = 1
    if #left > 1 then i = R.roll(ctx, "1d" .. #left, label) end
    out[#out + 1] = table.remove(left, i)
  end
  return out, left
end

-- Roll and carry out a planned jump (H4, H6, H7).
function R.resolve_jump(ctx, plan, ships)
  local total = R.roll(ctx, data.jump_dice, "hyperjump")
  -- The column and the roll modifier (H4) are worked out here and the engine table is read
  -- inside its printed columns, so the result never depends on a lookup policy beyond them.
  local column, modifier = data.emergency_column, 0
  if not plan.emergency then
    local _
    _, _, modifier = G.column(plan.rating, plan.distance)
    column = math.max(-1, math.min(plan.diff, data.emergency_column))
  end
  local cell = ctx:lookup(data.hyperjump.id, total + modifier, column)
  local res = cell_id(cell)
  plan.roll, plan.roll_modifier, plan.result = total, modifier, res
  local effect = data.results[res]
  local list = {}
  for _, id in ipairs(ships) do list[#list + 1] = ctx:piece(id) end
  table.sort(list, function(a, b) return a.id < b.id end)
  ctx:log(("hyperjump %s -> %s: %d stars via %s, distance %d, rating %d, %s, roll %d: %s"):format(
    plan.from_system, plan.to_system, plan.stars, table.concat(plan.route, ","), plan.distance,
    plan.rating, plan.emergency and "emergency column 5" or ("column " .. G.column(plan.rating, plan.distance)),
    total + modifier, res))
  local survivors = list
  if effect.eliminate then
    local k = (#list * effect.eliminate[1] + effect.eliminate[2] - 1) // effect.eliminate[2]
    local lost
    lost, survivors = pick(ctx, list, k, "disaster losses")
    for _, p in ipairs(lost) do
      ctx:log(("%s %d is lost in hyperspace"):format(p.type, p.id))
      R.eliminate(ctx, p)
    end
  end
  if effect.damage and #survivors > 0 then
    local hit = assert(pick(ctx, survivors, 1, "damaged ship")[1], "one of the survivors is picked")
    if R.damage(ctx, hit) == "eliminated" then
      ctx:log(("%s %d, already damaged, is lost"):format(hit.type, hit.id))
      local keep = {}
      for _, p in ipairs(survivors) do if p.id ~= hit.id then keep[#keep + 1] = p end end
      survivors = keep
    else
      ctx:log(("%s %d is damaged"):format(hit.type, hit.id))
    end
  end
  local loc, slot = plan.to, SLOT.orbit
  if effect.to ~= "orbit" then loc, slot = plan.to_system, SLOT[effect.to] end
  local key = R.segment_key(ctx)
  for _, p in ipairs(survivors) do
    R.relocate(ctx, ctx:piece(p.id), loc, slot)
    ctx:set(p.id, "moved", key)
  end
  return res
end

---------------------------------------------------------------------------------------------
-- Landing, lifting off, marching (S1, S2, S5)
---------------------------------------------------------------------------------------------

local function lands(class) return class == "ground" or class == "character" or class == "courier" end

-- Can a side's unit enter an environ (S1)? Returns a reason or nil.
local function room_in_environ(ctx, side, p, planet, env)
  local e = G.environ(R.graph(ctx), planet, env)
  if not e then return ("%s has no environ %s"):format(planet, tostring(env)) end
  if R.class(ctx, p) == "ground" and R.ground_in(ctx, side, planet, env) >= e.size then
    return ("environ %s of %s is full (size %d)"):format(env, planet, e.size)
  end
  return nil
end

function R.check_land(ctx, side, id, env)
  local p, why = own(ctx, side, id)
  if not p then return why end
  local class = R.class(ctx, p)
  if not lands(class) then return "only ground units, characters and character spaceships land" end
  -- A character spaceship lands itself, with the characters aboard; the others land from one.
  if class ~= "courier" and (p.values.aboard or 0) == 0 then return "the unit is not aboard a ship" end
  if moved(ctx, p) then return ("piece %d has already moved this segment"):format(id) end
  local loc, slot = R.where(p)
  if slot ~= SLOT.orbit then return "units land only from an orbit box" end
  return room_in_environ(ctx, side, p, loc, env)
end

--- Can a side's landed character spaceship take off to its planet's orbit box? nil or a reason.
function R.check_take_off(ctx, side, id)
  local p, why = own(ctx, side, id)
  if not p then return why end
  if R.class(ctx, p) ~= "courier" then return "only character spaceships take off" end
  if moved(ctx, p) then return ("piece %d has already moved this segment"):format(id) end
  local _, slot = R.where(p)
  if is_space_slot(slot) then return ("piece %d is not in an environ"):format(id) end
  return nil
end

function R.apply_take_off(ctx, _side, id)
  local p = ctx:piece(id)
  local loc = R.where(p)
  R.relocate(ctx, p, loc, SLOT.orbit)
  ctx:set(id, "moved", R.segment_key(ctx))
  ctx:log(("%s %d takes off to the orbit box of %s"):format(p.type, id, loc))
end

function R.apply_land(ctx, _side, id, env)
  local p = ctx:piece(id)
  local loc = R.where(p)
  R.relocate(ctx, p, loc, env)
  ctx:set(id, "moved", R.segment_key(ctx))
  ctx:log(("%s %d lands in %s of %s"):format(p.type, id, env, loc))
end

-- Room aboard a ship for a unit: nil or a reason.
local function room_aboard(ctx, ship, p)
  local class = R.class(ctx, p)
  local cargo = R.cargo(ctx, ship.id)
  if class == "ground" then
    local cap, n = stat(ctx, ship, "troops") or 0, 0
    if cap == 0 then return "only transports carry ground units" end
    for _, c in ipairs(cargo) do if R.class(ctx, c) == "ground" then n = n + 1 end end
    if n >= cap then return ("transport %d is full (%d ground units)"):format(ship.id, cap) end
  else
    local cap, n = stat(ctx, ship, "crew") or 0, 0
    if cap == 0 then return ("%s %d carries no characters"):format(ship.type, ship.id) end
    for _, c in ipairs(cargo) do if R.class(ctx, c) == "character" then n = n + 1 end end
    if cap > 0 and n >= cap then return ("%s %d is full (%d characters)"):format(ship.type, ship.id, cap) end
  end
  return nil
end
R.room_aboard = room_aboard

function R.check_lift(ctx, side, id, carrier)
  local p, why = own(ctx, side, id)
  if not p then return why end
  if not lands(R.class(ctx, p)) then return "only ground units and characters lift off" end
  if (p.values.aboard or 0) ~= 0 then return "the unit is already aboard a ship" end
  if moved(ctx, p) then return ("piece %d has already moved this segment"):format(id) end
  local loc, slot = R.where(p)
  if slot == SLOT.orbit or is_drift(slot) then return "the unit is not in an environ" end
  local c, why2 = own(ctx, side, carrier)
  if not c then return why2 end
  if not is_ship(R.class(ctx, c)) or (c.values.aboard or 0) ~= 0 then
    return "units lift off aboard a ship"
  end
  local cl, cs = R.where(c)
  if cl ~= loc or cs ~= SLOT.orbit then return "the ship is not in this planet's orbit box" end
  return room_aboard(ctx, c, p)
end

function R.apply_lift(ctx, _side, id, carrier)
  local p, c = ctx:piece(id), ctx:piece(carrier)
  R.embark(ctx, p, c)
  ctx:set(id, "moved", R.segment_key(ctx))
  ctx:log(("%s %d lifts off aboard %s %d"):format(p.type, id, c.type, carrier))
end

function R.check_march(ctx, side, id, env)
  local p, why = own(ctx, side, id)
  if not p then return why end
  if not lands(R.class(ctx, p)) then return "only ground units and characters march" end
  if (p.values.aboard or 0) ~= 0 then return "the unit is aboard a ship" end
  if moved(ctx, p) then return ("piece %d has already moved this segment"):format(id) end
  local loc, slot = R.where(p)
  if slot == SLOT.orbit or is_drift(slot) then return "the unit is not in an environ" end
  if env == slot then return "the unit is already there" end
  return room_in_environ(ctx, side, p, loc, env)
end

function R.apply_march(ctx, _side, id, env)
  local p = ctx:piece(id)
  local loc = R.where(p)
  R.relocate(ctx, p, loc, env)
  ctx:set(id, "moved", R.segment_key(ctx))
  ctx:log(("%s %d marches to %s of %s"):format(p.type, id, env, loc))
end

---------------------------------------------------------------------------------------------
-- Stacks (S3, S4)
---------------------------------------------------------------------------------------------

-- Which class rearranges in which segment: units may restack when they could move.
local RESTACK_PHASE = { courier = "space", character = "planet" }

function R.check_restack(ctx, side, id, stack)
  local p, why = own(ctx, side, id)
  if not p then return why end
  local class = R.class(ctx, p)
  if RESTACK_PHASE[class] == nil then
    return "only characters and character spaceships change stacks"
  end
  if RESTACK_PHASE[class] ~= ctx.phase then
    return ("a %s changes stacks only in the %s segment"):format(p.type, RESTACK_PHASE[class])
  end
  if (p.values.aboard or 0) ~= 0 then return "the unit is aboard a ship" end
  if stack ~= data.stacks.military and stack ~= data.stacks.characters then
    return "the stack is military or characters"
  end
  if p.values.stack == stack then return "the unit is already in that stack" end
  local loc, slot = R.where(p)
  if stack == data.stacks.military then
    local found = false
    for _, q in ipairs(R.at(ctx, loc, slot, side)) do
      if q.id ~= id and q.values.stack == data.stacks.military then found = true end
    end
    if not found then return "there is no military stack of yours here" end
  end
  return nil
end

-- Boxes where a side has more stacks than allowed: list of "loc/slot" strings (S3).
function R.overstacked(ctx, side)
  local boxes, out = {}, {}
  for _, p in ipairs(R.all(ctx)) do
    if p.owner == side and (p.values.aboard or 0) == 0 then
      local loc, slot = R.where(p)
      if loc then boxes[loc .. "/" .. tostring(slot)] = { loc, slot } end
    end
  end
  for key, b in pairs(boxes) do
    if #R.stacks(ctx, side, b[1], b[2]) > data.max_stacks then out[#out + 1] = key end
  end
  table.sort(out)
  return out
end

---------------------------------------------------------------------------------------------
-- Combat (C1, C2) and victory (V1)
---------------------------------------------------------------------------------------------

-- The class that fights in a box: starships in an orbit box, ground units in an environ.
local function fighting_class(slot)
  if slot == SLOT.orbit then return "starship" end
  return "ground"
end

local function attacked_here(ctx, loc, slot)
  local a = ctx:global("attacked")
  if type(a) ~= "table" or a.segment ~= R.segment_key(ctx) then return false end
  for _, k in ipairs(a.boxes or {}) do
    if k == loc .. "/" .. slot then return true end
  end
  return false
end

function R.check_attack(ctx, side, loc, slot)
  if type(loc) ~= "string" or type(slot) ~= "string" then return "name a box (location and slot)" end
  if is_drift(slot) then return "no combat in drift areas" end
  if attacked_here(ctx, loc, slot) then return "you have already attacked in this box this segment" end
  local class = fighting_class(slot)
  local mine, theirs, can_fight = 0, 0, false
  for _, p in ipairs(R.at(ctx, loc, slot, nil, class)) do
    if p.owner == side then
      mine = mine + 1
      if (stat(ctx, p, "combat") or 0) > 0 then can_fight = true end
    else
      theirs = theirs + 1
    end
  end
  if mine == 0 or theirs == 0 then return "both sides need fighting units in the box" end
  if not can_fight then return "none of your units here has a combat value" end
  return nil
end

-- Casualties: damaged first, then by piece number.
local function casualty_order(list)
  table.sort(list, function(a, b)
    if (not a.values.damaged) ~= (not b.values.damaged) then
      return a.values.damaged and true or false
    end
    return a.id < b.id
  end)
  return list
end

-- The fighting units in a box by owner, and each owner's combat dice (its units' combat sum).
local function fighters(ctx, loc, slot)
  local dice, sides = {}, {}
  for _, p in ipairs(R.at(ctx, loc, slot, nil, fighting_class(slot))) do
    dice[p.owner] = (dice[p.owner] or 0) + (stat(ctx, p, "combat") or 0)
    if not sides[p.owner] then sides[p.owner] = {} end
    table.insert(sides[p.owner], p)
  end
  return sides, dice
end

-- An attack in words before its dice are rolled, and its map note:
-- "battle at rime/ice: 5 dice against 3, hits on 5+", "5 v 3 dice".
function R.attack_label(ctx, side, loc, slot)
  local _, dice = fighters(ctx, loc, slot)
  local mine, theirs = 0, 0
  for o, n in pairs(dice) do
    if o == side then mine = mine + n else theirs = theirs + n end
  end
  return {
    text = ("battle at %s/%s: %d dice against %d, hits on %d+"):format(loc, slot, mine, theirs, data.combat_hit),
    short = ("%d v %d dice"):format(mine, theirs),
  }
end

function R.apply_attack(ctx, _side, loc, slot)
  local sides, dice = fighters(ctx, loc, slot)
  local owners = {}
  for o in pairs(sides) do owners[#owners + 1] = o end
  table.sort(owners)
  local hits = {}
  for _, o in ipairs(owners) do
    hits[o] = 0
    if dice[o] > 0 then
      for _, f in ipairs(ctx:pool(dice[o], 6, "combat " .. o)) do
        local face = type(f) == "table" and f.value or f
        if face >= data.combat_hit then hits[o] = hits[o] + 1 end
      end
    end
  end
  -- Simultaneous: every side's hits land on the others.
  for _, o in ipairs(owners) do
    local incoming = 0
    for _, e in ipairs(owners) do if e ~= o then incoming = incoming + hits[e] end end
    local victims = casualty_order(sides[o])
    for i = 1, math.min(incoming, #victims) do
      ctx:log(("%s %d (%s) is removed"):format(victims[i].type, victims[i].id, o))
      R.eliminate(ctx, victims[i])
    end
  end
  local a = ctx:global("attacked")
  local key = R.segment_key(ctx)
  if type(a) ~= "table" or a.segment ~= key then a = { segment = key, boxes = {} } end
  local boxes = {}
  for i, k in ipairs(a.boxes or {}) do boxes[i] = k end
  boxes[#boxes + 1] = loc .. "/" .. slot
  ctx:set_global("attacked", { segment = key, boxes = boxes })
end

-- Who holds each target planet (V1): { planet -> side or nil }, and a count per side.
function R.holdings(ctx)
  local targets = (ctx.options or {}).target_planets or {}
  local held, count = {}, {}
  for _, s in ipairs(ctx:sides()) do count[s.id] = 0 end
  local g = R.graph(ctx)
  for _, planet in ipairs(targets) do
    local present = {}
    for _, e in ipairs(G.environs(g, planet)) do
      for _, p in ipairs(R.at(ctx, planet, e.id, nil, "ground")) do present[p.owner] = true end
    end
    local holder, n = nil, 0
    for s in pairs(present) do holder, n = s, n + 1 end
    if n == 1 then
      held[planet] = holder
      count[holder] = (count[holder] or 0) + 1
    end
  end
  return held, count
end

-- The final result at the turn limit: more targets held wins; equal is a draw.
function R.final_outcome(ctx)
  local _, count = R.holdings(ctx)
  local best, winners = -1, {}
  for _, s in ipairs(ctx:sides()) do
    local n = count[s.id] or 0
    if n > best then best, winners = n, { s.id } elseif n == best then winners[#winners + 1] = s.id end
  end
  if #winners == 1 then
    return { winners = winners, reason = ("holds %d target planets, more than any other side"):format(best) }
  end
  return { winners = {}, reason = ("a draw: %d target planets each"):format(best) }
end

-- Sudden death: a side without ground units loses while another has some.
function R.sudden_death(ctx)
  local n, sides = {}, ctx:sides()
  for _, s in ipairs(sides) do n[s.id] = 0 end
  for _, p in ipairs(R.all(ctx)) do
    if R.class(ctx, p) == "ground" then n[p.owner] = (n[p.owner] or 0) + 1 end
  end
  local alive = {}
  for _, s in ipairs(sides) do if n[s.id] > 0 then alive[#alive + 1] = s.id end end
  if #alive == 1 and #sides > 1 then
    return { winners = alive, reason = "the other side has no ground units left" }
  end
  return nil
end

return R
