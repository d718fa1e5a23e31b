-- combat.lua: fire geometry and odds as pure functions (no ctx, no game state).
--
-- What it is: whether a planet blocks a shot, whether a target is in a forward-firing band,
-- and the chance to hit. What it deliberately does not do: roll dice, spend ammunition or
-- change the game (main.lua does that), or read weapon numbers (they come in as arguments).
--
-- Line of fire: a planet blocks a shot only when every shortest chain of hexes from the firer to
-- the target passes through a planet; an equally short chain round it leaves the shot open.
--   combat.los_blocked({q=0,r=0}, {q=0,r=3}, planets, is_planet)  -- planet at (0,1): true
--   combat.los_blocked({q=0,r=0}, {q=3,r=1}, planets, is_planet)  -- planet at (2,0): false

local mv = require("movement")

---@class OrbitalCombat
local C = {}

--- Whether planets block the shot from `a` to `b`: every shortest chain of hexes between them
-- passes through a planet. `planets` is a list of hexes; `is_planet(h)` answers for any hex.
--
-- How: the shortest chains from `a` to `b` take `m` steps in one direction `u` and `n` in the
-- next one round `w` (b - a = m u + n w, m, n >= 0), in any order. So the hexes on them are
-- a + i u + j w (0 <= i <= m, 0 <= j <= n), and a chain reaches (i, j) from (i - 1, j) or
-- (i, j - 1): one pass over that parallelogram, rows of it at a time.
---@param a Hex
---@param b Hex
---@param planets Hex[]
---@param is_planet fun(h: Hex): boolean
---@return boolean
function C.los_blocked(a, b, planets, is_planet)
  local dq, dr = b.q - a.q, b.r - a.r
  local m, n, u, w
  for d = 0, 5 do
    local v1, v2 = mv.VECTORS[d], mv.VECTORS[(d + 1) % 6]
    -- v1 and v2 span the lattice with determinant 1 (counter-clockwise order): solve exactly.
    local det = v1[1] * v2[2] - v1[2] * v2[1]
    local i = (dq * v2[2] - dr * v2[1]) * det
    local j = (v1[1] * dr - v1[2] * dq) * det
    if i >= 0 and j >= 0 then m, n, u, w = i, j, v1, v2 break end
  end
  assert(m and n and u and w, "b - a lies between two neighbouring directions")
  -- Where a planet lies in the parallelogram, if it does (not at either end).
  local inside = {}
  local any = false
  for _, p in ipairs(planets) do
    local pq, pr = p.q - a.q, p.r - a.r
    local det = u[1] * w[2] - u[2] * w[1]
    local i = (pq * w[2] - pr * w[1]) * det
    local j = (u[1] * pr - u[2] * pq) * det
    if i >= 0 and j >= 0 and i <= m and j <= n and not (i == 0 and j == 0) and not (i == m and j == n) then
      inside[i * (n + 1) + j] = true
      any = true
    end
  end
  -- Most shots have no planet anywhere between: nothing to walk.
  if not any then return false end
  local reach = {}
  for i = 0, m do
    for j = 0, n do
      local k = i * (n + 1) + j
      if i == 0 and j == 0 then
        reach[k] = true
      elseif inside[k] or (i < m or j < n) and is_planet({ q = a.q + i * u[1] + j * w[1], r = a.r + i * u[2] + j * w[2] }) then
        reach[k] = false
      else
        reach[k] = (i > 0 and reach[k - (n + 1)]) or (j > 0 and reach[k - 1]) or false
      end
    end
  end
  return not reach[m * (n + 1) + n]
end

--- Where `t` lies in the forward band of a ship at `s` facing `facing`: the band is three hexes
-- wide, straight ahead of the bow. "centre" (the row straight ahead: head-on), "side" (the row
-- either side of it, from the hexes ahead-left and ahead-right on), "own" (the ship's own hex:
-- ships in one hex may fire at each other), or nil (outside the band).
---@param s Hex
---@param facing integer
---@param t Hex
---@return "centre"|"side"|"own"|nil
function C.forward_band(s, facing, t)
  local dq, dr = t.q - s.q, t.r - s.r
  if dq == 0 and dr == 0 then return "own" end
  local v = mv.VECTORS[facing]
  local vq, vr = v[1], v[2]
  -- Whether (q, r) is k steps straight ahead, k >= 0 (a direction vector has a component 1 or -1).
  local function ahead(q, r)
    local k = vq ~= 0 and q * vq or r * vr
    return k >= 0 and q == k * vq and r == k * vr
  end
  if ahead(dq, dr) then return "centre" end
  for _, d in ipairs({ (facing + 1) % 6, (facing + 5) % 6 }) do
    local w = mv.VECTORS[d]
    if ahead(dq - w[1], dr - w[2]) then return "side" end
  end
  return nil
end

--- Whether `t` is in the forward band of a ship at `s` facing `facing` (see C.forward_band).
---@param s Hex
---@param facing integer
---@param t Hex
---@return boolean
function C.in_forward_band(s, facing, t)
  return C.forward_band(s, facing, t) ~= nil
end

--- The chance to hit in percent (never below 0): base chance, less `range_loss` per hex of
-- range, less `icm_penalty` per interceptor missile fired at the shot.
---@param base integer
---@param range_loss integer
---@param range integer
---@param icm_penalty integer
---@param interceptors integer
---@return integer
function C.chance(base, range_loss, range, icm_penalty, interceptors)
  local c = base - range_loss * range - icm_penalty * interceptors
  if c < 0 then return 0 end
  return c
end

return C
