-- Bringing in ships through the ramps, placing the mobile bases at the start.
-- Lab ramps of north (home planet (0,-7)): 1 = (-1,-6) SW, 2 = (0,-6) S, 3 = (1,-7) SE.
local K = require("testkit")

test("T3 a cruiser enters with its stern on the ramp, facing away from the planet", function(t)
  local g = K.lab(t)
  g:act { id = "deploy", side = "north", kind = "cruiser", ramp = 2 }
  local c = g:pieces { owner = "north", type = "cruiser" }
  t:eq(#c, 1)
  t:eq(K.hex(c[1]), { q = 0, r = -5 })
  t:eq(K.facing(c[1]), 3)
  t:eq(g:footprint(c[1].id), { { q = 0, r = -5 }, { q = 0, r = -6 } })
  t:eq(g:side("north").values.reserve_cruiser, 1)
  -- A5: it may move in the same go.
  g:act { id = "step", side = "north", piece = c[1].id, dir = 3 }
  t:eq(K.hex(g:piece(c[1].id)), { q = 0, r = -4 })
end)

test("T3 one transport, or one cruiser, or up to three fighters per go", function(t)
  local g = K.lab(t)
  g:act { id = "deploy", side = "north", kind = "cruiser", ramp = 1 }
  local ok, why = g:try { id = "deploy", side = "north", kind = "cruiser", ramp = 2 }
  t:falsy(ok)
  t:eq(why, "at most 1 cruiser per go")
  ok, why = g:try { id = "deploy", side = "north", kind = "fighter", ramp = 2 }
  t:falsy(ok)
  t:eq(why, "this go already brings in a cruiser: one transport, one cruiser or three fighters")
  K.next_turn(g)
  for ramp = 1, 3 do g:act { id = "deploy", side = "north", kind = "fighter", ramp = ramp } end
  ok, why = g:try { id = "deploy", side = "north", kind = "fighter", ramp = 1 }
  t:falsy(ok)
  t:eq(why, "at most 3 fighter per go")
  ok, why = g:try { id = "deploy", side = "north", kind = "transport", ramp = 1 }
  t:falsy(ok)
  t:eq(why, "this go already brings in a fighter: one transport, one cruiser or three fighters")
  t:eq(#g:pieces { owner = "north", type = "fighter" }, 3)
  t:eq(g:side("north").values.reserve_fighter, 3)
  local f = g:pieces { owner = "north", type = "fighter" }
  t:eq(K.hex(f[1]), { q = -1, r = -6 })
  K.next_turn(g)
  g:act { id = "deploy", side = "north", kind = "transport", ramp = 3 }
  local tr = g:pieces { owner = "north", type = "transport" }
  t:eq(K.hex(tr[1]), { q = 2, r = -7 })
  t:eq(K.facing(tr[1]), 2)
end)

test("T3 ships come from a finite reserve", function(t)
  local g = K.lab(t)
  g:edit(function(ctx) ctx:set_side("north", "reserve_cruiser", 0) end)
  local ok, why = g:try { id = "deploy", side = "north", kind = "cruiser", ramp = 2 }
  t:falsy(ok)
  t:eq(why, "no cruiser left in reserve")
  ok, why = g:try { id = "deploy", side = "north", kind = "mobile_base", ramp = 2 }
  t:falsy(ok)
  t:eq(why, "only transports, cruisers and fighters can be brought in")
end)

test("T3 a ramp held by an enemy cannot be used", function(t)
  local g = K.lab(t)
  K.spawn(g, "fighter", "south", { q = 0, r = -6 })
  local ok, why = g:try { id = "deploy", side = "north", kind = "fighter", ramp = 2 }
  t:falsy(ok)
  t:eq(why, "an enemy piece is there")
  g:act { id = "deploy", side = "north", kind = "fighter", ramp = 1 }
end)

test("T4 each side first places two mobile bases touching its home planet", function(t)
  local g = t:game { scenario = "standard", seed = 1 }
  -- Standard map: north's home planet is (5,1).
  local ok, why = g:try { id = "end_phase", side = "north" }
  t:falsy(ok)
  t:eq(why, "place your mobile bases first")
  ok, why = g:try { id = "deploy", side = "north", kind = "fighter", ramp = 1 }
  t:falsy(ok)
  t:eq(why, "place your mobile bases first")
  ok, why = g:try { id = "place_base", side = "north", at = { q = 3, r = 5 } }
  t:falsy(ok)
  t:eq(why, "a mobile base must be placed touching the home planet")
  g:act { id = "place_base", side = "north", at = { q = 3, r = 2 } }
  g:act { id = "place_base", side = "north", at = { q = 5, r = 2 } }
  ok, why = g:try { id = "place_base", side = "north", at = { q = 4, r = 0 } }
  t:falsy(ok)
  t:eq(why, "all your mobile bases are placed")
  local bases = g:pieces { owner = "north", type = "mobile_base" }
  t:eq(#bases, 2)
  local first = assert(bases[1], "two bases were placed")
  t:eq(g:footprint(first.id), { { q = 3, r = 2 }, { q = 3, r = 3 }, { q = 4, r = 2 } })
  g:act { id = "deploy", side = "north", kind = "fighter", ramp = 1 }
  g:end_phase("north")
  t:eq(g:clock().active, "south")
  ok, why = g:try { id = "end_phase", side = "south" }
  t:falsy(ok)
end)
