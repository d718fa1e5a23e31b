-- gravity.lua: the gravity pull as a pure function (no ctx, no game state).
--
-- What it is: the facing a ship has after a planet next to it pulls it. What it deliberately
-- does not do: decide when the pull applies (main.lua plugs it into the base movement as
-- `env.pull`: on entering a hex next to a planet with hexes still to move) or resist it (a
-- ship resists by spending one of its own turns to turn back, an ordinary "L"/"R").
--   gravity.pulled(0, 1, 1) == 1   -- facing N, planet to the NE: now facing the planet
--   gravity.pulled(0, 3, 1) == 0   -- planet dead astern: no side is nearer, no pull

---@class GravityRules
local G = {}

--- The facing after a pull of `hexsides` (at most) toward the planet in direction `toward`.
-- A ship facing the planet or facing directly away from it is not turned.
---@param facing integer
---@param toward integer the direction of the planet
---@param hexsides integer
---@return integer
function G.pulled(facing, toward, hexsides)
  for _ = 1, hexsides do
    local diff = (toward - facing) % 6
    if diff == 0 or diff == 3 then return facing end
    if diff <= 2 then facing = (facing + 1) % 6 else facing = (facing + 5) % 6 end
  end
  return facing
end

return G
