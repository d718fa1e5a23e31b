-- Shared helpers for the game tests (plain functions over the test harness's game handle `g`).
local H = {}

function H.ship(g, side)
  for _, p in ipairs(g:pieces { owner = side }) do
    if (p.type or p.kind) == "ship" then return p end
  end
end

---The torpedoes (of `side` when given), by id.
---@return Piece[]
function H.torps(g, side)
  local out = {}
  for _, p in ipairs(g:pieces(side and { owner = side } or {})) do
    if (p.type or p.kind) == "torpedo" then out[#out + 1] = p end
  end
  table.sort(out, function(a, b) return a.id < b.id end)
  return out
end

---The first torpedo of `side` (by id); fails when it has none.
---@return Piece
function H.torp(g, side)
  local first = assert(H.torps(g, side)[1], "no torpedo of " .. tostring(side))
  return first
end

function H.active(g)
  -- With teams, `active` names the team; the sides that still act are in `acting`.
  local c = g:clock()
  return g:waiting()[1] or c.active
end

---End phases until `side` is active in `phase` (at most 60 phase ends).
function H.go(g, side, phase)
  for _ = 1, 60 do
    local c = g:clock()
    if c.phase == phase and H.active(g) == side then return end
    g:end_phase(H.active(g))
  end
  error("never reached " .. side .. " " .. phase)
end

---Plays the design stage of setup in play: every player picks `design` (default "lancer";
---a function of the side may choose) for each of its ships unless the setup is advanced, marks
---it final and ends its turn, until every design is final; then ends phases until the next
---round begins (the first player's deploy turn, when anomalies and ships are placed).
function H.designs(g, design)
  for _ = 1, 200 do
    if g:global("designs_round") ~= nil then break end
    local side = H.active(g)
    if g:clock().phase == "deploy" then
      for _, p in ipairs(g:pieces { owner = side, type = "ship" }) do
        if not p.values.design_final then
          local d = type(design) == "function" and design(side) or design or "lancer"
          local pick = { id = "choose_design", side = side, ship = p.id, design = d }
          if g:check(pick) then g:act(pick) end -- (not in the advanced setup)
          g:act { id = "finish_design", side = side, ship = p.id }
        end
      end
    end
    if g:global("designs_round") == nil then g:end_phase(side) end
  end
  local r = g:global("designs_round")
  if r == nil then error("the designs never became final") end
  for _ = 1, 200 do
    if g:clock().round > r then return end
    g:end_phase(H.active(g))
  end
  error("the round after the designs never began")
end

---Every die value rolled by the last action, in order.
function H.dice(g)
  local out = {}
  for _, r in ipairs(g:rolls() or {}) do
    if type(r.dice) == "table" then
      for _, d in ipairs(r.dice) do out[#out + 1] = type(d) == "table" and (d.value or d.face) or d end
    elseif type(r.faces) == "table" then
      for _, d in ipairs(r.faces) do out[#out + 1] = d end
    else
      out[#out + 1] = r.total
    end
  end
  return out
end

---Set terrain (and the mod's anomaly map) outside the rules.
function H.terrain(g, list)
  g:edit(function(ctx)
    local map = ctx:global("terrain") or {}
    for _, e in ipairs(list) do
      map[e[1].q .. "," .. e[1].r] = e[2]
      ctx:set_terrain(e[1], { e[2] })
    end
    ctx:set_global("terrain", map)
  end)
end

---A small deterministic generator for picking among legal actions in full-game tests.
function H.lcg(seed)
  local s = seed
  return function(n)
    s = (s * 1103515245 + 12345) % 2147483648
    return s % n + 1
  end
end

---Play to the end with seeded uniform choices; returns the outcome (or nil) and the steps.
function H.play(g, seed, max_steps)
  local pick = H.lcg(seed)
  for step = 1, max_steps do
    if g:outcome() then return g:outcome(), step end
    -- The first acting side that still has something to do (a team member that ended the
    -- phase waits for the others).
    local side, legal = nil, {} ---@type string|nil, ActionTable[]
    for _, s in ipairs(g:waiting()) do
      legal = g:legal(s)
      if #legal > 0 then side = s; break end
    end
    if side == nil then return nil, step end
    local acts = {}
    for _, a in ipairs(legal) do if a.id ~= "end_phase" then acts[#acts + 1] = a end end
    local k = pick(#acts + 1)
    if k > #acts then
      local ok = g:try { id = "end_phase", side = side }
      if not ok then
        if #acts == 0 then return nil, step end
        local a = acts[pick(#acts)]; a.side = side; g:act(a)
      end
    else
      local a = acts[k]; a.side = side; g:act(a)
    end
  end
  return g:outcome(), max_steps
end

---Play to the end: sides named in `bots` use that Lua bot (via g:bot), the others pick with the
---seeded uniform generator. Returns the outcome (or nil) and the steps.
function H.play_bots(g, bots, seed, max_steps)
  local pick = H.lcg(seed)
  for step = 1, max_steps do
    if g:outcome() then return g:outcome(), step end
    local side, legal = nil, {} ---@type string|nil, ActionTable[]
    for _, s in ipairs(g:waiting()) do
      legal = g:legal(s)
      if #legal > 0 then side = s; break end
    end
    if side == nil then return nil, step end
    local a ---@type ActionTable|nil
    if bots[side] then a = g:bot(bots[side], side) else a = legal[pick(#legal)] end
    assert(a, "a side with legal actions has one to take")
    a.side = side
    -- The engine lists end_phase without asking the rules; g:try performs it when allowed, and
    -- a refused one is simply chosen again (as the CLI does).
    if a.id == "end_phase" then g:try(a) else g:act(a) end
  end
  return g:outcome(), max_steps
end

return H
