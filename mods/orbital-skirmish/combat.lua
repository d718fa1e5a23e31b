-- combat.lua: fire geometry and odds as pure functions (no ctx, no game state).
--
-- What it is: whether a planet blocks a shot, whether a target is in a forward-firing band,
-- and the chance to hit. What it deliberately does not do: roll dice, spend ammunition or
-- change the game (main.lua does that), or read weapon numbers (they come in as arguments).
--
-- Line of fire: the straight segment between the two hex centres. A planet blocks when the
-- segment passes through the inside of its hex; when the segment runs exactly along the
-- hexside between two hexes (the six "diagonal" lines), there are two equally short paths and
-- the shot is blocked only if both hexes are planets; touching a corner never blocks.
--   combat.los_blocked({q=0,r=0}, {q=0,r=3}, is_planet)   -- planet at (0,1): true
--   combat.los_blocked({q=0,r=0}, {q=1,r=-2}, is_planet)  -- planet at (0,-1) only: false
--
-- The arithmetic is exact: hexes are cells of the cube lattice, |x-y|, |y-z|, |z-x| < 1 around
-- the centre, and the segment A + t (B - A) is tested against those six half-planes with
-- integer fractions.

local mv = require("movement")

local C = {}

-- The three cube differences of an axial vector: x - y, y - z, z - x with x = q, z = r.
local function diffs(q, r)
  return { 2 * q + r, -q - 2 * r, r - q }
end

-- For each of the six hexside constraints (index i of diffs, sign +1/-1 for the value 1 or -1
-- on the boundary), the neighbour on the far side of that hexside.
local ACROSS = {}
for d = 0, 5 do
  local v = mv.VECTORS[d]
  local ds = diffs(v[1], v[2])
  for i = 1, 3 do
    if ds[i] == 2 then ACROSS[i .. "+"] = d elseif ds[i] == -2 then ACROSS[i .. "-"] = d end
  end
end

-- Fractions n/d with d > 0, compared exactly.
local function less(an, ad, bn, bd) return an * bd < bn * ad end

-- The open set of t in (0, 1) where the segment a + t*b (per constraint) stays strictly
-- inside all constraints except `skip`; returns true if that set is non-empty.
local function interval_nonempty(a, b, skip)
  local lon, lod, hin, hid = 0, 1, 1, 1
  for i = 1, 3 do
    if i ~= skip then
      local ai, bi = a[i], b[i]
      if bi == 0 then
        if not (ai > -1 and ai < 1) then return false end
      elseif bi > 0 then
        -- -1 < ai + t bi < 1  =>  (-1 - ai)/bi < t < (1 - ai)/bi
        if less(lon, lod, -1 - ai, bi) then lon, lod = -1 - ai, bi end
        if less(1 - ai, bi, hin, hid) then hin, hid = 1 - ai, bi end
      else
        local nb = -bi
        -- (ai - 1)/nb < t < (ai + 1)/nb
        if less(lon, lod, ai - 1, nb) then lon, lod = ai - 1, nb end
        if less(ai + 1, nb, hin, hid) then hin, hid = ai + 1, nb end
      end
    end
  end
  return less(lon, lod, hin, hid)
end

--- How the segment from the centre of `a` to the centre of `b` meets hex `h`: "cross" (through
-- its inside), "tie" (along one of its hexsides; second value: the direction of the hex on the
-- other side), or nil (not at all, or only a corner).
function C.meets(a, b, h)
  local A = diffs(a.q - h.q, a.r - h.r)
  local D = diffs(b.q - a.q, b.r - a.r)
  if interval_nonempty(A, D, nil) then return "cross" end
  for i = 1, 3 do
    if D[i] == 0 and (A[i] == 1 or A[i] == -1) and interval_nonempty(A, D, i) then
      return "tie", ACROSS[i .. (A[i] == 1 and "+" or "-")]
    end
  end
  return nil
end

--- Whether planets block the shot from `a` to `b`: some planet must lie on every shortest
-- path. `planets` is a list of hexes; `is_planet(h)` answers for any hex.
function C.los_blocked(a, b, planets, is_planet)
  for _, p in ipairs(planets) do
    if not mv.eq(p, a) and not mv.eq(p, b) then
      local how, across = C.meets(a, b, p)
      if how == "cross" then return true end
      if how == "tie" and is_planet(mv.step(p, across)) then return true end
    end
  end
  return false
end

--- Whether `t` is in the forward band of a ship at `s` facing `facing`: the hexes straight
-- ahead of the bow (and the ship's own hex: ships in one hex fire at each other freely).
function C.in_forward_band(s, facing, t)
  local v = mv.VECTORS[facing]
  local dq, dr = t.q - s.q, t.r - s.r
  local k = mv.distance(s, t)
  return dq == k * v[1] and dr == k * v[2]
end

--- The chance to hit in percent (never below 0): base chance, less `range_loss` per hex of
-- range, less `icm_penalty` per interceptor missile fired at the shot.
function C.chance(base, range_loss, range, icm_penalty, interceptors)
  local c = base - range_loss * range - icm_penalty * interceptors
  if c < 0 then return 0 end
  return c
end

return C
