-- The variant keeps the base's game.evaluate (the search bot's heuristic).

test("evaluate comes from orbital-skirmish: hull shares that add up", function(t)
  local g = t:game { scenario = "gravity-duel" }
  t:ok(math.abs(g:evaluate("blue") + g:evaluate("red") - 1) < 1e-9)
end)
