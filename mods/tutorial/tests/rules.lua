-- Lua tests for the tutorial: `hexforge test tutorial` runs every tests/*.lua file.
-- A test file returns a table of named test functions; a test fails if it raises an error.
-- They run in the mod's own VM, after its declarations.
local helpers = require("tutorial.helpers")

return {
  to_hit_table_has_one_row_per_gun_count = function()
    local t = game.tables.to_hit
    assert(#t.cells == 2 and #t.cells[1] == 3, "to_hit is 2 rows by 3 columns")
    assert(t.cells[2][1] == 3, "two guns at range 1 hit on 3+")
  end,

  destinations_stay_on_the_arena_and_avoid_occupied_hexes = function()
    local occupied = { [hex.key({ q = 0, r = 3 })] = true }
    local from = { q = 0, r = 4 }
    local out = helpers.destinations(from, 2, 4, occupied)
    for _, h in ipairs(out) do
      assert(hex.length(h) <= 4, "off the arena: " .. hex.key(h))
      assert(hex.key(h) ~= "0,3", "an occupied hex was offered")
      assert(hex.distance(from, h) <= 2)
    end
    -- The radius-2 disc around (0,4) has 19 hexes; 10 are off the arena; minus the start and
    -- the occupied hex that leaves 7.
    assert(#out == 7, "expected 7 destinations, got " .. #out)
  end,

  clamp_uses_the_last_column_for_long_shots = function()
    assert(helpers.clamp(5, 1, 3) == 3)
    assert(helpers.clamp(0, 1, 3) == 1)
    assert(helpers.clamp(2, 1, 3) == 2)
  end,
}
