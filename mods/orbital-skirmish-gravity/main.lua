-- Gravity hexes: a variant of orbital-skirmish (see README.md).
--
-- What it changes: the six hexes next to a planet are gravity hexes. A ship that enters one
-- with hexes still to move is pulled one hexside toward the planet (before it makes its own
-- turn in that hex); it resists by spending one of its MR turns to turn back. A ship that
-- moves into a planet's hex crashes and is destroyed (in the base game that move is illegal),
-- and so does one that enters a gravity hex head-on, flying straight at the planet.
-- What it does not change: orbits (a ship in orbit is not pulled), speed, fire.
-- It plugs two fields into the base's movement environment (env.pull, env.crash), so the
-- move action, the reachability search and the bots all see gravity without new actions.

local G = require("gravity")
-- The checker reads the base's main.lua as a library and takes its global as always set; at run
-- time this guard is what names a wrong load order.
---@diagnostic disable-next-line: unnecessary-assert
local base = assert(ORBITAL_SKIRMISH, "orbital-skirmish must load first")
-- The base's movement module: the very table require("movement") gives (modules are cached per
-- file), read from the base's global so the checker knows it without resolving the base's folder.
local mv = base.movement

-- Numbers in data: how many hexsides a gravity hex pulls, and whether entering a planet
-- crashes (otherwise it stays illegal as in the base game).
game.table {
  id = "gravity",
  rows = { "value" },
  columns = { "pull_hexsides", "crash" },
  cells = { { 1, "yes" } },
}

table.insert(base.env_extensions, function(ctx, env)
  local pull = ctx:lookup("gravity", "value", "pull_hexsides")
  env.crash = ctx:lookup("gravity", "value", "crash") == "yes"
  env.pull = function(h, facing, _left_to_move)
    -- Entered head-on (across the hexside opposite a planet, flying straight at it): a crash
    -- in this hex, whatever the ship would turn here.
    if env.crash and env.blocked(mv.step(h, facing)) then return "crash" end
    -- Next to several planets: the first by direction number pulls (assumption, README).
    for d = 0, 5 do
      if env.blocked(mv.step(h, d)) then return G.pulled(facing, d, pull) end
    end
    return nil
  end
end)
