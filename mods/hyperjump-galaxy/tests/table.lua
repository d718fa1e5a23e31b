-- The 2d6 hyperjump table cell by cell, the column rule and the clamp beyond column 5 (H4, H7).
local G = require("galaxy")
local data = require("data")

-- The table as the rule document prints it (rows 2..12, columns leftmost, 0..5).
---@type table<integer, string[]>
local PRINTED = {
  [2] = { "-", "-", "-", "-", "-", "-", "-" },
  [3] = { "-", "-", "-", "-", "-", "-", "-" },
  [4] = { "-", "-", "-", "-", "-", "-", "-" },
  [5] = { "-", "-", "-", "-", "-", "-", "1" },
  [6] = { "-", "-", "-", "-", "-", "1", "1" },
  [7] = { "-", "-", "-", "-", "1", "1", "2" },
  [8] = { "-", "-", "-", "1", "1", "2", "2" },
  [9] = { "-", "-", "1", "1", "2", "2", "2" },
  [10] = { "-", "1", "1", "2", "2", "2", "1d" },
  [11] = { "-", "1", "2", "2", "2", "1d", "2d" },
  [12] = { "1", "1", "2", "2", "1d", "2d", "2e" },
}
local CODE = {
  ["-"] = "safe", ["1"] = "drift1", ["2"] = "drift2",
  ["1d"] = "drift1_damaged", ["2d"] = "drift2_damaged", ["2e"] = "disaster",
}

local function PRINTED_RESULT(roll, column) return CODE[PRINTED[roll][column]] end

local function cell(c) if type(c) == "table" then return c.id or c[1] end return c end

test("every cell of the hyperjump table", function(t)
  local g = t:game { scenario = "frontier", seed = 1 }
  local n = 0
  for roll = 2, 12 do
    local row = PRINTED[roll]
    local cells = assert(data.hyperjump.cells[roll - 1], "rows 2..12 are cells 1..11")
    -- Leftmost column: the rating above the distance by any amount.
    for _, diff in ipairs({ -1, -3 }) do
      t:eq(cell(g:lookup("hyperjump", roll, diff)), CODE[row[1]])
      t:eq(G.result(4, 4 + diff, roll), CODE[row[1]])
    end
    for diff = 0, 5 do
      t:eq(cell(g:lookup("hyperjump", roll, diff)), CODE[row[diff + 2]])
      t:eq(cells[diff + 2], CODE[row[diff + 2]])
      t:eq(G.result(2, 2 + diff, roll), CODE[row[diff + 2]])
      n = n + 1
    end
  end
  t:eq(n, 66)
end)

test("column rule: rating above distance leftmost, equal 0, else the difference", function(t)
  local key, index, mod = G.column(5, 4)
  t:eq({ key, index, mod }, { "<=-1", 1, 0 })
  t:eq({ G.column(4, 4) }, { "0", 2, 0 })
  t:eq({ G.column(2, 5) }, { "3", 5, 0 })
  t:eq({ G.column(4, 9) }, { "5", 7, 0 })
end)

test("beyond five: last column and +1 to the roll per step", function(t)
  -- Difference 6: column 5, a 9 reads as 10.
  t:eq({ G.column(4, 10) }, { "5", 7, 1 })
  t:eq(G.result(4, 10, 9), "drift1_damaged")
  t:eq(G.result(4, 10, 11), "disaster")
  -- Difference 8 (rating 1, distance 9): three beyond, a 4 reads as 7.
  t:eq({ G.column(1, 9) }, { "5", 7, 3 })
  t:eq(G.result(1, 9, 4), "drift2")
  -- A 12 pushed past 12 stays on the 12 row.
  t:eq(G.result(0, 9, 12), "disaster")
  -- Every shifted reading equals column 5 read at the shifted roll (capped at 12).
  for roll = 2, 12 do
    for diff = 6, 9 do
      t:eq(G.result(0, diff, roll), PRINTED_RESULT(math.min(12, roll + diff - 5), 7))
    end
  end
end)

test("exact odds of each result by column (in 36ths)", function(t)
  t:eq(G.odds(-2), { { result = "safe", in36 = 35 }, { result = "drift1", in36 = 1 } })
  t:eq(G.odds(0), { { result = "safe", in36 = 30 }, { result = "drift1", in36 = 6 } })
  t:eq(G.odds(5), {
    { result = "safe", in36 = 6 }, { result = "drift1", in36 = 9 }, { result = "drift2", in36 = 15 },
    { result = "drift1_damaged", in36 = 3 }, { result = "drift2_damaged", in36 = 2 },
    { result = "disaster", in36 = 1 },
  })
  t:eq(G.odds(7), {
    { result = "safe", in36 = 1 }, { result = "drift1", in36 = 5 }, { result = "drift2", in36 = 15 },
    { result = "drift1_damaged", in36 = 5 }, { result = "drift2_damaged", in36 = 4 },
    { result = "disaster", in36 = 6 },
  })
  -- Emergency: column 5 whatever the difference.
  t:eq(G.odds(-3, true), G.odds(5))
  -- Every column's odds add up to 36/36 (the 2d6 counts come from the engine core).
  for diff = -2, 9 do
    local sum = 0
    for _, o in ipairs(G.odds(diff)) do sum = sum + o.in36 end
    t:eq(sum, 36)
  end
end)
