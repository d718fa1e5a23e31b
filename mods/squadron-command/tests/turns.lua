-- Turns, command tokens and victory.
local k = require("testkit")

-- Plays one whole turn for `side` without ordering anyone.
local function pass_turn(g, side)
  g:act { id = "command", side = side, by = "left" }
  g:end_phase(side) -- order
  g:end_phase(side) -- move
  g:end_phase(side) -- fight
  g:end_phase(side) -- end
end

test("a turn is order, move, fight, end; the sides alternate, blue first", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  t:eq(g:clock().phase, "order")
  g:act { id = "command", side = "blue", by = "left" }
  g:end_phase("blue")
  t:eq(g:clock().phase, "move")
  g:end_phase("blue")
  t:eq(g:clock().phase, "fight")
  g:end_phase("blue")
  t:eq(g:clock().phase, "end")
  g:end_phase("blue")
  t:eq(g:clock().active, "red")
  t:eq(g:clock().phase, "order")
  local ok, why = g:try { id = "command", side = "blue", by = "left" }
  t:falsy(ok)
  t:ok(why ~= nil)
end)

test("a side gains a command token at the end of its turn", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  t:eq(k.side(g, "blue").values.tokens, 2)
  g:act { id = "command", side = "blue", by = "left" }
  g:end_phase("blue")
  g:end_phase("blue")
  g:end_phase("blue")
  t:eq(g:clock().phase, "end")
  t:eq(k.side(g, "blue").values.tokens, 3)
  t:eq(k.side(g, "red").values.tokens, 2)
end)

test("the first side to the scenario's victory points wins", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  g:edit(function(ctx)
    ctx:set_side("blue", "points", 4)
  end)
  g:act { id = "command", side = "blue", by = "left" }
  t:eq(g:outcome(), nil)
  g:edit(function(ctx)
    ctx:set_side("blue", "points", 5)
  end)
  g:end_phase("blue")
  t:eq(k.outcome(g).winners, { "blue" })
  t:eq(k.outcome(g).reason, "blue reached 5 victory points")
end)

test("breakthrough is played to 6 points", function(t)
  local g = t:game { scenario = "breakthrough", seed = 1 }
  g:edit(function(ctx)
    ctx:set_side("red", "points", 5)
  end)
  g:act { id = "command", side = "blue", by = "left" }
  t:eq(g:outcome(), nil)
  g:edit(function(ctx)
    ctx:set_side("red", "points", 6)
  end)
  g:end_phase("blue")
  t:eq(k.outcome(g).winners, { "red" })
end)

test("destroying a unit in battle scores and can end the game", function(t)
  local g = t:game { scenario = "skirmish", seed = 3 }
  local ids = k.arrange(g, {
    { "battleship", "blue", 4, 4 }, { "fighter", "red", 4, 3, { figures = 1 } }, { "fighter", "red", 0, 0 },
  })
  g:edit(function(ctx)
    ctx:set_side("blue", "points", 4)
  end)
  k.to_fight(g, "blue", "capital", { ids[1] })
  -- roll until the fighter is hit (each try is a fresh battle in a fresh turn)
  for _ = 1, 30 do
    t:ok(g:try { id = "battle", side = "blue", piece = ids[1], target = ids[2] })
    if g:piece(ids[2]) == nil then
      break
    end
    g:edit(function(ctx)
      ctx:set(ids[1], "fought", false)
      ctx:move(ids[2], { q = 4, r = 3 })
      ctx:set(ids[2], "figures", 1)
    end)
  end
  t:eq(g:piece(ids[2]), nil)
  t:eq(k.side(g, "blue").values.points, 5)
  t:eq(k.outcome(g).winners, { "blue" })
end)

test("a side with no units left on the battlefield ends the game on points", function(t)
  local g = t:game { scenario = "breakthrough", seed = 1 }
  local ids = k.arrange(g, { { "cruiser", "blue", 6, 1 }, { "cruiser", "red", 0, 0 } })
  k.to_move(g, "blue", "strike", { ids[1] })
  t:ok(k.move(g, "blue", ids[1], 6, -1)) -- leaves off red's baseline: 2 points, and no blue unit is left
  t:eq(k.outcome(g).winners, { "blue" })
  t:eq(k.outcome(g).reason, "blue has no units left on the battlefield: most victory points (2)")
end)

test("at the turn limit the side with more points wins", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  g:edit(function(ctx)
    ctx:set_side("red", "points", 1)
  end)
  local turns = 0
  while g:outcome() == nil and turns < 100 do
    pass_turn(g, g:clock().active)
    turns = turns + 1
  end
  t:eq(turns, 32) -- 16 rounds of two turns
  t:eq(k.outcome(g).winners, { "red" })
  t:matches(k.outcome(g).reason, "turn limit")
end)

test("at the turn limit, level points are a draw", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  local turns = 0
  while g:outcome() == nil and turns < 100 do
    pass_turn(g, g:clock().active)
    turns = turns + 1
  end
  t:eq(k.outcome(g).winners, {})
end)
