-- The three attack tables cell by cell, the damage penalty, the colour cycle.
local R = require("rules")
local data = require("data")
local K = require("testkit")

-- The cells exactly as the document prints them (runs of d6 faces that hit), by firer, then by
-- the document's row, then distance 1, 2, ... The mobile-base table prints some cells "456".
local DOC = {
  fighter = {
    { row = "base", kinds = { "mobile_base" }, cells = { "5 6", "6", "6", "6" } },
    { row = "cruiser", kinds = { "cruiser" }, cells = { "5 6", "6", "6", "6" } },
    { row = "fighter_or_transport", kinds = { "fighter", "transport" }, cells = { "4 5 6", "5 6", "5 6", "6" } },
  },
  cruiser = {
    { row = "base", kinds = { "mobile_base", "fixed_base" },
      cells = { "4 5 6", "4 5 6", "5 6", "5 6", "6", "6", "6", "6" } },
    { row = "cruiser", kinds = { "cruiser" },
      cells = { "3 4 5 6", "4 5 6", "5 6", "5 6", "5 6", "6", "6", "6" } },
    { row = "fighter_or_transport", kinds = { "fighter", "transport" },
      cells = { "2 3 4 5 6", "3 4 5 6", "4 5 6", "4 5 6", "4 5 6", "5 6", "5 6", "5 6" } },
  },
  mobile_base = {
    { row = "cruiser_or_base", kinds = { "cruiser", "mobile_base", "fixed_base" },
      cells = { "2 3 4 5 6", "2 3 4 5 6", "3 4 5 6", "456", "456", "456", "5 6", "5 6", "5 6", "6" } },
    -- Assumption A7: transports are read on the fighter row.
    { row = "fighter", kinds = { "fighter", "transport" },
      cells = { "2 3 4 5 6", "2 3 4 5 6", "3 4 5 6", "3 4 5 6", "3 4 5 6", "4 5 6", "4 5 6", "456", "5 6", "5 6" } },
  },
}

local function faces(cell)
  local out = {}
  for c in cell:gmatch("%d") do out[#out + 1] = tonumber(c) end
  return out
end

test("K2 every cell of the three attack tables gives the printed faces", function(t)
  local checked = 0
  for firer, rows in pairs(DOC) do
    for _, row in ipairs(rows) do
      for _, kind in ipairs(row.kinds) do
        for d, cell in ipairs(row.cells) do
          local printed = faces(cell)
          local need = R.need(firer, kind, d, 0)
          local hits = {}
          for f = need, 6 do hits[#hits + 1] = f end
          t:eq(hits, printed)
          checked = checked + 1
        end
        -- One beyond the table: no shot.
        local none, why = R.need(firer, kind, #row.cells + 1, 0)
        t:eq(none, nil)
        t:matches(why, "out of range")
      end
    end
  end
  t:eq(checked, 4 * 4 + 8 * 5 + 10 * 5)
end)

test("K2 the declared engine tables hold the same cells", function(t)
  local g = K.lab(t)
  t:eq(g:lookup("cruiser_attack", "cruiser", 1), 3)
  t:eq(g:lookup("cruiser_attack", "fighter_or_transport", 8), 5)
  t:eq(g:lookup("mobile_base_attack", "cruiser_or_base", 4), 4)
  t:eq(g:lookup("mobile_base_attack", "cruiser_or_base", 10), 6)
  t:eq(g:lookup("mobile_base_attack", "fighter", 8), 4)
  t:eq(g:lookup("fighter_attack", "fighter_or_transport", 1), 4)
  t:eq(g:lookup("fighter_attack", "base", 4), 6)
  for id, tab in pairs(data.tables) do
    for i, row in ipairs(tab.rows) do
      local cells = assert(tab.cells[i], "a row of cells per row name")
      for d, cell in ipairs(cells) do t:eq(g:lookup(id, row, d), cell) end
    end
  end
end)

test("K3 each damage of the firer raises the number needed by one", function(t)
  t:eq(R.need("cruiser", "fighter", 1, 0), 2)
  t:eq(R.need("cruiser", "fighter", 1, 1), 3)
  t:eq(R.need("cruiser", "fighter", 1, 4), 6)
  local none, why = R.need("cruiser", "fighter", 1, 5)
  t:eq(none, nil)
  t:matches(why, "no face of the die can hit %(needs 7%)")
  t:eq(R.need("mobile_base", "cruiser", 7, 1), 6)
  t:eq(R.need("mobile_base", "cruiser", 7, 2), nil)
end)

test("C5 fighters hit fixed bases only from distance 1, on the base row", function(t)
  t:eq(R.need("fighter", "fixed_base", 1, 0), 5)
  local none, why = R.need("fighter", "fixed_base", 2, 0)
  t:eq(none, nil)
  t:matches(why, "only from 1 hex")
  -- Mobile bases stay hittable by fighters at every distance of the table.
  t:eq(R.need("fighter", "mobile_base", 4, 0), 6)
end)

test("C3 fixed bases are hit like mobile bases", function(t)
  for d = 1, 10 do
    t:eq(R.need("mobile_base", "fixed_base", d, 0), R.need("mobile_base", "mobile_base", d, 0))
  end
  for d = 1, 8 do
    t:eq(R.need("cruiser", "fixed_base", d, 0), R.need("cruiser", "mobile_base", d, 0))
  end
end)

test("P4 transports and fixed bases never fire", function(t)
  local none, why = R.need("transport", "cruiser", 1, 0)
  t:eq(none, nil)
  t:matches(why, "never fires")
  t:eq(R.need("fixed_base", "cruiser", 1, 0), nil)
end)

test("B3 the 51 turns cycle blue, red, yellow: 17 of each", function(t)
  local count = { blue = 0, red = 0, yellow = 0 } ---@type table<string, integer>
  local expected = { "blue", "red", "yellow" }
  for round = 1, 51 do
    local c = R.colour_of_round(round)
    t:eq(c, expected[(round - 1) % 3 + 1])
    count[c] = count[c] + 1
  end
  t:eq(count, { blue = 17, red = 17, yellow = 17 })
  t:eq(R.colour_of_round(1), "blue")
  t:eq(R.colour_of_round(50), "red")
  t:eq(R.colour_of_round(51), "yellow")
  t:eq(data.turn_limit, 51)
end)

test("B3 the clock's colour and the planetoids that exist follow the cycle", function(t)
  local g = K.lab(t)
  local where = { blue = { q = 4, r = -2 }, red = { q = -4, r = 3 }, yellow = { q = 6, r = 2 } }
  local expected = { "blue", "red", "yellow", "blue", "red", "yellow", "blue" }
  for round = 1, #expected do
    local c = g:clock()
    t:eq(c.round, round)
    t:eq(c.label, expected[round])
    for colour, h in pairs(where) do
      local present = false
      for _, id in ipairs(g:terrain(h)) do
        if id == "planetoid_" .. colour then present = true end
      end
      t:eq(present, colour == expected[round])
    end
    -- The rules see exactly this turn's planetoid.
    local seen = {}
    for k, colour in pairs(g:global("planetoids")) do seen[#seen + 1] = k .. "=" .. colour end
    t:eq(seen, { R.key(where[expected[round]]) .. "=" .. expected[round] })
    K.next_turn(g)
  end
end)
