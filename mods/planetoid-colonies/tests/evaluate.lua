-- game.evaluate (evaluate.lua), the search bot's heuristic: the score first, then the pieces.
local K = require("testkit")

local function near(t, a, b, what) t:ok(math.abs(a - b) < 1e-9, ("%s: %s is not %s"):format(what, a, b)) end

test("evaluate: the two sides' values add up, and a fixed base counts most", function(t)
  local g = K.lab(t)
  K.spawn(g, "cruiser", "north", { q = 4, r = 1 }, 0)
  K.spawn(g, "cruiser", "south", { q = 4, r = -4 }, 0)
  local north = g:evaluate("north")
  near(t, north + g:evaluate("south"), 1, "two sides' values add up")
  -- A fixed base is worth points: north's value jumps.
  K.spawn(g, "fixed_base", "north", { q = 4, r = -2 }, 0, { colour = "blue" })
  t:ok(g:evaluate("north") > north + 0.1, "a base is worth more than a piece")
  near(t, g:evaluate("north") + g:evaluate("south"), 1, "still adding up")
  -- Damage counts too: a hit on the south cruiser raises north's value a little more.
  local before = g:evaluate("north")
  local cruiser = g:pieces { owner = "south", type = "cruiser" }[1]
  g:edit(function(ctx) ctx:set(cruiser.id, "damage", 1) end)
  t:ok(g:evaluate("north") > before, "a hit on the enemy")
end)
