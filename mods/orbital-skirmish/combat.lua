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

local C = {}

--- Whether planets block the shot from `a` to `b`: every shortest chain of hexes between them
-- passes through a planet. `planets` is a list of hexes; `is_planet(h)` answers for any hex.
-- The chains are walked a distance at a time: the hexes `k` steps from `a` (and `d - k` from
-- `b`) that a chain without planets reaches.
function C.los_blocked(a, b, planets, is_planet)
  local d = mv.distance(a, b)
  -- Most shots have no planet anywhere between: nothing to walk.
  local between = false
  for _, p in ipairs(planets) do
    if mv.distance(a, p) + mv.distance(p, b) == d and not mv.eq(p, a) and not mv.eq(p, b) then
      between = true
      break
    end
  end
  if not between then return false end
  local layer = { a }
  for k = 1, d - 1 do
    local next, seen = {}, {}
    for _, h in ipairs(layer) do
      for dir = 0, 5 do
        local n = mv.step(h, dir)
        local key = n.q .. "," .. n.r
        if not seen[key] and mv.distance(n, b) == d - k and not is_planet(n) then
          seen[key] = true
          next[#next + 1] = n
        end
      end
    end
    if #next == 0 then return true end
    layer = next
  end
  return false
end

--- Where `t` lies in the forward band of a ship at `s` facing `facing`: the band is three hexes
-- wide, straight ahead of the bow. "centre" (the row straight ahead: head-on), "side" (the row
-- either side of it, from the hexes ahead-left and ahead-right on), "own" (the ship's own hex:
-- ships in one hex may fire at each other), or nil (outside the band).
function C.forward_band(s, facing, t)
  local dq, dr = t.q - s.q, t.r - s.r
  if dq == 0 and dr == 0 then return "own" end
  local v = mv.VECTORS[facing]
  -- Whether (q, r) is k steps straight ahead, k >= 0.
  local function ahead(q, r)
    local k = mv.distance({ q = 0, r = 0 }, { q = q, r = r })
    return q == k * v[1] and r == k * v[2]
  end
  if ahead(dq, dr) then return "centre" end
  for _, d in ipairs({ (facing + 1) % 6, (facing + 5) % 6 }) do
    local w = mv.VECTORS[d]
    if ahead(dq - w[1], dr - w[2]) then return "side" end
  end
  return nil
end

--- Whether `t` is in the forward band of a ship at `s` facing `facing` (see C.forward_band).
function C.in_forward_band(s, facing, t)
  return C.forward_band(s, facing, t) ~= nil
end

--- The chance to hit in percent (never below 0): base chance, less `range_loss` per hex of
-- range, less `icm_penalty` per interceptor missile fired at the shot.
function C.chance(base, range_loss, range, icm_penalty, interceptors)
  local c = base - range_loss * range - icm_penalty * interceptors
  if c < 0 then return 0 end
  return c
end

return C
