-- `hexforge test {{id}}` runs every tests/*.lua file; t:game starts a real game.

test("a ship moves at most 2 hexes, once a turn", function(t)
  local g = t:game { scenario = "first", seed = 1 }
  t:eq(g:outcome(), nil)
  local ok, why = g:try { id = "move", side = "blue", piece = 1, to = { q = 0, r = 0 } }
  t:falsy(ok)
  t:matches(why, "too far")
  g:act { id = "move", side = "blue", piece = 1, to = { q = 0, r = 1 } }
  t:eq(g:piece(1).hex, { q = 0, r = 1 })
end)
