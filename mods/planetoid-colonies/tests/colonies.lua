-- Repair next to mobile bases, colonisation, fixed bases, scoring and the end of the game.
-- Lab map: blue planetoid (4,-2) (turns 1, 4, ...), red (-4,3) (2, 5, ...), yellow (6,2).
local K = require("testkit")

test("R1 an idle damaged ship touching an idle own mobile base is repaired by 1 a go", function(t)
  local g = K.lab(t)
  K.spawn(g, "mobile_base", "north", { q = -2, r = 4 })                       -- (-2,4) (-2,5) (-1,4)
  local a = K.spawn(g, "cruiser", "north", { q = 0, r = 4 }, 0, { damage = 2 }) -- touching, idle
  local b = K.spawn(g, "cruiser", "north", { q = 0, r = 3 }, 0, { damage = 2 }) -- touching, fires
  local c = K.spawn(g, "cruiser", "north", { q = 3, r = 0 }, 0, { damage = 1 }) -- far away
  local d = K.spawn(g, "transport", "north", { q = -3, r = 6 }, 0, { damage = 1 }) -- touching, pivots
  local s = K.spawn(g, "fighter", "south", { q = 0, r = 0 })
  g:act { id = "fire", side = "north", piece = b, target = s }
  g:act { id = "pivot", side = "north", piece = d, facing = 1 }
  g:end_phase("north")
  t:eq(g:piece(a).values.damage, 1)
  t:eq(g:piece(b).values.damage, 2)
  t:eq(g:piece(c).values.damage, 1)
  t:eq(g:piece(d).values.damage, 1)
end)

test("R1 no repair in a go in which the mobile base moved", function(t)
  local g = K.lab(t)
  local m = K.spawn(g, "mobile_base", "north", { q = -2, r = 4 })
  local a = K.spawn(g, "cruiser", "north", { q = 0, r = 4 }, 0, { damage = 2 })
  g:act { id = "step", side = "north", piece = m, dir = 4 }
  g:act { id = "step", side = "north", piece = m, dir = 1 }
  t:eq(K.hex(g:piece(m)), { q = -2, r = 4 })
  g:end_phase("north")
  t:eq(g:piece(a).values.damage, 2)
  g:end_phase("south")
  g:end_phase("north")
  t:eq(g:piece(a).values.damage, 1)
end)

test("R2 a mobile base needs two goes per damage", function(t)
  local g = K.lab(t)
  K.spawn(g, "mobile_base", "north", { q = -2, r = 4 })
  local m2 = K.spawn(g, "mobile_base", "north", { q = -4, r = 5 }, 0, { damage = 1 })
  g:end_phase("north")
  t:eq(g:piece(m2).values.damage, 1)
  t:eq(g:piece(m2).values.repair_progress, 1)
  g:end_phase("south")
  g:end_phase("north")
  t:eq(g:piece(m2).values.damage, 0)
end)

