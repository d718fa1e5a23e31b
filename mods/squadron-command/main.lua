-- squadron-command: a sectored squadron battle. Declarations and rules logic.
--
-- Numbers live in data.lua (and the scenario [options]); geometry.lua and combat.lua are pure
-- helpers. This file declares the game and implements the actions:
--   order phase: `command` (pick a sector or a class), `order` (one unit at a time, up to the
--                scenario limit), `clear_alert` (pay tokens); end_phase only after a command
--   move phase:  `move` (one ordered unit, whole move at once, optional warp or full impulse)
--   fight phase: `battle` (each ordered unit once); `retire`, the target's owner's answer when
--                an alert leaves its unit more than one way back
--   end phase:   the active side gains command tokens when it starts
-- It deliberately does not model cards (see README "Assumptions").

local data = require("data")
local G = require("geometry")
local R = require("rules")
local option, side_value, units, world = R.option, R.side_value, R.units, R.world
local dice_at, command_kinds, reach_for = R.dice_at, R.command_kinds, R.reach_for
local close_quarters_from, new_turn, by_points = R.close_quarters_from, R.new_turn, R.by_points
local order_problem, clear_problem = R.order_problem, R.clear_problem
local move_problem, battle_problem = R.move_problem, R.battle_problem

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

-- How the editor draws a squadron: its letters, move (and warp) along the bottom, figures
-- lost as a bar, and markers for orders, alert and what it did this turn.
local LABELS = {
  flagship = "FL", heavy_battleship = "HB", battleship = "BB", heavy_cruiser = "HC",
  cruiser = "CR", heavy_destroyer = "HD", destroyer = "DD", heavy_fighter = "HF", fighter = "FT",
}
local function unit_counter(_ctx, p)
  local v = p.values
  local markers = {}
  if v.ordered then markers[#markers + 1] = "order" end
  if v.alert then markers[#markers + 1] = "alert" end
  if v.moved then markers[#markers + 1] = "moved" end
  if v.fought then markers[#markers + 1] = "fought" end
  local factors = tostring(p.stats.move)
  if (p.stats.warp or 0) > 0 then factors = factors .. " w" .. p.stats.warp end
  local figures = p.stats.figures
  return {
    label = LABELS[p.type] or p.type:sub(1, 2):upper(),
    factors = factors,
    damage = { math.max(0, figures - (v.figures or figures)), figures },
    markers = markers,
  }
end

for _, u in ipairs(data.units) do
  game.piece_type {
    counter = unit_counter,
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
  -- Why both: the engine applies only this rule-wide limit; each scenario's own limit is its
  -- option `turn_limit`, enforced by the round_start hook below (never above this one).
  turn_limit = data.max_turn_limit,
}

---------------------------------------------------------------------------------------------
-- Ordering
---------------------------------------------------------------------------------------------

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
    local cost = R.clear_cost(ctx, ctx:piece(a.piece))
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
    local p = assert(ctx:piece(a.piece), "move_problem found the unit")
    local w = world(ctx)
    if a.impulse then
      ctx:set_side(a.side, "tokens", side_value(ctx, a.side, "tokens", 0) - data.costs.impulse_tokens)
    end
    ctx:set(p.id, "moved", true)
    local how = a.warp and " at warp" or (a.impulse and " at full impulse" or "")
    local to = assert(R.as_hex(a.to), "move_problem read the destination")
    if w.kind(to) == "off" then
      local pts = option(ctx, "exit_points")
      ctx:place(p.id, { box = "exited" })
      ctx:set_side(a.side, "points", side_value(ctx, a.side, "points", 0) + pts)
      ctx:log(("unit %d leaves the battlefield%s (+%d points)"):format(p.id, how, pts))
    else
      ctx:move(p.id, to)
      ctx:log(("unit %d moves%s to (%d, %d)"):format(p.id, how, to.q, to.r))
    end
  end,
}

---------------------------------------------------------------------------------------------
-- Battle
---------------------------------------------------------------------------------------------

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
    local p = assert(ctx:piece(a.piece), "battle_problem found the unit")
    local t = assert(ctx:piece(a.target), "battle_problem found the target")
    local n = dice_at(ctx, p, G.distance(p.hex, t.hex))
    local faces = ctx:roll_named("battle", n, ("unit %d battles unit %d"):format(p.id, t.id))
    ctx:set(p.id, "fought", true)
    R.apply_battle(ctx, a.side, p.id, t.id, faces)
  end,
  -- How the editor names a battle: the battle dice this unit rolls at this range.
  label = function(ctx, a)
    local p, t = ctx:piece(a.piece), ctx:piece(a.target)
    if not (p and t and p.hex and t.hex) then return nil end
    local range = G.distance(p.hex, t.hex)
    local n = dice_at(ctx, p, range)
    return {
      text = ("%s %d -> %s %d, range %d: %d battle dice"):format(p.type, p.id, t.type, t.id, range, n),
      short = n .. " dice",
    }
  end,
}

-- The owner of a unit an alert drives back chooses its way when more than one is open (the
-- battle waits: ctx:ask in rules.apply_battle).
game.action {
  id = "retire",
  phases = { "fight" },
  params = { path = "path" },
  answer = true,
  choices = function(ctx, side)
    local pending = ctx:global("pending_retire")
    local out = {}
    if pending and R.retire_choice(ctx, { side = side, path = pending.paths[1].path }) then
      for _, way in ipairs(pending.paths) do out[#out + 1] = { path = way.path } end
    end
    return out
  end,
  check = function(ctx, a)
    local way, why = R.retire_choice(ctx, a)
    if not way then
      return false, why
    end
    return true
  end,
  apply = function(ctx, a)
    local way, pending = R.retire_choice(ctx, a)
    ctx:set_global("pending_retire", nil)
    ctx:answered()
    R.settle_battle(ctx, pending.attacker, pending.unit, pending.figures, way)
  end,
}

---------------------------------------------------------------------------------------------
-- Turn bookkeeping, setup and victory
---------------------------------------------------------------------------------------------

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

game.on("phase_start", { phases = { "end" } }, function(ctx)
  if ctx.active then
    local gain = option(ctx, "tokens_per_turn")
    ctx:set_side(ctx.active, "tokens", side_value(ctx, ctx.active, "tokens", 0) + gain)
    ctx:log(ctx.active .. " gains " .. gain .. " command token(s)")
  end
end)

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

-- The search bot's heuristic (`--bots mcts`, docs/API.md section 2.10b): how the game stands
-- for `side`, from 0 (lost) to 1 (won). Half the race to the scenario's victory points (its lead
-- over the best other side, against the target), half its share of the ship figures still on
-- the battlefield (a side without units loses on points).
game.evaluate = function(ctx, side)
  local target = math.max(1, option(ctx, "victory_points"))
  local mine, best_other, my_figures, all_figures = 0, 0, 0, 0
  for _, s in ipairs(ctx:sides()) do
    local figures = 0
    for _, p in ipairs(units(ctx, s.id)) do figures = figures + (p.values.figures or 0) end
    all_figures = all_figures + figures
    local points = side_value(ctx, s.id, "points", 0)
    if s.id == side then
      mine, my_figures = points, figures
    else
      best_other = math.max(best_other, points)
    end
  end
  local race = math.max(0, math.min(1, 0.5 + (mine - best_other) / (2 * target)))
  local strength = all_figures > 0 and my_figures / all_figures or 0.5
  return (race + strength) / 2
end

game.on("round_start", function(ctx)
  local limit = option(ctx, "turn_limit")
  if ctx.round > limit then
    ctx:end_game(by_points(ctx, "turn limit"))
  end
end)

game.on("turn_limit", function(ctx)
  ctx:end_game(by_points(ctx, "turn limit"))
end)
