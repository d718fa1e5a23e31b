-- ships.lua: every number of the game as data (weapons, ship classes, game constants).
--
-- main.lua turns these tables into declarations (piece types and the "weapons" table), so a
-- variant edits the declared copies (game.piece_types.frigate.stats.mr = 4,
-- game.tables.weapons.cells[..][..]) and never this file. Nothing here is code.

---@class OrbitalData
---@field weapon_columns string[]
---@field weapons WeaponData[]
---@field ships ShipClass[]
---@field rules { max_interceptors_per_attack: integer, to_hit_die: string, head_on_bonus: integer }
local data = {}

---One weapon: its id and a value for each of data.weapon_columns.
---@class WeaponData
---@field id string
---@field [string] string|integer

---@class ShipClass
---@field id string
---@field name string
---@field hull integer
---@field adf integer
---@field mr integer
---@field weapons string[] weapon mounts
---@field ammo table<string, integer> rounds per limited weapon
---@field interceptors integer

-- Weapons. Columns of the declared "weapons" table, one row per weapon:
--   range        longest range in hexes (range counts the target's hex, not the firer's)
--   damage       dice rolled for a hit
--   chance       percent chance to hit on d100 (hit if roll <= chance)
--   range_loss   percentage points lost per hex of range (lasers)
--   arc          "any" or "forward" (the straight band of hexes ahead of the bow)
--   fire         "both" (defensive and offensive fire) or "offensive" (own offensive fire only)
--   limited      "yes" if each shot uses one round of the ship's ammunition
--   icm_penalty  points each interceptor missile takes off the chance (0: cannot be intercepted)
data.weapon_columns = { "range", "damage", "chance", "range_loss", "arc", "fire", "limited", "icm_penalty" }
data.weapons = {
  { id = "laser_cannon",   range = 10, damage = "2d10",   chance = 60, range_loss = 5, arc = "forward", fire = "both",      limited = "no",  icm_penalty = 0 },
  { id = "laser_battery",  range = 9,  damage = "1d10",   chance = 50, range_loss = 5, arc = "any",     fire = "both",      limited = "no",  icm_penalty = 0 },
  { id = "torpedo",        range = 4,  damage = "4d10",   chance = 70, range_loss = 0, arc = "any",     fire = "offensive", limited = "yes", icm_penalty = 10 },
  { id = "assault_rocket", range = 4,  damage = "2d10+4", chance = 60, range_loss = 0, arc = "forward", fire = "offensive", limited = "yes", icm_penalty = 5 },
  { id = "rocket_battery", range = 3,  damage = "2d10",   chance = 40, range_loss = 0, arc = "any",     fire = "both",      limited = "yes", icm_penalty = 3 },
}

-- Ship classes. `weapons` lists weapon mounts (each fires at most once per fire phase);
-- `ammo` gives the rounds carried by each limited weapon; `interceptors` the interceptor
-- missiles carried.
data.ships = {
  { id = "fighter", name = "Fighter", hull = 8, adf = 5, mr = 5,
    weapons = { "assault_rocket" }, ammo = { assault_rocket = 3 }, interceptors = 0 },
  { id = "scout", name = "Scout", hull = 15, adf = 5, mr = 4,
    weapons = { "assault_rocket", "laser_battery" }, ammo = { assault_rocket = 4 }, interceptors = 0 },
  { id = "frigate", name = "Frigate", hull = 40, adf = 3, mr = 3,
    weapons = { "laser_cannon", "laser_battery", "torpedo", "rocket_battery" },
    ammo = { torpedo = 2, rocket_battery = 4 }, interceptors = 4 },
  { id = "destroyer", name = "Destroyer", hull = 50, adf = 3, mr = 2,
    weapons = { "laser_cannon", "laser_battery", "torpedo", "rocket_battery" },
    ammo = { torpedo = 2, rocket_battery = 6 }, interceptors = 4 },
  { id = "heavy_cruiser", name = "Heavy cruiser", hull = 80, adf = 1, mr = 1,
    weapons = { "laser_cannon", "laser_battery", "laser_battery", "laser_battery", "torpedo", "rocket_battery" },
    ammo = { torpedo = 4, rocket_battery = 8 }, interceptors = 8 },
  { id = "battleship", name = "Battleship", hull = 120, adf = 2, mr = 2,
    weapons = { "laser_cannon", "laser_cannon", "laser_battery", "laser_battery", "laser_battery",
                "laser_battery", "torpedo", "rocket_battery" },
    ammo = { torpedo = 8, rocket_battery = 10 }, interceptors = 20 },
  -- Assumption: an armed station for the orbit scenario (the notes list none). It has no
  -- engines (ADF 0): it never leaves its orbit, or sits still.
  { id = "station", name = "Armed station", hull = 60, adf = 0, mr = 0,
    weapons = { "laser_battery", "laser_battery", "rocket_battery" },
    ammo = { rocket_battery = 6 }, interceptors = 6 },
}

-- Game constants.
data.rules = {
  -- Most interceptor missiles a ship may fire at one incoming rocket or torpedo.
  max_interceptors_per_attack = 3,
  -- The die for to-hit rolls.
  to_hit_die = "1d100",
  -- Points added to a forward-firing weapon's chance at a target head-on: in the centre row of
  -- its band, or in the hex the firer entered.
  head_on_bonus = 10,
}

return data
