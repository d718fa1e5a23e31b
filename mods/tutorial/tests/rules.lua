-- Lua tests for the tutorial: `hexforge test tutorial` runs every tests/*.lua file in a fresh
-- VM of the mod, after its declarations. Each test("name", function(t) ... end) gets `t` with
-- assertions (t:eq, t:ok, t:falsy, t:matches, t:fail); a failure names this file and line.
local helpers = require("helpers")

test("the to-hit table has a row per gun count and a column per range", function(t)
  local tbl = game.tables.to_hit
  t:eq(#tbl.cells, 2)
  t:eq(tbl.cells[1], { 4, 5, 6 })
  t:eq(tbl.cells[2][1], 3) -- two guns at range 1 hit on 3+
end)

test("scouts are fast and fragile, frigates slow and tough", function(t)
  local scout, frigate = game.piece_types.scout.stats, game.piece_types.frigate.stats
  t:ok(scout.speed > frigate.speed)
  t:ok(scout.hull < frigate.hull)
end)

test("destinations stay within speed and avoid blocked hexes", function(t)
  local from = { q = 0, r = 4 }
  -- Off the radius-4 arena, or the occupied hex (0,3): blocked.
  local function blocked(h) return hex.distance(h, { q = 0, r = 0 }) > 4 or hex.key(h) == "0,3" end
  local out = helpers.destinations(from, 2, blocked)
  for _, h in ipairs(out) do
    t:falsy(blocked(h))
    t:ok(hex.distance(from, h) <= 2)
  end
  -- The radius-2 disc around (0,4) has 19 hexes; 10 are off the arena; minus the start and
  -- the occupied hex that leaves 7.
  t:eq(#out, 7)
end)

test("clamp keeps ranges inside the table", function(t)
  t:eq(helpers.clamp(5, 1, 3), 3)
  t:eq(helpers.clamp(0, 1, 3), 1)
  t:eq(helpers.clamp(2, 1, 3), 2)
end)
