-- squadron-command: a sectored squadron battle. Declarations and rules logic.
--
-- Numbers live in data.lua (and the scenario [options]); geometry.lua and combat.lua are pure
-- helpers. This file declares the game and implements the actions:
--   order phase: `command` (pick a sector or a class), `order` (one unit at a time, up to the
--                scenario limit), `clear_alert` (pay tokens); end_phase only after a command
--   move phase:  `move` (one ordered unit, whole move at once, optional warp or full impulse)
--   fight phase: `battle` (each ordered unit once)
--   end phase:   the active side gains command tokens when it starts
-- It deliberately does not model cards or line of sight (see README "Assumptions").

local data = require("data")
local G = require("geometry")
local combat = require("combat")

---------------------------------------------------------------------------------------------
-- Declarations
---------------------------------------------------------------------------------------------
for _, t in ipairs(data.terrains) do
  game.terrain {
    id = t.id,
    name = t.name,
    color = t.color,
    stops_movement = t.stops_movement,
    blocks_battle = t.blocks_battle,
  }
end

for _, u in ipairs(data.units) do
  game.piece_type {
    id = u.id,
    name = u.name,
    stats = { class = u.class, move = u.move, warp = u.warp, figures = u.figures },
    values = { figures = u.figures, ordered = false, moved = false, fought = false, alert = false },
  }
end

game.table {
  id = "battle_dice",
  rows = data.classes,
  columns = data.battle_ranges,
  cells = data.battle_dice,
}

game.dice { id = "battle", faces = data.battle_faces }

game.turns {
  order = "fixed",
  phases = {
    { id = "order" },
    { id = "move" },
    { id = "fight" },
    { id = "end" },
  },
}

---------------------------------------------------------------------------------------------
-- Reading the state
---------------------------------------------------------------------------------------------
local function option(ctx, key)
  local o = ctx.options
  if type(o) == "table" and o[key] ~= nil then
    return o[key]
  end
  return data.defaults[key]
end

local function side_value(ctx, side, key, default)
  local s = ctx:side(side)
  if s and s.values and s.values[key] ~= nil then
    return s.values[key]
  end
  return default
end

