-- turns.lua: the turn events of planetoid-colonies: repairs at the end of a go, the colour
-- cycle and the planetoids it brings at each turn's start, the score after every action, setup,
-- and the end after the last turn. main.lua requires it after declaring the actions.

local data = require("data")
local R = require("rules")
local E = require("env")

--------------------------------------------------------------------------------------------
-- Turn events
--------------------------------------------------------------------------------------------

-- Repairs at the end of `side`'s go (rules R1, R2).
local function repairs(ctx, side)
  local e = E.env(ctx)
  local bases = {}
  for _, id in ipairs(e.order) do
    local entry = e.pieces[id]
    if entry.p.owner == side and data.pieces[entry.kind].repairs and not entry.p.values.moved then
      bases[#bases + 1] = entry
    end
  end
  if #bases == 0 then return end
  for _, id in ipairs(e.order) do
    local entry = e.pieces[id]
    local v = entry.p.values
    local t = data.pieces[entry.kind]
    if entry.p.owner == side and (v.damage or 0) > 0 and not t.fixed and not v.moved and not v.fired then
      local helped = false
      for _, b in ipairs(bases) do
        if b.p.id ~= id and R.gap(b.fp, entry.fp) <= 1 then helped = true end
      end
      if helped then
        local progress = (v.repair_progress or 0) + 1
        if progress >= t.repair_turns then
          ctx:set(id, "damage", v.damage - 1)
          ctx:set(id, "repair_progress", 0)
          ctx:log(("%s %d is repaired to damage %d"):format(t.name, id, v.damage - 1))
        else
          ctx:set(id, "repair_progress", progress)
          ctx:log(("%s %d: repair under way"):format(t.name, id))
        end
      end
    end
  end
end

local function start_go(ctx, side)
  local last = ctx:global("last_taker")
  if last and last ~= "" then repairs(ctx, last) end
  for _, p in ipairs(ctx:pieces({ owner = side })) do
    for k, v in pairs(data.per_turn) do
      if type(v) == "table" then ctx:set(p.id, k, {}) else ctx:set(p.id, k, v) end
    end
  end
  -- Explosions made by this side have now lasted through the other side's go.
  local blasts, kept = ctx:global("blasts") or {}, {}
  for k, owner in pairs(blasts) do
    if owner ~= side then kept[k] = owner end
  end
  ctx:set_global("blasts", kept)
  ctx:set_global("last_taker", side)
  ctx:set_global("current", 0)
  ctx:set_global("deployed_kind", "")
  ctx:set_global("deployed_count", 0)
end

local function start_turn(ctx)
  R.refresh_map(ctx)
  -- A planetoid appearing under a ship destroys it (transports may wait there).
  local e = E.env(ctx)
  for _, id in ipairs(e.order) do
    local entry = e.pieces[id]
    local t = data.pieces[entry.kind]
    if ctx:piece(id) and not t.enters_planetoids and not t.fixed then
      for _, h in ipairs(entry.fp) do
        if e:is_planetoid(h) and ctx:piece(id) then
          ctx:log(("a %s planetoid appears under %s %d"):format(R.colour(ctx), t.name:lower(), id))
          R.destroy(ctx, E.env(ctx), id)
          break
        end
      end
    end
  end
end

local function update_scores(ctx)
  for _, s in ipairs(ctx:sides()) do
    ctx:set_side(s.id, "score", R.score(ctx, s.id))
  end
end

-- Scores every side and ends the game (rule T5).
local function finish(ctx)
  local best = -1 ---@type number
  local winners, parts = {}, {}
  for _, s in ipairs(ctx:sides()) do
    local score = R.score(ctx, s.id)
    ctx:set_side(s.id, "score", score)
    parts[#parts + 1] = ("%s %d"):format(s.id, score)
    if score > best then
      best, winners = score, { s.id }
    elseif score == best then
      winners[#winners + 1] = s.id
    end
  end
  if #winners > 1 then winners = {} end
  ctx:end_game { winners = winners, reason = "after the last turn: " .. table.concat(parts, ", ") }
end

game.setup(function(ctx)
  R.refresh_map(ctx)
  ctx:set_global("blasts", {})
  ctx:set_global("current", 0)
  ctx:set_global("last_taker", "")
  ctx:set_global("deployed_kind", "")
  ctx:set_global("deployed_count", 0)
  for _, s in ipairs(ctx:sides()) do
    local v = s.values or {}
    if v.bases_to_place == nil then ctx:set_side(s.id, "bases_to_place", 0) end
    for _, kind in ipairs({ "transport", "cruiser", "fighter" }) do
      if v["reserve_" .. kind] == nil then ctx:set_side(s.id, "reserve_" .. kind, 0) end
    end
    ctx:set_side(s.id, "score", 0)
  end
end)

game.on("round_start", function(ctx) start_turn(ctx) end)

game.on("turn_start", function(ctx, ev)
  local side = ctx.active or (ev and ev.taker)
  if side then start_go(ctx, side) end
end)

game.on("after_action", function(ctx) update_scores(ctx) end)

-- The game ends after its last turn: 51, or a scenario's own `turn_limit` (the short game's 6).
game.on("turn_limit", function(ctx) finish(ctx) end)

game.victory(function() return nil end)
