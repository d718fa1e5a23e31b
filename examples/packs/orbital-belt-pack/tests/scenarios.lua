-- The pack's two scenarios start as described, under orbital-skirmish's rules.

test("belt crossing: two frigates, three planetoids", function(t)
  local g = t:game { scenario = "belt-crossing", seed = 1 }
  t:eq(g:outcome(), nil)
  t:eq(g:piece(1).type, "frigate")
  t:eq(g:piece(1).owner, "blue")
  t:eq(g:piece(2).hex, { q = 2, r = -7 })
end)

test("belt ambush: a frigate against two scouts", function(t)
  local g = t:game { scenario = "belt-ambush", seed = 1 }
  t:eq(g:piece(1).type, "frigate")
  t:eq(g:piece(2).type, "scout")
  t:eq(g:piece(3).owner, "red")
end)
