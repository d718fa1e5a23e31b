-- Movement: one piece at a time, stacking, and the four ways pieces move.
-- Lab map: asteroid wall (-5,-2) (-4,-2) (-3,-2); blue planetoid (4,-2) exists in turn 1.
local K = require("testkit")

test("T1 once another piece acts, the earlier one has finished its turn", function(t)
  local g = K.lab(t)
  local a = K.spawn(g, "fighter", "north", { q = 2, r = 0 })
  local b = K.spawn(g, "fighter", "north", { q = 2, r = 2 })
  g:act { id = "step", side = "north", piece = a, dir = 0 }
  g:act { id = "step", side = "north", piece = a, dir = 0 }
  g:act { id = "step", side = "north", piece = b, dir = 0 }
  local ok, why = g:try { id = "step", side = "north", piece = a, dir = 0 }
  t:falsy(ok)
  t:eq(why, "piece " .. a .. " has finished for this turn")
  t:eq(g:piece(a).values.done, true)
  -- Its next turn it may act again.
  K.next_turn(g)
  g:act { id = "step", side = "north", piece = a, dir = 0 }
  t:eq(K.hex(g:piece(a)), { q = 2, r = -3 })
end)

test("T1 only the side whose go it is may act", function(t)
  local g = K.lab(t)
  local s = K.spawn(g, "fighter", "south", { q = 0, r = 3 })
  local ok, why = g:try { id = "step", side = "south", piece = s, dir = 0 }
  t:falsy(ok)
  t:ok(why ~= nil)
end)

test("T2 own pieces may be crossed and stacked; enemy pieces may not", function(t)
  local g = K.lab(t)
  local f1 = K.spawn(g, "fighter", "north", { q = 1, r = 1 })
  local f2 = K.spawn(g, "fighter", "north", { q = 1, r = 2 })
  local c = K.spawn(g, "cruiser", "north", { q = 1, r = 1 }, 0)   -- bow (1,1), stern (1,2)
  local e = K.spawn(g, "fighter", "south", { q = 1, r = -1 })
  g:act { id = "step", side = "north", piece = f2, dir = 0 }      -- onto f1 and the cruiser
  t:eq(K.hex(g:piece(f2)), { q = 1, r = 1 })
  g:act { id = "step", side = "north", piece = f2, dir = 0 }
  t:eq(K.hex(g:piece(f2)), { q = 1, r = 0 })
  local ok, why = g:try { id = "step", side = "north", piece = f2, dir = 0 }
  t:falsy(ok)
  t:eq(why, "an enemy piece is there")
  t:ok(g:piece(f1) and g:piece(c) and g:piece(e))
end)

test("P1 a mobile base slides up to 2 hexes in any directions and never turns", function(t)
  local g = K.lab(t)
  local b = K.spawn(g, "mobile_base", "north", { q = -1, r = -4 })
  g:act { id = "step", side = "north", piece = b, dir = 2 }
  g:act { id = "step", side = "north", piece = b, dir = 4 }
  t:eq(K.hex(g:piece(b)), { q = -1, r = -3 })
  t:eq(K.facing(g:piece(b)), 0)
  local ok, why = g:try { id = "step", side = "north", piece = b, dir = 3 }
  t:falsy(ok)
  t:eq(why, "no movement left: 2 hexes a turn")
  ok, why = g:try { id = "pivot", side = "north", piece = b, facing = 3 }
  t:falsy(ok)
  t:eq(why, "only cruisers and transports pivot")
end)

test("P1 a mobile base keeps 3 hexes from existing planetoids", function(t)
  local g = K.lab(t)
  -- Footprint (0,-2) (0,-1) (1,-2): 3 or more from the blue planetoid (4,-2).
  local b = K.spawn(g, "mobile_base", "north", { q = 0, r = -2 })
  local ok, why = g:try { id = "step", side = "north", piece = b, dir = 2 }  -- (2,-2) is 2 away
  t:falsy(ok)
  t:eq(why, "a mobile base must stay 3 hexes from planetoids")
  g:act { id = "step", side = "north", piece = b, dir = 3 }                 -- (1,-1) is 3 away
  t:eq(K.hex(g:piece(b)), { q = 0, r = -1 })
end)

