-- helpers.lua: small pure functions used by main.lua, loaded with
--   local helpers = require("tutorial.helpers")
-- A module name "<mod id>.<file>" resolves to mods/<mod id>/<file>.lua; a bare name such as
-- "movement" resolves to the engine's shared scripts/movement.lua. Paths and ".." are refused.
--
-- Keep rules data (numbers) in declarations and scenarios, and keep helpers like these free of
-- game state: they receive what they need as arguments.

local helpers = {}

-- The hexes a piece could end its move in: every hex within `speed` of `from` that is on the
-- arena and not occupied. `occupied` is a set keyed by hex.key(h) ("q,r").
function helpers.destinations(from, speed, radius, occupied)
  local out = {}
  for _, h in ipairs(hex.range(from, speed)) do
    if hex.length(h) <= radius and not occupied[hex.key(h)] and not hex.equals(h, from) then
      out[#out + 1] = h
    end
  end
  return out
end

-- Clamp a range to the last column of a table (longer shots use the last column).
function helpers.clamp(n, lo, hi)
  if n < lo then return lo end
  if n > hi then return hi end
  return n
end

return helpers