test("C1 an undamaged transport on an existing planetoid founds a fixed base", function(t)
  local g = K.lab(t)
  local tr = K.spawn(g, "transport", "north", { q = 4, r = -2 }, 0)   -- bow on the blue planetoid
  local ok, why = g:try { id = "colonise", side = "north", piece = tr, at = { q = 4, r = -1 } }
  t:falsy(ok)
  t:eq(why, "no planetoid exists there this turn")
  g:act { id = "colonise", side = "north", piece = tr, at = { q = 4, r = -2 } }
  local bases = g:pieces { owner = "north", type = "fixed_base" }
  t:eq(#bases, 1)
  t:eq(K.hex(bases[1]), { q = 4, r = -2 })
  t:eq(bases[1].values.colour, "blue")
  ok, why = g:try { id = "colonise", side = "north", piece = tr, at = { q = 4, r = -2 } }
  t:falsy(ok)
  t:eq(why, "that planetoid already has a fixed base")
  -- The fixed base is an enemy piece to the other side.
  g:act { id = "step", side = "north", piece = tr, dir = 0 }
  g:act { id = "step", side = "north", piece = tr, dir = 0 }           -- now (4,-4) (4,-3)
  g:end_phase("north")
  local s = K.spawn(g, "transport", "south", { q = 5, r = -2 }, 5)     -- bow (5,-2), stern (6,-2)
  ok, why = g:try { id = "step", side = "south", piece = s, dir = 5 }
  t:falsy(ok)
  t:eq(why, "an enemy piece is there")
  ok, why = g:try { id = "step", side = "north", piece = bases[1].id, dir = 0 }
  t:falsy(ok)
end)

test("C1 a damaged transport may not colonise; only transports colonise", function(t)
  local g = K.lab(t)
  local tr = K.spawn(g, "transport", "north", { q = 4, r = -2 }, 0, { damage = 1 })
  local ok, why = g:try { id = "colonise", side = "north", piece = tr, at = { q = 4, r = -2 } }
  t:falsy(ok)
  t:eq(why, "only an undamaged transport may colonise")
  local f = K.spawn(g, "fighter", "north", { q = 4, r = -1 })
  ok, why = g:try { id = "colonise", side = "north", piece = f, at = { q = 4, r = -1 } }
  t:falsy(ok)
  t:eq(why, "only transports colonise")
end)

test("C3 a fixed base exists only while its planetoid does, and never moves", function(t)
  local g = K.lab(t)
  local base = K.spawn(g, "fixed_base", "north", { q = 4, r = -2 }, 0, { colour = "blue" })
  local c = K.spawn(g, "cruiser", "south", { q = 4, r = 1 }, 0)
  local ok, why = g:try { id = "step", side = "north", piece = base, dir = 3 }
  t:falsy(ok)
  t:eq(why, "a fixed base never moves")
  g:end_phase("north")
  t:ok((g:try { id = "fire", side = "south", piece = c, target = base }))
  g:end_phase("south")
  g:end_phase("north")                            -- turn 2 (red): south's go
  ok, why = g:try { id = "fire", side = "south", piece = c, target = base }
  t:falsy(ok)
  t:eq(why, "there is no target " .. base .. " on the board")
  t:ok(g:piece(base) ~= nil)
end)

test("C3 a fixed base is destroyed by its fifth hit", function(t)
  local g = K.seek(t, function(lab)
    local b = K.spawn(lab, "fixed_base", "south", { q = 4, r = -2 }, 0, { colour = "blue", damage = 4 })
    local c = K.spawn(lab, "cruiser", "north", { q = 4, r = 1 }, 0)     -- 3 hexes: needs 5
    return { id = "fire", side = "north", piece = c, target = b }
  end, 5, true)
  t:eq(#g:pieces { owner = "south", type = "fixed_base" }, 0)
end)

test("T5 after 51 turns each fixed base scores 4 less 1 per hit; more points win", function(t)
  local g = K.lab(t)
  K.spawn(g, "fixed_base", "north", { q = 4, r = -2 }, 0, { colour = "blue", damage = 1 })
  K.spawn(g, "fixed_base", "north", { q = -4, r = 3 }, 0, { colour = "red" })
  K.spawn(g, "fixed_base", "south", { q = 6, r = 2 }, 0, { colour = "yellow", damage = 3 })
  for _ = 1, 50 do K.next_turn(g) end
  t:eq(g:clock().round, 51)
  t:eq(g:outcome(), nil)
  K.next_turn(g)
  local out = g:outcome()
  t:eq(out.winners, { "north" })
  t:matches(out.reason, "north 7, south 1")
  t:eq(g:side("north").values.score, 7)
  t:eq(g:side("south").values.score, 1)
end)

test("T5 equal points are a draw", function(t)
  local g = K.lab(t)
  K.spawn(g, "fixed_base", "north", { q = 4, r = -2 }, 0, { colour = "blue", damage = 2 })
  K.spawn(g, "fixed_base", "south", { q = 6, r = 2 }, 0, { colour = "yellow", damage = 2 })
  for _ = 1, 51 do K.next_turn(g) end
  t:eq(g:outcome().winners, {})
end)
