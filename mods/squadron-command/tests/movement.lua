-- Movement: one unit at a time, once each, no stacking, nothing passed through, class
-- allowances, destroyer warp, full impulse, space features.
local G = require("geometry")
local k = require("testkit")

local FAR_RED = { "fighter", "red", -4, 8 } -- a red unit out of everyone's way (bottom-left corner)

local CLASS_OF = {
  flagship = "capital", heavy_battleship = "capital", battleship = "capital",
  heavy_cruiser = "strike", cruiser = "strike", heavy_destroyer = "strike", destroyer = "strike",
  heavy_fighter = "fighter", fighter = "fighter",
}

-- The document's sub-light allowances.
local ALLOWANCE = {
  flagship = 1, heavy_battleship = 2, battleship = 2, heavy_cruiser = 2, cruiser = 2,
  heavy_destroyer = 2, destroyer = 2, heavy_fighter = 4, fighter = 4,
}

test("class allowances: each type moves exactly its sub-light allowance, not one hex more", function(t)
  for ty, n in pairs(ALLOWANCE) do
    local g = t:game { scenario = "skirmish", seed = 1 }
    local ids = k.arrange(g, { { ty, "blue", 4, 4 }, FAR_RED })
    g:edit(function(ctx)
      ctx:set_side("blue", "tokens", 0) -- no full impulse
    end)
    k.to_move(g, "blue", CLASS_OF[ty], { ids[1] })
    local ok, why = k.move(g, "blue", ids[1], 4 + n + 1, 4) -- straight along SE
    t:falsy(ok)
    t:eq(why, "out of reach: " .. n .. " hexes this move")
    ok = k.move(g, "blue", ids[1], 4 + n, 4)
    t:ok(ok)
    t:eq(g:piece(ids[1]).hex, { q = 4 + n, r = 4 })
  end
end)

