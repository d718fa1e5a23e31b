-- game.evaluate, the search bot's heuristic: target planets held, then ground units.

local function near(t, a, b, what) t:ok(math.abs(a - b) < 1e-9, ("%s: %s is not %s"):format(what, a, b)) end

test("evaluate: the two sides' values add up and a lost ground unit lowers its side's", function(t)
  local g = t:game { scenario = "frontier" }
  local hegemony, accord = g:evaluate("hegemony"), g:evaluate("accord")
  near(t, hegemony + accord, 1, "two sides' values add up")
  local ground ---@type Piece|nil
  for _, p in ipairs(g:pieces { owner = "accord" }) do
    if game.piece_types[p.type].stats.class == "ground" then ground = p; break end
  end
  ground = assert(ground, "the accord has a ground unit")
  g:edit(function(ctx) ctx:destroy(ground.id) end)
  t:ok(g:evaluate("accord") < accord, "one ground unit fewer")
  t:ok(g:evaluate("hegemony") > hegemony)
end)
