-- game.evaluate, the search bot's heuristic: the race to the victory points, then the figures.

local function near(t, a, b, what) t:ok(math.abs(a - b) < 1e-9, ("%s: %s is not %s"):format(what, a, b)) end

test("evaluate: even at the start, points and lost figures move it", function(t)
  local g = t:game { scenario = "skirmish" }
  local blue, red = g:evaluate("blue"), g:evaluate("red")
  near(t, blue + red, 1, "two sides' values add up")
  -- Points: blue two ahead.
  g:edit(function(ctx) ctx:set_side("blue", "points", 2) end)
  t:ok(g:evaluate("blue") > blue, "points raise blue's value")
  near(t, g:evaluate("blue") + g:evaluate("red"), 1, "still adding up")
  local before = g:evaluate("red")
  -- Figures: a red unit loses one.
  local unit ---@type Piece|nil
  for _, p in ipairs(g:pieces { owner = "red" }) do
    if p.hex then unit = p; break end
  end
  unit = assert(unit, "red has a unit on the battlefield")
  g:edit(function(ctx) ctx:set(unit.id, "figures", unit.values.figures - 1) end)
  t:ok(g:evaluate("red") < before, "a lost figure lowers red's value")
end)
