-- The seven-sector board: which sectors cover a hex and whether the hex is in play.
--
-- Seven hexagonal tiles of radius n sit flat edge to flat edge around the centre tile. A tile's
-- boundary runs through the centres of its ring-n hexes, so ring-n hexes are cut: side hexes in
-- half, corner hexes in thirds. Where two or three tiles meet, the pieces add up to a whole hex
-- (a seam hex, in play and in every sector that covers part of it); on the outer edge they do not
-- (a rim hex: partial, not in play). Numbering and centres match the engine's board module.
--
-- Deliberately absent: anomalies and pieces. Example: `sectors.playable(3)[geom.key(h)]`.
local G = require("geom")
local S = {}

local CENTERS = { [0] = { 0, 0 }, { 1, -2 }, { 2, -1 }, { 1, 1 }, { -1, 2 }, { -2, 1 }, { -1, -1 } }

---Centre hex of sector s (0..6) for tiles of radius n.
function S.center(n, s)
  local c = CENTERS[s]
  return { q = c[1] * n, r = c[2] * n }
end

local function is_corner(n, h, c)
  local dq, dr = h.q - c.q, h.r - c.r
  for d = 0, 5 do
    local v = G.neighbor({ q = 0, r = 0 }, d)
    if dq == v.q * n and dr == v.r * n then return true end
  end
  return false
end

---Coverage of hex h: list of sector numbers covering any part of it, and sixths covered.
function S.coverage(n, h)
  local list, sixths = {}, 0
  for s = 0, 6 do
    local c = S.center(n, s)
    local d = G.distance(h, c)
    if d < n then
      list[#list + 1] = s; sixths = sixths + 6
    elseif d == n then
      list[#list + 1] = s
      sixths = sixths + (is_corner(n, h, c) and 2 or 3)
    end
  end
  return list, sixths
end

local cache = {}

---The board for tile radius n (cached; pure): `{ hexes = {list in a fixed order},
---play = {key -> true} (whole hexes), rim = {key -> true}, sectors = {key -> {s...}} }`.
function S.board(n)
  if cache[n] then return cache[n] end
  local b = { hexes = {}, play = {}, rim = {}, sectors = {} }
  for _, h in ipairs(G.range({ q = 0, r = 0 }, 3 * n)) do
    local list, sixths = S.coverage(n, h)
    if #list > 0 then
      local k = G.key(h)
      b.sectors[k] = list
      if sixths >= 6 then
        b.play[k] = true
        b.hexes[#b.hexes + 1] = h
      else
        b.rim[k] = true
      end
    end
  end
  cache[n] = b
  return b
end

return S