test("P2 a cruiser moves straight ahead up to 9 hexes, counted by the bow", function(t)
  local g = K.lab(t)
  local c = K.spawn(g, "cruiser", "north", { q = 2, r = 4 }, 0)
  local ok, why = g:try { id = "step", side = "north", piece = c, dir = 1 }
  t:falsy(ok)
  t:eq(why, "it moves straight ahead only")
  for _ = 1, 9 do g:act { id = "step", side = "north", piece = c, dir = 0 } end
  t:eq(K.hex(g:piece(c)), { q = 2, r = -5 })
  ok, why = g:try { id = "step", side = "north", piece = c, dir = 0 }
  t:falsy(ok)
  t:eq(why, "no movement left: 9 hexes a turn")
end)

test("P2 a cruiser pivots on its bow at the end of its move, any angle, then stops", function(t)
  local g = K.lab(t)
  local c = K.spawn(g, "cruiser", "north", { q = 2, r = 4 }, 0)
  g:act { id = "step", side = "north", piece = c, dir = 0 }
  g:act { id = "pivot", side = "north", piece = c, facing = 3 }
  local p = g:piece(c)
  t:eq(K.hex(p), { q = 2, r = 3 })
  t:eq(K.facing(p), 3)
  t:eq(g:footprint(c), { { q = 2, r = 3 }, { q = 2, r = 2 } })
  local ok, why = g:try { id = "step", side = "north", piece = c, dir = 3 }
  t:falsy(ok)
  t:eq(why, "a ship that has pivoted has ended its move")
  ok, why = g:try { id = "pivot", side = "north", piece = c, facing = 1 }
  t:falsy(ok)
  t:eq(why, "it has already pivoted this turn")
end)

test("P2 a cruiser keeps 2 hexes from existing planetoids", function(t)
  local g = K.lab(t)
  local c = K.spawn(g, "cruiser", "north", { q = 4, r = 1 }, 0)
  g:act { id = "step", side = "north", piece = c, dir = 0 }               -- bow (4,0): 2 away
  local ok, why = g:try { id = "step", side = "north", piece = c, dir = 0 } -- (4,-1): 1 away
  t:falsy(ok)
  t:eq(why, "a cruiser must stay 2 hexes from planetoids")
  -- A pivot's new stern obeys it too (A10): facing S puts the stern on (4,-1).
  ok, why = g:try { id = "pivot", side = "north", piece = c, facing = 3 }
  t:falsy(ok)
  t:eq(why, "a cruiser must stay 2 hexes from planetoids")
end)

test("P3 a fighter zig-zags up to 9 hexes", function(t)
  local g = K.lab(t)
  local f = K.spawn(g, "fighter", "north", { q = -2, r = 5 })
  for i = 1, 9 do g:act { id = "step", side = "north", piece = f, dir = (i % 2 == 1) and 0 or 1 } end
  t:eq(K.hex(g:piece(f)), { q = 2, r = -4 })
  local ok, why = g:try { id = "step", side = "north", piece = f, dir = 3 }
  t:falsy(ok)
  t:eq(why, "no movement left: 9 hexes a turn")
end)

test("P4 a transport moves like a cruiser", function(t)
  local g = K.lab(t)
  local tr = K.spawn(g, "transport", "north", { q = -1, r = 4 }, 0)
  local ok, why = g:try { id = "step", side = "north", piece = tr, dir = 2 }
  t:falsy(ok)
  t:eq(why, "it moves straight ahead only")
  for _ = 1, 9 do g:act { id = "step", side = "north", piece = tr, dir = 0 } end
  t:eq(K.hex(g:piece(tr)), { q = -1, r = -5 })
  ok, why = g:try { id = "step", side = "north", piece = tr, dir = 0 }
  t:falsy(ok)
  t:eq(why, "no movement left: 9 hexes a turn")
end)

test("P5 a cruiser fires before, during and after its move", function(t)
  local g = K.lab(t)
  local c = K.spawn(g, "cruiser", "north", { q = 0, r = 3 }, 0)
  local e = K.spawn(g, "mobile_base", "south", { q = 4, r = 2 })
  g:act { id = "fire", side = "north", piece = c, target = e }
  g:act { id = "step", side = "north", piece = c, dir = 0 }
  g:act { id = "fire", side = "north", piece = c, target = e }
  g:act { id = "step", side = "north", piece = c, dir = 0 }
  t:eq(K.hex(g:piece(c)), { q = 0, r = 1 })
  local ok, why = g:try { id = "fire", side = "north", piece = c, target = e }
  t:falsy(ok)
  t:eq(why, "no shots left: 2 a turn")
end)
