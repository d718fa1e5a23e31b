-- squadron-command: every number of the rules, as data.
--
-- This file holds no logic: main.lua declares piece types, the battle-dice table, the battle die
-- and the terrain from these tables, and reads the costs below. Scenario files override the
-- per-scenario numbers (`defaults`) through their [options] table.
--
-- Example: data.units[4] is the destroyer squadron: strike class, 2 hexes at sub-light speed,
-- 3 hexes when it warps.

local data = {}

-- The three unit classes, in the row order of the battle-dice table.
data.classes = { "fighter", "strike", "capital" }

-- Unit types. `move` is the sub-light allowance in hexes; `warp` (destroyers only) the warp
-- allowance, 0 for a type that cannot warp; `figures` the ship figures a full unit has.
data.units = {
  { id = "flagship", name = "Flagship with cap fighters", class = "capital", move = 1, warp = 0, figures = 3 },
  { id = "heavy_battleship", name = "Heavy battleship squadron", class = "capital", move = 2, warp = 0, figures = 3 },
  { id = "battleship", name = "Battleship squadron", class = "capital", move = 2, warp = 0, figures = 2 },
  { id = "heavy_cruiser", name = "Heavy cruiser squadron", class = "strike", move = 2, warp = 0, figures = 4 },
  { id = "cruiser", name = "Cruiser squadron", class = "strike", move = 2, warp = 0, figures = 3 },
  { id = "heavy_destroyer", name = "Heavy destroyer squadron", class = "strike", move = 2, warp = 3, figures = 4 },
  { id = "destroyer", name = "Destroyer squadron", class = "strike", move = 2, warp = 3, figures = 3 },
  { id = "heavy_fighter", name = "Heavy fighter squadron", class = "fighter", move = 4, warp = 0, figures = 4 },
  { id = "fighter", name = "Fighter squadron", class = "fighter", move = 4, warp = 0, figures = 3 },
}

-- Battle dice by class (rows, in data.classes order) and range in hexes (columns 1..4).
-- 0 means the class cannot battle at that range.
data.battle_ranges = { "1", "2", "3", "4" }
data.battle_dice = {
  { 2, 0, 0, 0 }, -- fighter
  { 3, 2, 2, 0 }, -- strike
  { 3, 3, 2, 2 }, -- capital
}

-- The six faces of the battle die.
data.battle_faces = { "fighter", "strike", "capital", "wild", "star", "alert" }

-- What a face does (combat.lua reads this): "class" faces hit a target of that class, "wild"
-- hits any target, "star" earns the attacker `star_tokens`, "alert" makes the target retire.
data.face_effect = {
  fighter = "class", strike = "class", capital = "class",
  wild = "hit", star = "star", alert = "alert",
}

data.costs = {
  impulse_tokens = 2, -- full impulse costs this many command tokens
  impulse_extra = 1, -- ... and adds this many hexes to the sub-light allowance
  star_tokens = 1, -- command tokens per star face rolled
  alert_dice_penalty = 1, -- dice fewer while a unit carries an alert marker
  retire_per_alert = 1, -- hexes retired per alert face
  figures_per_blocked_retire = 1, -- figures lost per hex a unit cannot retire
  points_per_unit = 1, -- victory points for destroying an enemy unit
}

-- Directions (0 = N ... 5 = NW, axial vectors as in the engine) a unit retires along, in order
-- of preference, by the edge its baseline is on. Rows grow downwards on the offset board.
data.retire_dirs = { bottom = { 3, 4 }, top = { 0, 1 } }

-- Space features (terrain). `stops_movement`: a unit entering the hex ends its move there;
-- `blocks_battle`: a unit in the hex may not battle.
data.terrains = {
  { id = "nebula", name = "Nebula", color = "#6a4c93", stops_movement = true, blocks_battle = true },
  { id = "dust", name = "Dust field", color = "#a08050", stops_movement = true, blocks_battle = false },
}

-- Per-scenario numbers; a scenario's [options] table overrides any of them.
data.defaults = {
  order_limit = 3, -- units ordered per turn
  sector_names = { "left", "centre", "right" },
  -- Sector lines, as x positions measured in half hex widths from the board's left edge. A hex
  -- whose centre lies on a line belongs to the sectors on both sides of it.
  sector_lines = { 9, 17 },
  victory_points = 5,
  tokens_per_turn = 1, -- command tokens gained at the end of each own turn
  clear_alert_cost_ordered = 1, -- command tokens to clear the alert marker of an ordered unit
  clear_alert_cost_unordered = 2, -- ... and of a unit not ordered this turn
  exit_points = 1, -- victory points for a unit that leaves where the scenario allows
  exits = {}, -- side id -> list of board edges ("top"/"bottom") its units may leave by
  turn_limit = 16, -- rounds; the game ends on points after the last
}

-- The longest game any scenario may ask for (the engine's rule-wide turn limit).
data.max_turn_limit = 30

return data
