-- The whole game: victory, the turn limit, objectives, and bots that finish every scenario.

-- Play with a fixed, varied choice (not random: tests must be repeatable) until the end.
local function play_out(g, max_actions)
  for i = 1, max_actions do
    if g:outcome() then return i end
    local side = g:clock().acting[1]
    local legal = g:legal(side)
    g:act(legal[(i * 7) % #legal + 1])
  end
  return nil
end

test("the side with the only ships left on the map wins", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  t:eq(g:outcome(), nil)
  g:edit(function(ctx) ctx:set(2, "damage", 39) end)
  -- Red's frigate flies off the map: Blue wins.
  g:edit(function(ctx) ctx:move(1, { q = 0, r = 9 }, 3); ctx:set(1, "speed", 2) end)
  g:act { id = "speed", side = "blue", piece = 1, speed = 2 }
  g:act { id = "move", side = "blue", piece = 1, plan = "FF" }
  local o = assert(g:outcome(), "the game is over")
  t:eq(o.winners, { "red" })
  t:matches(o.reason, "only ships left")
end)

test("station raid: destroying the station wins for the raiders", function(t)
  local g = t:game { scenario = "station", seed = 1 }
  t:eq(g:piece(1).type, "station")
  g:edit(function(ctx) ctx:destroy(1) end)
  local a ---@type ActionTable|nil
  for _, x in ipairs(g:legal("raiders")) do if x.id == "speed" then a = x; break end end
  g:act(assert(a, "the raiders may choose a speed"))
  local o = assert(g:outcome(), "the game is over")
  t:eq(o.winners, { "raiders" })
  t:matches(o.reason, "station is destroyed")
end)

test("at the turn limit the side with more hull left wins (duel)", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  -- Both frigates stop far apart and out of range, then sit still to the turn limit.
  g:edit(function(ctx)
    ctx:move(1, { q = -9, r = 9 }, 0); ctx:move(2, { q = 9, r = -9 }, 3)
    ctx:set(2, "damage", 10)
  end)
  local n = 0
  while not g:outcome() and n < 400 do
    n = n + 1
    local c = g:clock()
    local side = assert(c.acting[1], "a side acts")
    if c.phase == "move" then
      local id = side == "blue" and 1 or 2
      local p = g:piece(id)
      if p.values.new_speed < 0 then
        g:act { id = "speed", side = side, piece = id, speed = 0 }
      elseif not p.values.moved then
        g:act { id = "move", side = side, piece = id, plan = "", facing = p.facing }
      else
        g:end_phase(side)
      end
    else
      g:end_phase(side)
    end
  end
  local o = assert(g:outcome(), "the game is over")
  t:eq(o.winners, { "blue" })
  t:matches(o.reason, "most hull")
end)

test("every scenario plays to an end with bots", function(t)
  for _, s in ipairs({ "duel", "fleet", "station" }) do
    local g = t:game { scenario = s, seed = 7 }
    t:ok(play_out(g, 3000) ~= nil)
    t:ok(g:outcome() ~= nil)
  end
end)

test("the greedy bot stops with an enemy next to it, and orbits a planet next to it with an enemy near", function(t)
  local function ready(g, id, h, f, speed)
    g:edit(function(ctx)
      ctx:move(id, h, f)
      ctx:set(id, "speed", speed)
      ctx:set(id, "new_speed", -1)
      ctx:set(id, "moved", false)
      ctx:set(id, "orbit", false)
    end)
  end
  local g = t:game { scenario = "duel", seed = 1 }
  ready(g, 1, { q = 4, r = 4 }, 0, 2)
  g:edit(function(ctx) ctx:move(2, { q = 4, r = 3 }, 3) end)
  local a = assert(g:bot("greedy", "blue"), "blue has legal actions")
  t:eq({ a.id, a.speed }, { "speed", 0 })
  -- Next to the planet at (0,0), the enemy 4 hexes off: an orbit, facing the enemy.
  g = t:game { scenario = "duel", seed = 1 }
  ready(g, 1, { q = 0, r = 1 }, 3, 2)
  g:edit(function(ctx) ctx:move(2, { q = 0, r = 5 }, 0) end)
  a = assert(g:bot("greedy", "blue"), "blue has legal actions")
  t:eq(a.id, "orbit")
end)

test("the greedy bot (game.bots.greedy) beats a bot that does not aim", function(t)
  local wins = 0
  for seed = 1, 4 do
    local g = t:game { scenario = "duel", seed = seed }
    for i = 1, 3000 do
      if g:outcome() then break end
      local side = assert(g:clock().acting[1], "a side acts")
      local legal = g:legal(side)
      if side == "blue" then g:act(assert(g:bot("greedy", side), "blue has legal actions"))
      else g:act(assert(legal[(i * 7 + seed) % #legal + 1], "an index into legal")) end
    end
    local o = g:outcome()
    if o and #o.winners == 1 and o.winners[1] == "blue" then wins = wins + 1 end
  end
  t:ok(wins >= 3)
end)