test("a unit in open space is offered every hex within its allowance", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  local ids = k.arrange(g, { { "flagship", "blue", 4, 4 }, FAR_RED })
  k.to_move(g, "blue", "capital", { ids[1] })
  local normal, impulse = 0, 0
  for _, a in ipairs(k.legal_of(g, "blue", "move")) do
    t:eq(a.piece, ids[1])
    t:falsy(a.warp)
    if a.impulse then
      impulse = impulse + 1
      t:eq(G.distance({ q = 4, r = 4 }, a.to), 2)
    else
      normal = normal + 1
      t:eq(G.distance({ q = 4, r = 4 }, a.to), 1)
    end
  end
  t:eq(normal, 6)
  t:eq(impulse, 12) -- full impulse: the ring at 2 (the side starts with 2 tokens)

  local g2 = t:game { scenario = "skirmish", seed = 1 }
  local ids2 = k.arrange(g2, { { "fighter", "blue", 4, 4 }, FAR_RED })
  g2:edit(function(ctx)
    ctx:set_side("blue", "tokens", 0)
  end)
  k.to_move(g2, "blue", "fighter", { ids2[1] })
  t:eq(#k.legal_of(g2, "blue", "move"), 60) -- 3 * 4 * 5 hexes within 4, all on the board
end)

test("two units may not share a hex: moving onto a friend or an enemy is illegal", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  local ids = k.arrange(g, { { "battleship", "blue", 4, 4 }, { "cruiser", "blue", 5, 4 }, { "cruiser", "red", 4, 3 } })
  k.to_move(g, "blue", "capital", { ids[1] })
  local ok, why = k.move(g, "blue", ids[1], 5, 4)
  t:falsy(ok)
  t:eq(why, "another unit is in that hex: two units may not share a hex")
  ok, why = k.move(g, "blue", ids[1], 4, 3)
  t:falsy(ok)
  t:eq(why, "another unit is in that hex: two units may not share a hex")
end)

test("no moving through an occupied hex, friendly or enemy", function(t)
  for _, owner in ipairs({ "blue", "red" }) do
    local g = t:game { scenario = "skirmish", seed = 1 }
    -- (4,4) -> (6,4) is 2 hexes straight along SE: its only way is through (5,4).
    local ids = k.arrange(g, { { "battleship", "blue", 4, 4 }, { "cruiser", owner, 5, 4 }, FAR_RED })
    k.to_move(g, "blue", "capital", { ids[1] })
    local ok, why = k.move(g, "blue", ids[1], 6, 4)
    t:falsy(ok)
    t:eq(why, "no way there: a unit may not move through a hex occupied by another unit")
    -- (6,3) is also 2 away but has a way round the occupied hex (through (5,3))
    t:ok(k.move(g, "blue", ids[1], 6, 3))
  end
end)

test("each unit moves once a turn; moves are one unit at a time", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  local ids = k.arrange(g, { { "battleship", "blue", 4, 4 }, { "cruiser", "blue", 2, 4 }, FAR_RED })
  k.to_move(g, "blue", "centre", { ids[1], ids[2] })
  t:ok(k.move(g, "blue", ids[1], 5, 4))
  local ok, why = k.move(g, "blue", ids[1], 6, 4)
  t:falsy(ok)
  t:eq(why, "unit " .. ids[1] .. " has already moved this turn: a unit moves once")
  for _, a in ipairs(k.legal_of(g, "blue", "move")) do
    t:eq(a.piece, ids[2])
  end
  t:ok(k.move(g, "blue", ids[2], 2, 3))
  t:eq(#k.legal_of(g, "blue", "move"), 0)
end)

test("an ordered unit may move from one sector into another", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  k.to_move(g, "blue", "left", { 5 }) -- the fighter on the left/centre line
  t:eq(G.sectors_of({ q = 2, r = 5 }, { 9, 17 }, { "left", "centre", "right" }), { "centre" })
  t:ok(k.move(g, "blue", 5, 2, 5))
  local g3 = t:game { scenario = "skirmish", seed = 1 }
  k.to_move(g3, "blue", "right", { 6 }) -- heavy fighter on the centre/right line
  t:ok(k.move(g3, "blue", 6, 4, 5)) -- col 7, row 5: x = 14, centre only
end)

test("figures move as one unit and reduced units never combine", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  local ids = k.arrange(g, {
    { "fighter", "blue", 4, 4, { figures = 1 } },
    { "fighter", "blue", 6, 4, { figures = 2 } },
    FAR_RED,
  })
  k.to_move(g, "blue", "fighter", { ids[1], ids[2] })
  local ok, why = k.move(g, "blue", ids[1], 6, 4)
  t:falsy(ok)
  t:eq(why, "another unit is in that hex: two units may not share a hex")
  t:ok(k.move(g, "blue", ids[1], 5, 4))
  t:eq(g:piece(ids[1]).values.figures, 1)
  t:eq(g:piece(ids[2]).values.figures, 2)
  -- no action of the game splits or joins units
  local known = { command = true, order = true, clear_alert = true, move = true, battle = true, end_phase = true }
  for _, a in ipairs(g:legal("blue")) do
    t:ok(known[a.id])
  end
end)

test("worked example: a destroyer may warp 3 hexes only to end adjacent to an enemy", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  local ids = k.arrange(g, { { "destroyer", "blue", 4, 4 }, { "cruiser", "red", 8, 4 } })
  k.to_move(g, "blue", "strike", { ids[1] })
  local ok, why = k.move(g, "blue", ids[1], 7, 4) -- 3 hexes at sub-light: too far
  t:falsy(ok)
  t:eq(why, "out of reach: 2 hexes this move")
  ok, why = k.move(g, "blue", ids[1], 4, 1, true) -- 3 hexes at warp, nowhere near the enemy
  t:falsy(ok)
  t:eq(why, "a warp move must end adjacent to an enemy unit the destroyer can engage at close quarters")
  ok, why = k.move(g, "blue", ids[1], 8, 1, true) -- 4 hexes: beyond even warp
  t:falsy(ok)
  t:eq(why, "out of reach: 3 hexes this move")
  t:ok(k.move(g, "blue", ids[1], 7, 4, true)) -- 3 hexes, ends next to the cruiser
  t:eq(g:piece(ids[1]).hex, { q = 7, r = 4 })
end)

test("warp choices all end next to an enemy; heavy destroyers warp too, others never", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  local ids = k.arrange(g, {
    { "heavy_destroyer", "blue", 4, 4 },
    { "cruiser", "blue", 2, 6 },
    { "cruiser", "red", 7, 3 },
  })
  k.to_move(g, "blue", "strike", { ids[1], ids[2] })
  local warps = 0
  for _, a in ipairs(k.legal_of(g, "blue", "move")) do
    if a.warp then
      warps = warps + 1
      t:eq(a.piece, ids[1])
      t:eq(G.distance(a.to, { q = 7, r = 3 }), 1)
      t:eq(G.distance(a.to, { q = 4, r = 4 }), 3)
    end
  end
  -- the enemy's neighbours 3 hexes from (4,4): (7,2) and (7,4); (6,3) and (6,4) are within the
  -- sub-light allowance, so they are offered as plain moves
  t:eq(warps, 2)
  local ok, why = k.move(g, "blue", ids[2], 5, 6, true)
  t:falsy(ok)
  t:eq(why, "only destroyer units can warp")
end)

test("warp must end where the destroyer can battle at close quarters (not in a nebula)", function(t)
  local g = t:game { scenario = "breakthrough", seed = 1 }
  local ids = k.arrange(g, { { "destroyer", "blue", 4, 7 }, { "cruiser", "red", 5, 3 } })
  k.to_move(g, "blue", "strike", { ids[1] })
  local ok, why = k.move(g, "blue", ids[1], 4, 4, true) -- the nebula, next to the cruiser
  t:falsy(ok)
  t:eq(why, "a warp move must end adjacent to an enemy unit the destroyer can engage at close quarters")
  t:ok(k.move(g, "blue", ids[1], 5, 4, true))
end)

test("worked example: full impulse is +1 hex for 2 command tokens, never with warp", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  local ids = k.arrange(g, { { "battleship", "blue", 4, 4 }, { "destroyer", "blue", 2, 6 }, { "cruiser", "red", 8, 4 } })
  k.to_move(g, "blue", "centre", { ids[1], ids[2] })
  t:eq(k.side(g, "blue").values.tokens, 2)
  local ok, why = k.move(g, "blue", ids[1], 8, 4, false, true) -- 4 hexes: beyond 2 + 1
  t:falsy(ok)
  t:eq(why, "another unit is in that hex: two units may not share a hex")
  ok, why = k.move(g, "blue", ids[1], 4, 0, false, true) -- 4 hexes N
  t:falsy(ok)
  t:eq(why, "out of reach: 3 hexes this move")
  ok, why = k.move(g, "blue", ids[2], 5, 5, true, true)
  t:falsy(ok)
  t:eq(why, "a destroyer making a warp move cannot move at full impulse")
  t:ok(k.move(g, "blue", ids[1], 7, 4, false, true)) -- 3 hexes at full impulse
  t:eq(k.side(g, "blue").values.tokens, 0)
  ok, why = k.move(g, "blue", ids[2], 2, 3, false, true) -- no tokens left
  t:falsy(ok)
  t:eq(why, "full impulse costs 2 command tokens")
  t:ok(k.move(g, "blue", ids[2], 2, 4)) -- plain sub-light move still fine
end)

test("full impulse choices are offered only with 2 tokens", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  local ids = k.arrange(g, { { "battleship", "blue", 4, 4 }, FAR_RED })
  g:edit(function(ctx)
    ctx:set_side("blue", "tokens", 1)
  end)
  k.to_move(g, "blue", "capital", { ids[1] })
  for _, a in ipairs(k.legal_of(g, "blue", "move")) do
    t:falsy(a.impulse)
  end
  t:eq(#k.legal_of(g, "blue", "move"), 18)
end)

test("space features: entering dust or a nebula ends the move", function(t)
  local g = t:game { scenario = "breakthrough", seed = 1 }
  local ids = k.arrange(g, { { "fighter", "blue", 2, 7 }, { "cruiser", "red", 10, 0 } })
  k.to_move(g, "blue", "fighter", { ids[1] })
  -- (2,7) -> (2,3) straight N runs through the dust at (2,4): its only 4-hex way
  local ok, why = k.move(g, "blue", ids[1], 2, 3)
  t:falsy(ok)
  t:eq(why, "no way there: a unit entering a space feature ends its move")
  t:ok(k.move(g, "blue", ids[1], 2, 4))
  t:eq(g:terrain({ q = 2, r = 4 }), { "dust" })
end)

test("a unit that cannot reach a hex for lack of allowance gets the allowance reason", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  local ids = k.arrange(g, { { "flagship", "blue", 4, 4 }, FAR_RED })
  k.to_move(g, "blue", "capital", { ids[1] })
  local ok, why = k.move(g, "blue", ids[1], 4, 2)
  t:falsy(ok)
  t:eq(why, "out of reach: 1 hexes this move")
  ok, why = k.move(g, "blue", ids[1], 4, 4)
  t:falsy(ok)
  t:eq(why, "the unit is already there (an ordered unit need not move)")
end)
