-- Board rules: obstacles, planetoids by colour, planetoids appearing under ships.
-- Lab map: asteroid wall (-5,-2) (-4,-2) (-3,-2); planetoids blue (4,-2), red (-4,3),
-- yellow (6,2); home planets (0,-7) and (0,7). Turn 1 is blue.
local K = require("testkit")

test("B2 asteroid belts cannot be entered", function(t)
  local g = K.lab(t)
  local f = K.spawn(g, "fighter", "north", { q = -4, r = -1 })
  local ok, why = g:try { id = "step", side = "north", piece = f, dir = 0 }
  t:falsy(ok)
  t:eq(why, "blocked by asteroid belt")
  g:act { id = "step", side = "north", piece = f, dir = 5 }
  t:eq(K.hex(g:piece(f)), { q = -5, r = -1 })
end)

test("B1 home planets cannot be entered", function(t)
  local g = K.lab(t)
  local f = K.spawn(g, "fighter", "north", { q = 0, r = -6 })
  local ok, why = g:try { id = "step", side = "north", piece = f, dir = 0 }
  t:falsy(ok)
  t:eq(why, "blocked by home planet")
end)

test("B4 an existing planetoid is closed to fighters but open to transports", function(t)
  local g = K.lab(t)
  local f = K.spawn(g, "fighter", "north", { q = 4, r = -1 })
  local ok, why = g:try { id = "step", side = "north", piece = f, dir = 0 }
  t:falsy(ok)
  t:eq(why, "only transports may enter a planetoid")
  -- A transport facing N, bow (4,-1), stern (4,0): one step puts its bow on the planetoid.
  local tr = K.spawn(g, "transport", "north", { q = 4, r = -1 }, 0)
  g:act { id = "step", side = "north", piece = tr, dir = 0 }
  t:eq(K.hex(g:piece(tr)), { q = 4, r = -2 })
end)

test("B4 a planetoid of another colour is empty space", function(t)
  local g = K.lab(t)
  local f = K.spawn(g, "fighter", "north", { q = -4, r = 4 })
  g:act { id = "step", side = "north", piece = f, dir = 0 }
  t:eq(K.hex(g:piece(f)), { q = -4, r = 3 })
end)

test("B5 a planetoid appearing under a ship destroys it; one next to a ship does not", function(t)
  local g = K.lab(t)
  local f = K.spawn(g, "fighter", "north", { q = -4, r = 3 })     -- on the red planetoid
  local c = K.spawn(g, "cruiser", "south", { q = -3, r = 3 }, 0)  -- bow adjacent to it
  K.next_turn(g)                                                   -- turn 2 is red
  t:eq(g:clock().label, "red")
  t:eq(g:piece(f), nil)
  t:ok(g:piece(c) ~= nil)
end)

test("C4 a transport may wait on an absent planetoid and colonise when it appears", function(t)
  local g = K.lab(t)
  local tr = K.spawn(g, "transport", "north", { q = -4, r = 3 }, 0)
  local ok, why = g:try { id = "colonise", side = "north", piece = tr, at = { q = -4, r = 3 } }
  t:falsy(ok)
  t:eq(why, "no planetoid exists there this turn")
  K.next_turn(g)
  t:ok(g:piece(tr) ~= nil)
  g:act { id = "colonise", side = "north", piece = tr, at = { q = -4, r = 3 } }
  local bases = g:pieces { owner = "north", type = "fixed_base" }
  t:eq(#bases, 1)
  t:eq(K.hex(bases[1]), { q = -4, r = 3 })
end)
