-- The changed rule, proved in a real game: the same steps as solar-flare's own power test,
-- with 2 more power in the pool.
local H = require("tests._helpers")

test("a ship's pool is 6 base power plus its generators", function(t)
  local g = t:game { scenario = "range", seed = 5 }
  H.go(g, "red", "movement")
  local red = H.ship(g, "red")
  for _ = 1, 4 do g:act { id = "forward", side = "red", ship = red.id, evade = 0 } end
  g:end_phase("red")
  t:eq(g:clock().phase, "power")
  g:act { id = "transfer", side = "red", ship = red.id, crew = 1, comp = 7, amount = 3, battery = 0 }
  t:eq(g:piece(red.id).values.pool, 7) -- 6 + generator 4 = 10, 3 used (solar-flare: 5)
end)
