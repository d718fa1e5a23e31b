-- Board rules: offset rows, sectors, half-hexes, baselines.
local G = require("geometry")
local k = require("testkit")

test("offset columns and half-hex x positions follow the engine's even-r rows", function(t)
  t:eq(G.from_offset(3, 1), { q = 2, r = 1 }) -- the engine's own OffsetCoord example
  t:eq(G.col({ q = 2, r = 1 }), 3)
  t:eq(G.x2({ q = 0, r = 0 }), 1) -- even row, column 0: half a hex in
  t:eq(G.x2({ q = -1, r = 1 }), 0) -- odd row, column 0: the left half-hex, on the edge
  t:eq(G.x2({ q = 12, r = 1 }), 26) -- odd row, column 13: the right half-hex
  t:eq(G.x2({ q = -4, r = 8 }), 1)
end)

test("the board has half-hexes at both ends of odd rows and nowhere else", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  t:eq(g:hex_kind({ q = -1, r = 1 }), "half")
  t:eq(g:hex_kind({ q = 12, r = 1 }), "half")
  t:eq(g:hex_kind({ q = 0, r = 1 }), "full")
  t:eq(g:hex_kind({ q = 0, r = 0 }), "full")
  t:eq(g:hex_kind({ q = 12, r = 0 }), "full")
  t:falsy(g:on_board({ q = 13, r = 0 }))
  local halves, total = 0, 0
  for _, h in ipairs(g:board_hexes()) do
    total = total + 1
    if g:hex_kind(h) == "half" then
      halves = halves + 1
    end
  end
  t:eq(total, 5 * 13 + 4 * 12 + 4 * 2)
  t:eq(halves, 8)
end)

test("sectors: a hex centred on a sector line belongs to both sectors", function(t)
  local lines, names = { 9, 17 }, { "left", "centre", "right" }
  t:eq(G.sectors_of({ q = 0, r = 0 }, lines, names), { "left" })
  t:eq(G.sectors_of({ q = 4, r = 0 }, lines, names), { "left", "centre" }) -- x2 = 9
  t:eq(G.sectors_of({ q = 4, r = 1 }, lines, names), { "centre" }) -- x2 = 10
  t:eq(G.sectors_of({ q = 3, r = 1 }, lines, names), { "left" }) -- x2 = 8
  t:eq(G.sectors_of({ q = 8, r = 0 }, lines, names), { "centre", "right" }) -- x2 = 17
  t:eq(G.sectors_of({ q = 12, r = 0 }, lines, names), { "right" })
  -- the breakthrough scenario's narrower flanks
  t:eq(G.sectors_of({ q = 4, r = 0 }, { 7, 19 }, names), { "centre" })
  t:eq(G.sectors_of({ q = 3, r = 0 }, { 7, 19 }, names), { "left", "centre" })
end)

test("no unit may enter a half-hex, and none is ever offered", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  local ids = k.arrange(g, { { "fighter", "blue", -2, 5 }, { "fighter", "red", 8, 0 } })
  k.to_move(g, "blue", "fighter", { ids[1] })
  local ok, why = k.move(g, "blue", ids[1], -3, 5) -- column 0 of row 5
  t:falsy(ok)
  t:eq(why, "no unit may enter the half-hexes along the sides of the battlefield")
  local moves = k.legal_of(g, "blue", "move")
  t:ok(#moves > 0)
  for _, a in ipairs(moves) do
    t:eq(g:hex_kind(a.to), "full")
  end
end)

test("a unit may not leave off a baseline the scenario does not open", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  local ids = k.arrange(g, { { "fighter", "blue", 0, 8 }, { "fighter", "red", 4, 0 } })
  k.to_move(g, "blue", "fighter", { ids[1] })
  local ok, why = k.move(g, "blue", ids[1], 0, 9)
  t:falsy(ok)
  t:eq(why, "units may leave the battlefield only off a baseline the scenario allows")
  ok, why = k.move(g, "blue", ids[1], -1, 9)
  t:falsy(ok)
  t:matches(why, "baseline")
end)

test("a unit may not leave off a side edge", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  local ids = k.arrange(g, { { "fighter", "blue", -3, 6 }, { "fighter", "red", 4, 0 } })
  k.to_move(g, "blue", "fighter", { ids[1] })
  local ok, why = k.move(g, "blue", ids[1], -4, 6)
  t:falsy(ok)
  t:eq(why, "units may leave the battlefield only off a baseline the scenario allows")
end)

test("breakthrough: blue leaves off red's baseline for 2 points; the move counts hexes", function(t)
  local g = t:game { scenario = "breakthrough", seed = 1 }
  local ids = k.arrange(g, { { "cruiser", "blue", 6, 1 }, { "cruiser", "red", 0, 0 } })
  k.to_move(g, "blue", "strike", { ids[1] })
  -- (6,1) -> (6,0) on the top baseline -> (6,-1) off the board: 2 hexes, a cruiser's allowance
  local ok, why = k.move(g, "blue", ids[1], 6, -1)
  t:ok(ok)
  t:eq(why, nil)
  t:eq(g:piece(ids[1]).hex, nil)
  t:eq(k.side(g, "blue").values.points, 2)
end)

test("breakthrough: leaving needs the move to reach the baseline first", function(t)
  local g = t:game { scenario = "breakthrough", seed = 1 }
  local ids = k.arrange(g, { { "cruiser", "blue", 6, 2 }, { "cruiser", "red", 0, 0 } })
  k.to_move(g, "blue", "strike", { ids[1] })
  local ok, why = k.move(g, "blue", ids[1], 7, -1)
  t:falsy(ok)
  t:eq(why, "out of reach: 2 hexes this move")
end)

test("breakthrough: blue may not leave off its own baseline, red may not leave at all", function(t)
  local g = t:game { scenario = "breakthrough", seed = 1 }
  local ids = k.arrange(g, { { "cruiser", "blue", 2, 8 }, { "cruiser", "red", 6, 0 } })
  k.to_move(g, "blue", "strike", { ids[1] })
  local ok, why = k.move(g, "blue", ids[1], 2, 9)
  t:falsy(ok)
  t:matches(why, "baseline the scenario allows")
  g:end_phase("blue") -- move
  g:end_phase("blue") -- fight
  g:end_phase("blue") -- end
  k.to_move(g, "red", "strike", { ids[2] })
  ok, why = k.move(g, "red", ids[2], 6, -1)
  t:falsy(ok)
  t:matches(why, "baseline the scenario allows")
end)
