-- Solar Flare rule data: every number of the rules lives here (or in designs.lua / scenarios).
--
-- Derived from "Solar Flare -- Draft Rules", licensed CC BY-NC-SA (see LICENSE.md in this folder);
-- this data shares that licence. Logic modules read these tables and never hard-code a rule number.
--
-- Deliberately absent: any logic. Example: `require("data").cost.beam[4] == 5`.
local D = {}

-- Ship design ------------------------------------------------------------------------------
D.design_points = 80              -- points to build a ship (advanced setup) and the standard budget
D.max_level = 6                   -- highest level of any system or crew team
D.sections = 7                    -- sections 1..6 are the outer sections, 7 is the core
D.core = 7
D.slots_per_section = 2           -- 7 sections x 2 slots = 14 component slots

-- Cost of buying a system at level 1..6 (the cost chart). Crew teams take no slot.
D.cost = {
  beam      = { 2, 3, 4, 5, 6, 7 },
  torpedo   = { 2, 3, 4, 5, 6, 7 },
  shield    = { 2, 3, 4, 5, 6, 7 },
  battery   = { 2, 3, 4, 5, 6, 7 },
  generator = { 2, 4, 6, 8, 10, 12 },
  thruster  = { 2, 3, 4, 5, 6, 7 },
  engine    = { 2, 3, 4, 5, 6, 7 },
  crew      = { 2, 3, 4, 5, 6, 7 },
}

-- Component kinds that occupy slots, in a fixed order (choices are listed in this order).
D.component_kinds = { "beam", "torpedo", "shield", "battery", "generator", "thruster", "engine" }

-- The five placement restrictions.
---@type table<string, integer[]|nil> kind -> the only sections it may go in (absent: any)
D.allowed_sections = {
  engine = { 3, 4, 5 },                 -- 1: main engines only in sections 3, 4 or 5
}
D.not_in_core = { thruster = true, beam = true, torpedo = true, shield = true } -- 2, 3, 5
---@type table<string, integer|nil> kind -> most of it in one section (absent: no limit)
D.max_per_section = { shield = 1 }      -- 4: at most one shield per section

-- Sections (armour and structural integrity) ---------------------------------------------
D.section_defence = 2
D.section_integrity = 4

-- Power -------------------------------------------------------------------------------------
D.base_power = 4                  -- every ship makes 4 power a round, generators add their level

-- Weapons -------------------------------------------------------------------------------------
D.torpedo = {
  charges_to_fire = 3,            -- charges needed (and held) to fire, whatever the level
  capacity = 3,                   -- a torpedo component holds at most 3 charges
  movement = 6,                   -- movement points per round
  max_turns = 2,                  -- hexside turns per round
  defence = 2,
  integrity = 1,
  life_rounds = 2,                -- the round it was fired and the next
  asteroid_attacks = 6,           -- asteroid dice against a torpedo (its engine strength)
}
D.die_sides = 6                   -- damage dice are d6
D.turn_limit = 40                 -- assumption: rounds (setup rounds included) before a draw

-- Anomalies -----------------------------------------------------------------------------------
D.play_order_die = 6              -- faces of each player's roll for the play order
D.anomaly_count_die = "1d6"       -- the first player's roll: anomalies each player places
-- Shapes (offsets from the anomaly's centre hex). Assumption: a small tile covers one hex, a
-- large tile covers a hex and its six neighbours.
D.shapes = {
  small = { { 0, 0 } },
  large = { { 0, 0 }, { 0, -1 }, { 1, -1 }, { 1, 0 }, { 0, 1 }, { -1, 1 }, { -1, 0 } },
}
-- Anomaly pieces of the box (counts are the components list); `terrain` is the terrain id.
D.anomalies = {
  planet         = { terrain = "planet",   shape = "large", count = 8 },
  moon           = { terrain = "moon",     shape = "small", count = 12 },
  small_nebula   = { terrain = "nebula",   shape = "small", count = 12 },
  large_nebula   = { terrain = "nebula",   shape = "large", count = 6 },
  small_asteroid = { terrain = "asteroid", shape = "small", count = 12 },
  large_asteroid = { terrain = "asteroid", shape = "large", count = 6 },
}
D.anomaly_order = { "planet", "moon", "small_nebula", "large_nebula", "small_asteroid", "large_asteroid" }
-- Terrain behaviour.
D.terrain = {
  planet   = { solid = true,  nebula = false, asteroid = false },
  moon     = { solid = true,  nebula = false, asteroid = false },
  nebula   = { solid = false, nebula = true,  asteroid = false },
  asteroid = { solid = false, nebula = false, asteroid = true },
}
D.solid_gap = 1                   -- empty hexes required between a planet/moon and any other anomaly

-- Board ---------------------------------------------------------------------------------------
D.default_tile_radius = 3         -- sector tile radius when the scenario does not give one
D.sector_count = 7
D.ships_per_hex = 1               -- assumption: ships never share a hex

return D
