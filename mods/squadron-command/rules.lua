-- squadron-command rules helpers: reading the state through ctx, and the legality checks and
-- battle results shared by main.lua's actions and by the Lua tests.
--
-- Everything here takes ctx (read only, except apply_battle which must run where ctx may write:
-- an action's apply, a hook, or a test's g:edit). It declares nothing; main.lua does.
--
-- Example: rules.move_problem(ctx, rules.world(ctx), { side = "blue", piece = 4,
--   to = { q = 7, r = 3 }, warp = false, impulse = false }) -> nil or the reason it is illegal.

local data = require("data")
local G = require("geometry")
local combat = require("combat")

-- A hex table with integer q and r (numbers that arrive as 4.0 are accepted), or nil.
---@param h any
---@return Hex|nil
local function as_hex(h)
  if type(h) ~= "table" then
    return nil
  end
  local q, r = math.tointeger(h.q), math.tointeger(h.r)
  if q == nil or r == nil then
    return nil
  end
  return { q = q, r = r }
end

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
  local on, lo_x, hi_x = {}, nil, nil
  for _, h in ipairs(ctx:board_hexes()) do
    on[G.key(h)] = true
    if w.top == nil or h.r < w.top then
      w.top = h.r
    end
    if w.bottom == nil or h.r > w.bottom then
      w.bottom = h.r
    end
    if h.r % 2 == 0 then
      local x = G.x2(h)
      lo_x = (lo_x == nil or x < lo_x) and x or lo_x
      hi_x = (hi_x == nil or x > hi_x) and x or hi_x
    end
  end
  -- "full", "half" (or another engine kind) for board hexes, "off" for the rest. Why the
  -- fallback: if the engine offers no ctx:hex_kind, a half-hex is an odd-row hex sticking out
  -- past the whole hexes of the even rows (the board's cut side edges).
  function w.kind(h)
    local k = G.key(h)
    if w.kinds[k] == nil then
      if not on[k] then
        w.kinds[k] = "off"
      else
        local ok, kind = pcall(function()
          return ctx:hex_kind(h)
        end)
        if not ok or type(kind) ~= "string" then
          local x = G.x2(h)
          kind = (lo_x and (x < lo_x or x > hi_x)) and "half" or "full"
        end
        w.kinds[k] = kind
      end
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

-- Command tokens to clear unit p's alert marker: fewer for a unit ordered this turn.
local function clear_cost(ctx, p)
  return option(ctx, p.values.ordered and "clear_alert_cost_ordered" or "clear_alert_cost_unordered")
end

local function clear_problem(ctx, side, id)
  local p, why = own_unit(ctx, side, id)
  if p == nil then
    return why
  end
  if not p.values.alert then
    return "unit " .. p.id .. " has no alert marker"
  end
  local cost = clear_cost(ctx, p)
  if side_value(ctx, side, "tokens", 0) < cost then
    return ("clearing the alert marker of %s unit costs %d command tokens"):format(
      p.values.ordered and "an ordered" or "an unordered", cost)
  end
  return nil
end

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
  local to = as_hex(a.to)
  if to == nil then
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
  -- Ranged battle needs a clear line of sight: no unit in a hex the line between the two
  -- centres crosses (along a hexside, only units on both sides block).
  if range > 1 and hex.blocked_unless_avoidable(p.hex, t.hex, function(h) return w.occupied[G.key(h)] ~= nil end) then
    return "no line of sight: another unit is in the way"
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

-- Every way unit `t` may retire `n` hexes toward its baseline (`dirs`, data.retire_dirs): at
-- each hex it must take a free whole neighbour in one of those directions if there is one; it
-- stops where there is none, and each hex not retired costs figures. A list of
-- { path = { hexes entered, in order }, lost = hexes not retired }, in `dirs` order.
-- Why no occupancy update along the way: every step leads toward the baseline, so a path never
-- comes back to a hex it left.
local function retire_paths(w, n, dirs, at)
  local out, path = {}, {}
  local function go(h, left)
    local free = {}
    if left > 0 then
      for _, d in ipairs(dirs) do
        local nb = G.neighbor(h, d)
        if w.whole(nb) and w.occupied[G.key(nb)] == nil then free[#free + 1] = nb end
      end
    end
    if #free == 0 then
      local copy = {}
      for i, x in ipairs(path) do copy[i] = { q = x.q, r = x.r } end
      out[#out + 1] = { path = copy, lost = left }
      return
    end
    for _, nb in ipairs(free) do
      path[#path + 1] = nb
      go(nb, left - 1)
      path[#path] = nil
    end
  end
  go(at, n)
  return out
end

-- Ends a battle against unit `tid` left with `figures` after the hits: moves it along the
-- chosen retire path (nil: no alert), costs it figures for the hexes it could not retire, marks
-- it, and destroys it (scoring for `side`) when no figure is left.
local function settle_battle(ctx, side, tid, figures, retire)
  local t = ctx:piece(tid)
  if retire then
    figures = figures - retire.lost * data.costs.figures_per_blocked_retire
    local at = retire.path[#retire.path]
    if figures > 0 and at then
      ctx:move(t.id, at)
      ctx:log(("unit %d retires to (%d, %d)"):format(t.id, at.q, at.r))
    end
    if figures > 0 then
      ctx:set(t.id, "alert", true)
    end
  end
  if figures <= 0 then
    ctx:destroy(t.id)
    local pts = data.costs.points_per_unit
    ctx:set_side(side, "points", side_value(ctx, side, "points", 0) + pts)
    ctx:log(("unit %d is destroyed (+%d for %s)"):format(t.id, pts, side))
  else
    ctx:set(t.id, "figures", figures)
  end
end

-- Applies a roll of battle dice (`faces`) by attacker `pid` of `side` against unit `tid`:
-- stars give the attacker command tokens; hits remove figures; each alert makes a surviving
-- target retire one hex toward its own baseline (a hex it cannot retire costs a figure) and
-- marks it; a unit left with no figures is destroyed and scores for the attacker. Records the
-- result in the global "last_battle" (faces, hits, stars, alerts) for players and tests.
-- When the target has more than one way to retire, its owner chooses (`retire`, an answer the
-- engine asks for with ctx:ask) and the battle is settled then; the choice waits in the global
-- "pending_retire".
local function apply_battle(ctx, side, pid, tid, faces)
  local t = ctx:piece(tid)
  local r = combat.resolve(faces, t.stats.class, data)
  ctx:set_global("last_battle", {
    attacker = pid, target = tid, faces = faces, hits = r.hits, stars = r.stars, alerts = r.alerts,
  })
  ctx:log(("unit %d rolls %s: %d hits, %d stars, %d alerts"):format(
    pid, #faces > 0 and table.concat(faces, " ") or "nothing", r.hits, r.stars, r.alerts))
  if r.stars > 0 then
    local gain = r.stars * data.costs.star_tokens
    ctx:set_side(side, "tokens", side_value(ctx, side, "tokens", 0) + gain)
  end
  local figures = t.values.figures - r.hits
  if figures <= 0 or r.alerts == 0 then
    settle_battle(ctx, side, tid, figures, nil)
    return
  end
  local dirs = data.retire_dirs[side_value(ctx, t.owner, "baseline", "bottom")]
  local paths = retire_paths(world(ctx), r.alerts * data.costs.retire_per_alert, dirs, t.hex)
  if #paths == 1 then
    settle_battle(ctx, side, tid, figures, paths[1])
    return
  end
  -- The hits count at once; the retire, its figures and the marker when the owner has chosen.
  ctx:set(tid, "figures", figures)
  ctx:set_global("pending_retire", { attacker = side, unit = tid, figures = figures, paths = paths })
  ctx:log(("unit %d must retire %d hex(es): %s chooses the way"):format(
    tid, r.alerts * data.costs.retire_per_alert, t.owner))
  ctx:ask(t.owner)
end

-- The pending retire path of `a` (an answer `retire { path }`), or nil and why not.
local function retire_choice(ctx, a)
  local pending = ctx:global("pending_retire")
  if not pending then return nil, "no unit is waiting to retire" end
  local t = ctx:piece(pending.unit)
  if not t or t.owner ~= a.side then return nil, ("unit %d is not yours"):format(pending.unit) end
  local want = a.path
  if type(want) ~= "table" then return nil, "path: a list of hexes, each toward your baseline" end
  for _, way in ipairs(pending.paths) do
    local same = #way.path == #want
    for i, h in ipairs(way.path) do
      local x = as_hex(want[i])
      same = same and x ~= nil and G.eq(x, h)
    end
    if same then return way, pending end
  end
  return nil, ("unit %d cannot retire that way: %d way(s) are open toward your baseline"):format(
    pending.unit, #pending.paths)
end

return {
  as_hex = as_hex,
  apply_battle = apply_battle,
  settle_battle = settle_battle,
  retire_choice = retire_choice,
  option = option,
  side_value = side_value,
  units = units,
  world = world,
  exits_allowed = exits_allowed,
  exit_ok = exit_ok,
  dice_at = dice_at,
  enemy_adjacent = enemy_adjacent,
  own_unit = own_unit,
  command_kinds = command_kinds,
  is_class = is_class,
  answers = answers,
  ordered_count = ordered_count,
  order_problem = order_problem,
  clear_problem = clear_problem,
  clear_cost = clear_cost,
  reach_for = reach_for,
  close_quarters_from = close_quarters_from,
  move_problem = move_problem,
  battle_problem = battle_problem,
  new_turn = new_turn,
  by_points = by_points,
}
