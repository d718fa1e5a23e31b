-- helpers.lua: small pure functions used by main.lua, loaded with `require("helpers")`.
-- A bare module name searches this mod (and, for a variant, its base), then the engine's shared
-- scripts/ folder ("hexforge.movement" -> scripts/hexforge/movement.lua). Paths and ".." are
-- refused.
--
-- Keep rules data (numbers) in declarations and scenarios, and keep helpers like these free of
-- game state: they receive what they need as arguments.

local helpers = {}

-- The hexes a piece could end its move in: every hex within `speed` of `from`, other than
-- `from`, for which `blocked(hex)` is false.
function helpers.destinations(from, speed, blocked)
  local out = {}
  for _, h in ipairs(hex.range(from, speed)) do
    if not hex.eq(h, from) and not blocked(h) then
      out[#out + 1] = h
    end
  end
  return out
end

-- Clamp a number into lo..hi.
function helpers.clamp(n, lo, hi)
  if n < lo then return lo end
  if n > hi then return hi end
  return n
end

return helpers
