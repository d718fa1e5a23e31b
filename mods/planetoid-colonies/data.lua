-- data.lua: every number of the rules (piece types, attack tables, limits). No logic here.
-- main.lua declares these to the engine; rules.lua and main.lua read them. Change a number here,
-- not in code.

---A terrain type: `obstacle` blocks movement and shots for everyone; `planetoid` names the
---colour of the turns in which it exists.
---@class TerrainType
---@field name string
---@field color string
---@field obstacle? boolean
---@field planetoid? string

---A piece type (the fields are explained above data.pieces).
---@class PieceType
---@field name string
---@field footprint Hex[]
---@field hits integer
---@field move? "slide"|"straight"|"free"
---@field speed? integer
---@field keep_away? integer
---@field shots integer|"each"
---@field empty_shots? integer
---@field table? string
---@field hyperspace boolean
---@field any_direction? boolean
---@field enters_planetoids? boolean
---@field colonises? boolean
---@field repair_turns integer
---@field repairs? boolean
---@field fixed? boolean

---An attack table: `cells[i][d]` is the lowest d6 face that hits row `rows[i]` at distance d.
---@class AttackTable
---@field rows string[]
---@field cells integer[][]

---@class PlanetoidData
local data = {}

-- The colour of each turn cycles through this list (turn 1 blue, 2 red, 3 yellow, 4 blue ...).
---@type string[]
data.colours = { "blue", "red", "yellow" }
data.turn_limit = 51

-- Terrain ids and what they do. `obstacle`: blocks movement and shots for everyone.
-- `planetoid`: blocks shots, blocks movement except for transports, exists only on its colour.
---@type table<string, TerrainType>
data.terrain = {
  asteroids = { name = "Asteroid belt", color = "#7a6a58", obstacle = true },
  home_planet = { name = "Home planet", color = "#3c7fd0", obstacle = true },
  planetoid_blue = { name = "Blue planetoid", color = "#4169e1", planetoid = "blue" },
  planetoid_red = { name = "Red planetoid", color = "#d04040", planetoid = "red" },
  planetoid_yellow = { name = "Yellow planetoid", color = "#e0c030", planetoid = "yellow" },
}

-- Piece types. footprint: hexes relative to the anchor (the bow) with the piece facing N.
--   hits: damage that destroys it (5th hit for the big pieces, 1st for fighters).
--   move: "slide" (translation up to `speed` steps), "straight" (forward up to `speed`, then a
--         free pivot on the bow), "free" (any path up to `speed`), nil (never moves).
--   keep_away: minimum distance of every hex from an existing planetoid (0 = none).
--   shots: shots per turn (mobile base: "each", one per target); empty_shots: empty shots per turn.
--   table: the attack table it fires with (nil = never fires).
--   hyperspace: may enter hyperspace; any_direction: its corridor may point any way.
--   enters_planetoids: may enter an existing planetoid hex.
--   row: its own row name in each firer's table (used for shots at it and for its empty shot).
---@type table<string, PieceType>
data.pieces = {
  mobile_base = {
    name = "Mobile base", footprint = { { q = 0, r = 0 }, { q = 0, r = 1 }, { q = 1, r = 0 } },
    hits = 5, move = "slide", speed = 2, keep_away = 3, shots = "each", empty_shots = 1,
    table = "mobile_base_attack", hyperspace = false, repair_turns = 2, repairs = true,
  },
  cruiser = {
    name = "Cruiser", footprint = { { q = 0, r = 0 }, { q = 0, r = 1 } },
    hits = 5, move = "straight", speed = 9, keep_away = 2, shots = 2,
    table = "cruiser_attack", hyperspace = true, repair_turns = 1,
  },
  fighter = {
    name = "Fighter", footprint = { { q = 0, r = 0 } },
    hits = 1, move = "free", speed = 9, keep_away = 0, shots = 1,
    table = "fighter_attack", hyperspace = true, any_direction = true, repair_turns = 1,
  },
  transport = {
    name = "Transport", footprint = { { q = 0, r = 0 }, { q = 0, r = 1 } },
    hits = 5, move = "straight", speed = 9, keep_away = 0, shots = 0,
    hyperspace = true, enters_planetoids = true, colonises = true, repair_turns = 1,
  },
  fixed_base = {
    name = "Fixed base", footprint = { { q = 0, r = 0 } },
    hits = 5, shots = 0, hyperspace = false, fixed = true, repair_turns = 1,
  },
}
-- Order in which types are listed (deterministic iteration).
data.piece_order = { "mobile_base", "cruiser", "fighter", "transport", "fixed_base" }

-- The attack tables: rows are target rows, columns distance 1..n, cells the lowest d6 face that
-- hits (the document prints the run of faces, e.g. "4 5 6" = 4).
---@type table<string, AttackTable>
data.tables = {
  fighter_attack = {
    rows = { "base", "cruiser", "fighter_or_transport" },
    cells = {
      { 5, 6, 6, 6 },
      { 5, 6, 6, 6 },
      { 4, 5, 5, 6 },
    },
  },
  cruiser_attack = {
    rows = { "base", "cruiser", "fighter_or_transport" },
    cells = {
      { 4, 4, 5, 5, 6, 6, 6, 6 },
      { 3, 4, 5, 5, 5, 6, 6, 6 },
      { 2, 3, 4, 4, 4, 5, 5, 5 },
    },
  },
  mobile_base_attack = {
    rows = { "cruiser_or_base", "fighter" },
    cells = {
      { 2, 2, 3, 4, 4, 4, 5, 5, 5, 6 },
      { 2, 2, 3, 3, 3, 4, 4, 4, 5, 5 },
    },
  },
}
data.table_order = { "fighter_attack", "cruiser_attack", "mobile_base_attack" }

-- Which row of each table a target type is read on. The mobile-base table has no transport row:
-- transports use its fighter row (assumption A7). Fixed bases are hit like mobile bases.
---@type table<string, table<string, string>>
data.target_row = {
  fighter_attack = {
    mobile_base = "base", fixed_base = "base", cruiser = "cruiser",
    fighter = "fighter_or_transport", transport = "fighter_or_transport",
  },
  cruiser_attack = {
    mobile_base = "base", fixed_base = "base", cruiser = "cruiser",
    fighter = "fighter_or_transport", transport = "fighter_or_transport",
  },
  mobile_base_attack = {
    mobile_base = "cruiser_or_base", fixed_base = "cruiser_or_base", cruiser = "cruiser_or_base",
    fighter = "fighter", transport = "fighter",
  },
}

-- Longest distance a firer type may shoot at a target type, when shorter than its table.
---@type table<string, table<string, integer>>
data.max_distance = { fighter = { fixed_base = 1 } }

-- A d6 decides every shot.
data.die_faces = 6

-- Bringing in ships: one of these packages per go (1 transport, 1 cruiser or 3 fighters).
data.deploy_limits = { transport = 1, cruiser = 1, fighter = 3 }

-- Hyperspace corridor length (entry and exit).
data.corridor = 9

-- Scoring: points per fixed base standing, less per hit it has taken.
data.points_per_base = 4
data.points_per_hit = 1

-- Bots are offered hyperspace exits only on anchors with q and r multiples of this (A11).
data.exit_grid = 3

-- Piece values reset at the start of each of the owner's goes (a table value starts empty).
data.per_turn = {
  steps = 0, pivoted = false, shots = 0, targets = {}, empty_shots = 0,
  done = false, hyper = false, moved = false, fired = false,
}

return data