-- Units still on the battlefield.
local function units(ctx, owner)
  local out = {}
  for _, p in ipairs(ctx:pieces(owner and { owner = owner } or {})) do
    if p.hex then
      out[#out + 1] = p
    end
  end
  return out
end

-- One snapshot of what movement and battle need: occupied hexes, board rows, memoised hex kinds
-- and features. Built once per callback.
local function world(ctx)
  local w = { occupied = {}, kinds = {}, top = nil, bottom = nil }
  for _, p in ipairs(units(ctx)) do
    w.occupied[G.key(p.hex)] = p
  end
  for _, h in ipairs(ctx:board_hexes()) do
    if w.top == nil or h.r < w.top then
      w.top = h.r
    end
    if w.bottom == nil or h.r > w.bottom then
      w.bottom = h.r
    end
  end
  function w.kind(h)
    local k = G.key(h)
    if w.kinds[k] == nil then
      w.kinds[k] = ctx:on_board(h) and ctx:hex_kind(h) or "off"
    end
    return w.kinds[k]
  end
  function w.whole(h)
    local k = w.kind(h)
    return k == "full" or k == "seam"
  end
  function w.feature(h, field)
    for _, id in ipairs(ctx:terrain(h)) do
      local info = ctx:terrain_info(id)
      if info and info[field] then
        return id
      end
    end
    return nil
  end
  -- The edge ("top"/"bottom") a board hex is a baseline hex of, or nil.
  function w.edge(h)
    if h.r == w.top then
      return "top"
    elseif h.r == w.bottom then
      return "bottom"
    end
    return nil
  end
  return w
end

local function exits_allowed(ctx, side)
  local e = option(ctx, "exits")
  return (type(e) == "table" and e[side]) or {}
end

-- May a unit of `side` step from board hex `from` to off-board hex `to`? Only beyond a baseline
-- row, and only off an edge the scenario opens to that side.
local function exit_ok(ctx, w, side, from, to)
  if w.kind(to) ~= "off" then
    return false
  end
  local edge = w.edge(from)
  if edge == nil then
    return false
  end
  if (edge == "top" and to.r >= w.top) or (edge == "bottom" and to.r <= w.bottom) then
    return false
  end
  for _, allowed in ipairs(exits_allowed(ctx, side)) do
    if allowed == edge then
      return true
    end
  end
  return false
end

-- Battle dice of unit p at `range` (0 if out of range), counting its alert marker.
local function dice_at(ctx, p, range)
  if range < 1 or range > #data.battle_ranges then
    return 0
  end
  local n = ctx:lookup("battle_dice", p.stats.class, tostring(range))
  if n == 0 then
    return 0
  end
  if p.values.alert then
    n = n - data.costs.alert_dice_penalty
  end
  return math.max(n, 0)
end

local function enemy_adjacent(w, side, h)
  for d = 0, 5 do
    local o = w.occupied[G.key(G.neighbor(h, d))]
    if o and o.owner ~= side then
      return true
    end
  end
  return false
end

local function own_unit(ctx, side, id)
  local p = ctx:piece(id)
  if p == nil then
    return nil, "there is no unit " .. tostring(id)
  end
  if p.owner ~= side then
    return nil, "unit " .. tostring(id) .. " is not yours"
  end
  if p.hex == nil then
    return nil, "unit " .. tostring(id) .. " is not on the battlefield"
  end
  return p
end

---------------------------------------------------------------------------------------------
-- Ordering
---------------------------------------------------------------------------------------------
local function command_kinds(ctx)
  local out = {}
  for _, s in ipairs(option(ctx, "sector_names")) do
    out[#out + 1] = s
  end
  for _, c in ipairs(data.classes) do
    out[#out + 1] = c
  end
  return out
end

local function is_class(name)
  for _, c in ipairs(data.classes) do
    if c == name then
      return true
    end
  end
  return false
end

-- Does unit p answer to command `by` (a sector name or a class name)?
local function answers(ctx, p, by)
  if is_class(by) then
    return p.stats.class == by
  end
  return G.in_sector(p.hex, by, option(ctx, "sector_lines"), option(ctx, "sector_names"))
end

local function ordered_count(ctx, side)
  local n = 0
  for _, p in ipairs(units(ctx, side)) do
    if p.values.ordered then
      n = n + 1
    end
  end
  return n
end

game.action {
  id = "command",
  phases = { "order" },
  params = { by = "string" },
  choices = function(ctx, side)
    if side_value(ctx, side, "command", "") ~= "" then
      return {}
    end
    local out = {}
    for _, k in ipairs(command_kinds(ctx)) do
      out[#out + 1] = { by = k }
    end
    return out
  end,
  check = function(ctx, a)
    if side_value(ctx, a.side, "command", "") ~= "" then
      return false, "a command has already been given this turn"
    end
    for _, k in ipairs(command_kinds(ctx)) do
      if k == a.by then
        return true
      end
    end
    return false, "unknown command '" .. tostring(a.by) .. "': name a sector or a class"
  end,
  apply = function(ctx, a)
    ctx:set_side(a.side, "command", a.by)
    ctx:log(a.side .. " commands the " .. a.by)
  end,
}

local function order_problem(ctx, side, id)
  local by = side_value(ctx, side, "command", "")
  if by == "" then
    return "give a command (a sector or a class) before ordering units"
  end
  local p, why = own_unit(ctx, side, id)
  if p == nil then
    return why
  end
  if p.values.ordered then
    return "unit " .. p.id .. " is already ordered"
  end
  local limit = option(ctx, "order_limit")
  if ordered_count(ctx, side) >= limit then
    return "the order limit of " .. limit .. " units is reached"
  end
  if not answers(ctx, p, by) then
    if is_class(by) then
      return "unit " .. p.id .. " is not of the " .. by .. " class"
    end
    return "unit " .. p.id .. " is not in the " .. by .. " sector"
  end
  return nil
end

game.action {
  id = "order",
  phases = { "order" },
  params = { piece = "piece" },
  choices = function(ctx, side)
    local out = {}
    for _, p in ipairs(units(ctx, side)) do
      if order_problem(ctx, side, p.id) == nil then
        out[#out + 1] = { piece = p.id }
      end
    end
    return out
  end,
  check = function(ctx, a)
    local why = order_problem(ctx, a.side, a.piece)
    if why then
      return false, why
    end
    return true
  end,
  apply = function(ctx, a)
    ctx:set(a.piece, "ordered", true)
    ctx:log(a.side .. " orders unit " .. a.piece)
  end,
}

local function clear_problem(ctx, side, id)
  local p, why = own_unit(ctx, side, id)
  if p == nil then
    return why
  end
  if not p.values.alert then
    return "unit " .. p.id .. " has no alert marker"
  end
  local cost = option(ctx, "clear_alert_cost")
  if side_value(ctx, side, "tokens", 0) < cost then
    return "clearing an alert marker costs " .. cost .. " command tokens"
  end
  return nil
end

game.action {
  id = "clear_alert",
  phases = { "order" },
  params = { piece = "piece" },
  choices = function(ctx, side)
    local out = {}
    for _, p in ipairs(units(ctx, side)) do
      if clear_problem(ctx, side, p.id) == nil then
        out[#out + 1] = { piece = p.id }
      end
    end
    return out
  end,
  check = function(ctx, a)
    local why = clear_problem(ctx, a.side, a.piece)
    if why then
      return false, why
    end
    return true
  end,
  apply = function(ctx, a)
    local cost = option(ctx, "clear_alert_cost")
    ctx:set_side(a.side, "tokens", side_value(ctx, a.side, "tokens", 0) - cost)
    ctx:set(a.piece, "alert", false)
    ctx:log(a.side .. " clears the alert marker of unit " .. a.piece)
  end,
}

-- The order phase ends only once a command is given (it may order no unit at all).
game.action {
  id = "end_phase",
  check = function(ctx, a)
    if ctx.phase == "order" and side_value(ctx, a.side, "command", "") == "" then
      return false, "give a command (a sector or a class) before ending the order phase"
    end
    return true
  end,
}

---------------------------------------------------------------------------------------------
-- Movement
---------------------------------------------------------------------------------------------
local function reach_for(ctx, w, p, steps, ignore_units, ignore_features)
  local enterable = function(h)
    return w.whole(h) and (ignore_units or w.occupied[G.key(h)] == nil)
  end
  local stops = function(h)
    return not ignore_features and w.feature(h, "stops_movement") ~= nil
  end
  local ex = function(from, to)
    return exit_ok(ctx, w, p.owner, from, to)
  end
  return G.reach(p.hex, steps, enterable, stops, ex)
end

-- Could p battle at close quarters from hex h (an enemy adjacent, a die at range 1, no
-- feature that blocks battle)?
local function close_quarters_from(ctx, w, p, h)
  return enemy_adjacent(w, p.owner, h) and dice_at(ctx, p, 1) > 0 and w.feature(h, "blocks_battle") == nil
end

-- Why move `a` is illegal, or nil.
local function move_problem(ctx, w, a)
  local p, why = own_unit(ctx, a.side, a.piece)
  if p == nil then
    return why
  end
  if not p.values.ordered then
    return "unit " .. p.id .. " is not ordered: only ordered units move"
  end
  if p.values.moved then
    return "unit " .. p.id .. " has already moved this turn: a unit moves once"
  end
  local to = a.to
  if type(to) ~= "table" or math.type(to.q) ~= "integer" or math.type(to.r) ~= "integer" then
    return "the destination must be a hex {q, r}"
  end
  if a.warp and a.impulse then
    return "a destroyer making a warp move cannot move at full impulse"
  end
  local steps = p.stats.move
  if a.warp then
    if p.stats.warp <= 0 then
      return "only destroyer units can warp"
    end
    steps = p.stats.warp
  elseif a.impulse then
    local cost = data.costs.impulse_tokens
    if side_value(ctx, a.side, "tokens", 0) < cost then
      return "full impulse costs " .. cost .. " command tokens"
    end
    steps = steps + data.costs.impulse_extra
  end
  if G.eq(to, p.hex) then
    return "the unit is already there (an ordered unit need not move)"
  end
  local kind = w.kind(to)
  if kind == "half" then
    return "no unit may enter the half-hexes along the sides of the battlefield"
  elseif kind == "off" then
    -- Leaving is judged on the last step: a baseline hex next to `to` must open onto it.
    local open = false
    for d = 0, 5 do
      local from = G.neighbor(to, d)
      if w.kind(from) ~= "off" and exit_ok(ctx, w, a.side, from, to) then
        open = true
      end
    end
    if not open then
      return "units may leave the battlefield only off a baseline the scenario allows"
    end
  elseif kind ~= "full" and kind ~= "seam" then
    return "that hex cannot be entered"
  elseif w.occupied[G.key(to)] then
    return "another unit is in that hex: two units may not share a hex"
  end
  if G.find(reach_for(ctx, w, p, steps, false, false), to) == nil then
    if G.find(reach_for(ctx, w, p, steps, true, false), to) then
      return "no way there: a unit may not move through a hex occupied by another unit"
    elseif G.find(reach_for(ctx, w, p, steps, true, true), to) then
      return "no way there: a unit entering a space feature ends its move"
    end
    return "out of reach: " .. steps .. " hexes this move"
  end
  if a.warp and (kind == "off" or not close_quarters_from(ctx, w, p, to)) then
    return "a warp move must end adjacent to an enemy unit the destroyer can engage at close quarters"
  end
  return nil
end

game.action {
  id = "move",
  phases = { "move" },
  params = { piece = "piece", to = "hex", warp = "boolean", impulse = "boolean" },
  choices = function(ctx, side)
    local w, out = world(ctx), {}
    local tokens = side_value(ctx, side, "tokens", 0)
    for _, p in ipairs(units(ctx, side)) do
      if p.values.ordered and not p.values.moved then
        local normal = reach_for(ctx, w, p, p.stats.move, false, false)
        for _, e in ipairs(normal) do
          out[#out + 1] = { piece = p.id, to = e.hex, warp = false, impulse = false }
        end
        if tokens >= data.costs.impulse_tokens then
          for _, e in ipairs(reach_for(ctx, w, p, p.stats.move + data.costs.impulse_extra, false, false)) do
            if G.find(normal, e.hex) == nil then
              out[#out + 1] = { piece = p.id, to = e.hex, warp = false, impulse = true }
            end
          end
        end
        if p.stats.warp > 0 then
          for _, e in ipairs(reach_for(ctx, w, p, p.stats.warp, false, false)) do
            if not e.exit and G.find(normal, e.hex) == nil and close_quarters_from(ctx, w, p, e.hex) then
              out[#out + 1] = { piece = p.id, to = e.hex, warp = true, impulse = false }
            end
          end
        end
      end
    end
    return out
  end,
  check = function(ctx, a)
    local why = move_problem(ctx, world(ctx), a)
    if why then
      return false, why
    end
    return true
  end,
  apply = function(ctx, a)
    local p = ctx:piece(a.piece)
    local w = world(ctx)
    if a.impulse then
      ctx:set_side(a.side, "tokens", side_value(ctx, a.side, "tokens", 0) - data.costs.impulse_tokens)
    end
    ctx:set(p.id, "moved", true)
    local how = a.warp and " at warp" or (a.impulse and " at full impulse" or "")
    if w.kind(a.to) == "off" then
      local pts = option(ctx, "exit_points")
      ctx:place(p.id, { box = "exited" })
      ctx:set_side(a.side, "points", side_value(ctx, a.side, "points", 0) + pts)
      ctx:log(("unit %d leaves the battlefield%s (+%d points)"):format(p.id, how, pts))
    else
      ctx:move(p.id, a.to)
      ctx:log(("unit %d moves%s to (%d, %d)"):format(p.id, how, a.to.q, a.to.r))
    end
  end,
}

---------------------------------------------------------------------------------------------
-- Battle
---------------------------------------------------------------------------------------------
local function battle_problem(ctx, w, a)
  local p, why = own_unit(ctx, a.side, a.piece)
  if p == nil then
    return why
  end
  if not p.values.ordered then
    return "unit " .. p.id .. " is not ordered: only ordered units battle"
  end
  if p.values.fought then
    return "unit " .. p.id .. " has already battled this turn"
  end
  local f = w.feature(p.hex, "blocks_battle")
  if f then
    return "unit " .. p.id .. " is in a " .. f .. " and cannot battle"
  end
  local t = ctx:piece(a.target)
  if t == nil or t.hex == nil then
    return "there is no target unit " .. tostring(a.target) .. " on the battlefield"
  end
  if t.owner == a.side then
    return "the target must be an enemy unit"
  end
  local range = G.distance(p.hex, t.hex)
  if range > 1 and enemy_adjacent(w, a.side, p.hex) then
    return "close quarters: a unit next to an enemy may only battle an adjacent enemy"
  end
  local base = 0
  if range >= 1 and range <= #data.battle_ranges then
    base = ctx:lookup("battle_dice", p.stats.class, tostring(range))
  end
  if base == 0 then
    return "out of range: a " .. p.stats.class .. " unit has no battle dice at range " .. range
  end
  if dice_at(ctx, p, range) == 0 then
    return "no battle dice left at range " .. range .. " with an alert marker"
  end
  return nil
end

game.action {
  id = "battle",
  phases = { "fight" },
  params = { piece = "piece", target = "piece" },
  choices = function(ctx, side)
    local w, out = world(ctx), {}
    for _, p in ipairs(units(ctx, side)) do
      if p.values.ordered and not p.values.fought then
        for _, t in ipairs(units(ctx)) do
          if t.owner ~= side and battle_problem(ctx, w, { side = side, piece = p.id, target = t.id }) == nil then
            out[#out + 1] = { piece = p.id, target = t.id }
          end
        end
      end
    end
    return out
  end,
  check = function(ctx, a)
    local why = battle_problem(ctx, world(ctx), a)
    if why then
      return false, why
    end
    return true
  end,
  apply = function(ctx, a)
    local p, t = ctx:piece(a.piece), ctx:piece(a.target)
    local n = dice_at(ctx, p, G.distance(p.hex, t.hex))
    local faces = ctx:roll_named("battle", n, ("unit %d battles unit %d"):format(p.id, t.id))
    local r = combat.resolve(faces, t.stats.class, data)
    ctx:set(p.id, "fought", true)
    ctx:log(("unit %d rolls %s: %d hits, %d stars, %d alerts"):format(
      p.id, table.concat(faces, " "), r.hits, r.stars, r.alerts))
    if r.stars > 0 then
      local gain = r.stars * data.costs.star_tokens
      ctx:set_side(a.side, "tokens", side_value(ctx, a.side, "tokens", 0) + gain)
    end
    local figures = t.values.figures - r.hits
    if figures > 0 and r.alerts > 0 then
      -- Retire one hex per alert toward the target's baseline; each hex it cannot retire costs
      -- a figure. The rear hexes are tried in data.retire_dirs order (automatic, see README).
      local dirs = data.retire_dirs[side_value(ctx, t.owner, "baseline", "bottom")]
      local w = world(ctx)
      local at = t.hex
      for _ = 1, r.alerts * data.costs.retire_per_alert do
        local step = G.retire_step(at, dirs, function(h)
          return w.whole(h) and w.occupied[G.key(h)] == nil
        end)
        if step then
          w.occupied[G.key(at)] = nil
          w.occupied[G.key(step)] = t
          at = step
        else
          figures = figures - data.costs.figures_per_blocked_retire
        end
      end
      if figures > 0 and not G.eq(at, t.hex) then
        ctx:move(t.id, at)
        ctx:log(("unit %d retires to (%d, %d)"):format(t.id, at.q, at.r))
      end
      ctx:set(t.id, "alert", true)
    end
    if figures <= 0 then
      ctx:destroy(t.id)
      local pts = data.costs.points_per_unit
      ctx:set_side(a.side, "points", side_value(ctx, a.side, "points", 0) + pts)
      ctx:log(("unit %d is destroyed (+%d point for %s)"):format(t.id, pts, a.side))
    else
      ctx:set(t.id, "figures", figures)
    end
  end,
}

---------------------------------------------------------------------------------------------
-- Turn bookkeeping, setup and victory
---------------------------------------------------------------------------------------------
local function new_turn(ctx)
  for _, p in ipairs(units(ctx)) do
    if p.values.ordered or p.values.moved or p.values.fought then
      ctx:set(p.id, "ordered", false)
      ctx:set(p.id, "moved", false)
      ctx:set(p.id, "fought", false)
    end
  end
  for _, s in ipairs(ctx:sides()) do
    ctx:set_side(s.id, "command", "")
  end
end

game.setup(function(ctx)
  for _, s in ipairs(ctx:sides()) do
    if side_value(ctx, s.id, "baseline", nil) == nil then
      error("side " .. s.id .. " needs values.baseline = \"top\" or \"bottom\" in the scenario")
    end
    ctx:set_side(s.id, "tokens", side_value(ctx, s.id, "tokens", 0))
    ctx:set_side(s.id, "points", side_value(ctx, s.id, "points", 0))
  end
  new_turn(ctx)
end)

game.on("turn_start", function(ctx)
  new_turn(ctx)
end)

game.on("phase_start", function(ctx)
  if ctx.phase == "end" and ctx.active then
    local gain = option(ctx, "tokens_per_turn")
    ctx:set_side(ctx.active, "tokens", side_value(ctx, ctx.active, "tokens", 0) + gain)
    ctx:log(ctx.active .. " gains " .. gain .. " command token(s)")
  end
end)

local function by_points(ctx, why)
  local best, winners = -1, {}
  for _, s in ipairs(ctx:sides()) do
    local pts = side_value(ctx, s.id, "points", 0)
    if pts > best then
      best, winners = pts, { s.id }
    elseif pts == best then
      winners[#winners + 1] = s.id
    end
  end
  if #winners ~= 1 then
    return { winners = {}, reason = why .. ": level on points, a draw" }
  end
  return { winners = winners, reason = why .. ": most victory points (" .. best .. ")" }
end

game.victory(function(ctx)
  local target = option(ctx, "victory_points")
  for _, s in ipairs(ctx:sides()) do
    if side_value(ctx, s.id, "points", 0) >= target then
      return { winners = { s.id }, reason = s.id .. " reached " .. target .. " victory points" }
    end
  end
  for _, s in ipairs(ctx:sides()) do
    if #units(ctx, s.id) == 0 then
      return by_points(ctx, s.id .. " has no units left on the battlefield")
    end
  end
  return nil
end)

game.on("turn_limit", function(ctx)
  ctx:end_game(by_points(ctx, "turn limit"))
end)
