-- The variant's three edits, each proved against a real game of the variant (the base's
-- "picket" scenario: piece 1 blue frigate at (0, 3), 2 blue scout at (-2, 3), 3 red frigate).

test("scouts move 4 instead of 3", function(t)
  local g = t:game { scenario = "picket" }
  t:ok(g:check { id = "move", side = "blue", piece = 2, to = { q = -2, r = -1 } }) -- 4 hexes
  local ok, why = g:check { id = "move", side = "blue", piece = 2, to = { q = -2, r = -2 } }
  t:falsy(ok)
  t:matches(why, "too far: speed 4")
end)

test("two guns at range 3 now hit on 4+", function(t)
  local g = t:game { scenario = "picket" }
  t:eq(g:lookup("to_hit", "2", "3"), 4)
  t:eq(g:lookup("to_hit", "1", "3"), 6) -- one gun: unchanged from the base
end)

test("a scout fires at a frigate only from 2 hexes or closer; frigates are unaffected", function(t)
  local g = t:game { scenario = "picket" }
  g:edit(function(ctx) ctx:move(3, { q = 1, r = 0 }) end) -- 3 hexes from both blue ships
  g:end_phase("blue")
  local ok, why = g:check { id = "fire", side = "blue", piece = 2, target = 3 }
  t:falsy(ok)
  t:matches(why, "2 hexes or closer")
  t:ok(g:check { id = "fire", side = "blue", piece = 1, target = 3 })
  -- The choices agree with the stricter check (bots rely on it).
  for _, a in ipairs(g:legal("blue")) do
    t:ok(not (a.id == "fire" and a.piece == 2 and a.target == 3), "scout offered a shot it may not take")
  end
end)

test("the variant keeps the tutorial's evaluate for the search bot", function(t)
  local g = t:game { scenario = "picket" }
  -- The same picket line: even hull, as in the base.
  t:eq(g:evaluate("blue"), 0.5)
  t:eq(g:evaluate("red"), 0.5)
end)
