-- data.lua: every number of the rules, and the hyperjump table, as plain data.
--
-- Nothing here reads the game state; main.lua declares these, rules.lua reads them. Change a
-- number here (or in a scenario file), never in the logic.
--
-- Example: `require("data").joint_free_ships` is 3 (a joint jump of four ships adds 1).

---The hyperjump table as declared to the engine: `cells[row][column]` is a result id.
---@class HyperjumpTable
---@field id string
---@field rows string[]
---@field columns string[]
---@field row_policy string
---@field column_policy string
---@field cells string[][]

---What a hyperjump result does: the box the stack goes to, whether one ship is damaged, the
---share of the stack eliminated as { numerator, denominator }.
---@class JumpEffect
---@field to "orbit"|"drift1"|"drift2"
---@field damage? integer
---@field eliminate? [integer, integer]

---@class HyperjumpData
local data = {}

-- The graph map id used in every scenario of this mod.
data.graph = "galaxy"

-- Node kinds in the map file.
data.kinds = { system = "system", nav = "nav", planet = "planet" }

-- Box (slot) names.
data.slots = { orbit = "orbit", drift1 = "drift1", drift2 = "drift2" }

-- Stack names (S3): at most two per side per box at the end of a segment.
data.stacks = { military = "military", characters = "characters" }
data.max_stacks = 2

-- Joint jumps (H5): ships beyond this many add 1 each to the distance.
data.joint_free_ships = 3
-- Drift 2 (H9): distance of a jump back into the same system, and the penalty for another one.
data.drift2_same_system_distance = 2
data.drift2_penalty = 2
-- Drift 1 (H8): no penalty.
data.drift1_penalty = 0

-- The hyperjump roll and the emergency column (H6).
data.jump_dice = "2d6"
data.emergency_column = 5

-- Combat (C1): a d6 per unit with a combat value; this face or more removes an enemy unit.
data.combat_die = "1d6"
data.combat_hit = 5

-- The 2d6 hyperjump table (H4, H7): rows are the 2d6 total (12+ catches shifted rolls), columns
-- are distance minus navigation rating; "<=-1" is the leftmost column (rating above distance);
-- beyond column 5 the engine's shift_roll policy reads column 5 and adds the excess to the roll.
-- Cells, as printed: "-" safe, "1" Drift 1, "2" Drift 2, "1d"/"2d" damaged and drift, "2e"
-- disaster.
---@type HyperjumpTable
data.hyperjump = {
  id = "hyperjump",
  rows = { "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12+" },
  columns = { "<=-1", "0", "1", "2", "3", "4", "5" },
  row_policy = "error",
  column_policy = "shift_roll",
  cells = {
    --          left     0         1         2         3         4                 5
    [1]  = { "safe", "safe", "safe", "safe", "safe", "safe", "safe" },                       -- 2
    [2]  = { "safe", "safe", "safe", "safe", "safe", "safe", "safe" },                       -- 3
    [3]  = { "safe", "safe", "safe", "safe", "safe", "safe", "safe" },                       -- 4
    [4]  = { "safe", "safe", "safe", "safe", "safe", "safe", "drift1" },                     -- 5
    [5]  = { "safe", "safe", "safe", "safe", "safe", "drift1", "drift1" },                   -- 6
    [6]  = { "safe", "safe", "safe", "safe", "drift1", "drift1", "drift2" },                 -- 7
    [7]  = { "safe", "safe", "safe", "drift1", "drift1", "drift2", "drift2" },               -- 8
    [8]  = { "safe", "safe", "drift1", "drift1", "drift2", "drift2", "drift2" },             -- 9
    [9]  = { "safe", "drift1", "drift1", "drift2", "drift2", "drift2", "drift1_damaged" },   -- 10
    [10] = { "safe", "drift1", "drift2", "drift2", "drift2", "drift1_damaged", "drift2_damaged" }, -- 11
    [11] = { "drift1", "drift1", "drift2", "drift2", "drift1_damaged", "drift2_damaged", "disaster" }, -- 12
  },
}

-- What each table result does (H7): where the stack goes, whether one ship is damaged, and the
-- share of the stack eliminated (numerator/denominator, rounded up).
---@type table<string, JumpEffect>
data.results = {
  safe = { to = "orbit" },
  drift1 = { to = "drift1" },
  drift2 = { to = "drift2" },
  drift1_damaged = { to = "drift1", damage = 1 },
  drift2_damaged = { to = "drift2", damage = 1 },
  disaster = { to = "drift2", eliminate = { 1, 2 } },
}

-- Piece types. stats.class: "starship" (military, may jump as a stack), "courier" (character
-- spaceship), "ground", "character". navigation: the fixed rating of starships (H3).
data.piece_types = {
  {
    id = "warship", name = "Warship",
    stats = { class = "starship", navigation = 4, combat = 1, troops = 0, crew = -1 },
    values = { aboard = 0, stack = "", moved = "", damaged = false },
  },
  {
    id = "transport", name = "Transport",
    stats = { class = "starship", navigation = 4, combat = 0, troops = 2, crew = -1 },
    values = { aboard = 0, stack = "", moved = "", damaged = false },
  },
  {
    id = "courier", name = "Character spaceship",
    stats = { class = "courier", combat = 0, troops = 0, crew = 2 },
    values = { aboard = 0, stack = "", moved = "", damaged = false },
  },
  {
    id = "trooper", name = "Ground unit",
    stats = { class = "ground", combat = 1 },
    values = { aboard = 0, stack = "", moved = "", damaged = false },
  },
  {
    id = "character", name = "Character",
    stats = { class = "character", combat = 0 },
    -- Per character (the scenario sets them): navigation (as a pilot), leadership (space).
    values = { aboard = 0, stack = "", moved = "", damaged = false, navigation = 0, leadership = 0, name = "" },
  },
}

return data
