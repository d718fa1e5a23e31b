-- `hexforge test {{id}}` runs every tests/*.lua file; t:game starts a real game of the variant.

test("the variant loads and its first scenario starts", function(t)
  local g = t:game { scenario = "{{scenario}}", seed = 1 }
  t:eq(g:outcome(), nil)
  local side = assert(g:clock().acting[1], "a side acts first")
  t:ok(#g:legal(side) > 0, "the side to act has something to do")
end)
