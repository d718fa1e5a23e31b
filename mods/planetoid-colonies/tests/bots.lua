-- Bots: every action offered by `choices` passes its check, and a game driven only by the
-- offered actions reaches its end (random bots pick among the same lists).
local function drive(t, scenario, seed, audit_every, max_actions)
  local g = t:game { scenario = scenario, seed = seed }
  local n = 0
  while g:outcome() == nil and n < max_actions do
    local side = g:clock().active
    local offered = {}
    for _, a in ipairs(g:legal(side)) do
      if a.id ~= "end_phase" then offered[#offered + 1] = a end
    end
    if n % audit_every == 0 then
      for _, a in ipairs(offered) do
        local ok, why = g:try(a)
        if not ok then t:fail(("offered %s refused: %s"):format(a.id, tostring(why))) end
        g:undo()
      end
    end
    -- A fixed walk through the offers: every fifth action ends the go when the rules allow.
    local acted = false
    if n % 5 == 4 or #offered == 0 then acted = g:try { id = "end_phase", side = side } end
    if not acted then g:act(offered[(n * 7) % #offered + 1]) end
    n = n + 1
  end
  return g, n
end

test("T5 bots: a short game driven by the offered actions ends after its last turn", function(t)
  local g = drive(t, "standard-short", 3, 10, 3000)
  local out = g:outcome()
  t:ok(out ~= nil)
  t:matches(out.reason, "after the last turn")
  t:eq(g:clock().round, 6) -- the scenario's turn_limit = 6
end)

test("T4 bots: the standard game's first turns offer only legal actions", function(t)
  local g, n = drive(t, "standard", 5, 7, 150)
  t:eq(n, 150)
  t:eq(#g:pieces { type = "mobile_base" }, 4)
end)

-- The greedy bot (bot.lua) playing both sides of the short game.
local function greedy_game(t, seed, max_actions)
  local g = t:game { scenario = "standard-short", seed = seed }
  local n, counts = 0, {}
  while g:outcome() == nil and n < max_actions do
    local side = g:clock().active
    local a = g:bot("greedy", side)
    if a == nil then t:fail("greedy found nothing to do") end
    counts[a.id] = (counts[a.id] or 0) + 1
    g:act(a)
    n = n + 1
  end
  return g, n, counts
end

test("T5 bots: two greedy bots play the short game to its end, colonising and fighting", function(t)
  local g, n, counts = greedy_game(t, 7, 3000)
  t:ok(n < 3000)
  local out = g:outcome()
  t:ok(out ~= nil)
  t:matches(out.reason, "after the last turn")
  t:eq(g:clock().round, 6)
  -- Greedy, not idle: it places its bases, brings ships in, moves and fires.
  t:eq(counts.place_base, 4)
  t:ok((counts.deploy or 0) > 0)
  t:ok((counts.step or 0) > 0)
  t:ok((counts.fire or 0) > 0)
  t:eq(counts.hyperspace_in, nil)
end)

test("C1 bots: a greedy transport next to an open planetoid steps onto it and colonises", function(t)
  local K = require("testkit")
  local g = K.lab(t, 1)
  local blue ---@type Hex|nil
  g:edit(function(ctx)
    local keys = {}
    for k in pairs(ctx:global("planetoids") or {}) do keys[#keys + 1] = k end
    table.sort(keys)
    local R = require("rules")
    blue = R.unkey(keys[1])
  end)
  t:ok(blue ~= nil)
  assert(blue, "the lab has a blue planetoid in turn 1")
  -- A transport whose bow is one hex south of the planetoid, facing north (towards it).
  local R = require("rules")
  local id = K.spawn(g, "transport", "north", R.step(blue, 3), 0)
  -- Empty reserves, so that bringing in ships does not come first.
  g:edit(function(ctx)
    for _, kind in ipairs({ "transport", "cruiser", "fighter" }) do ctx:set_side("north", "reserve_" .. kind, 0) end
  end)
  local a = g:bot("greedy", "north")
  t:eq(a.id, "step")
  t:eq(a.piece, id)
  g:act(a)
  a = g:bot("greedy", "north")
  t:eq(a.id, "colonise")
  g:act(a)
  t:eq(#g:pieces { type = "fixed_base" }, 1)
  -- Then the transport (it may colonise again, C1) makes for the next planetoid, of whatever
  -- colour: it turns or steps toward it.
  local next_move = assert(g:bot("greedy", "north"), "north has something to do")
  t:ok(next_move.id == "pivot" or next_move.id == "step", next_move.id)
  t:eq(next_move.piece, id)
end)

test("C1 bots: in the standard game greedy transports find their way round the asteroids to planetoids of every colour", function(t)
  -- North greedy, south placing its bases and then passing: by turn 12 (four colour cycles)
  -- north has colonised. Before, its transports made for the nearest planetoid that existed
  -- this turn in a straight line, so they turned to a new goal every turn or stood facing an
  -- asteroid belt, and the standard game ended 0-0 every time.
  local g = t:game { scenario = "standard", seed = 1 }
  for _ = 1, 2000 do
    if g:clock().round > 12 then break end
    local side = assert(g:clock().acting[1], "a side acts")
    if side == "north" or g:clock().round == 1 then
      g:act(assert(g:bot("greedy", side), "greedy finds something to do"))
    else
      g:end_phase(side)
    end
  end
  local north = 0
  for _, b in ipairs(g:pieces { type = "fixed_base" }) do
    if b.owner == "north" then north = north + 1 end
  end
  t:ok(north >= 1, "north colonised " .. north .. " planetoids by turn 12")
end)
