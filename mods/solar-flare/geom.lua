-- Exact integer hex geometry for Solar Flare: directions, distance, sectors of a ship, arcs of
-- fire, the hexside a line of attack enters through, and the centre-to-centre line trace.
--
-- Pure Lua on plain tables `{q=, r=}`, so it runs in tests without a game. Directions are 0..5
-- clockwise from N (N, NE, SE, S, SW, NW) with the engine's axial vectors; hexside i is shared
-- with neighbour i and vertex i lies between hexsides i and i+1.
--
-- Deliberately absent: terrain, pieces, floating point. Every test is a sign of an integer cross
-- product in "line coordinates" X = 3q, Y = 2r + q, where every hex centre and corner is an
-- integer point (an affine image of the screen, so incidence and orientation are exact).
--
-- Example: `geom.trace({q=0,r=0},{q=3,r=1}).through` lists (1,0), (1,1), (2,0), (2,1).
local G = {}

---@type table<integer, integer> direction 0..5 -> axial q step
local DQ = { [0] = 0, 1, 1, 0, -1, -1 }
---@type table<integer, integer> direction 0..5 -> axial r step
local DR = { [0] = -1, -1, 0, 1, 1, 0 }
G.NAMES = { [0] = "N", "NE", "SE", "S", "SW", "NW" }

-- Vertex i offsets in line coordinates (vertex i lies between hexside i and i+1).
local CX = { [0] = 1, 2, 1, -1, -2, -1 }
local CY = { [0] = -1, 0, 1, 1, 0, -1 }

---Hex from coordinates.
function G.hex(q, r) return { q = q, r = r } end

---Stable string key "q,r" for tables. Kept per (q, r): a key is asked for thousands of times
---a game (every map and occupancy lookup), and building the string each time (two number
---conversions and a concatenation) was a few percent of a game. Only integer coordinates are
---kept (a float would index the same slot as its integer but print differently).
local KEYS = {}
local mtype = math.type
function G.key(h)
  local q, r = h.q, h.r
  if mtype(q) ~= "integer" or mtype(r) ~= "integer" then return q .. "," .. r end
  local row = KEYS[q]
  if row == nil then
    row = {}
    KEYS[q] = row
  end
  local k = row[r]
  if k == nil then
    k = q .. "," .. r
    row[r] = k
  end
  return k
end

---Hex from a key.
---@param k string
---@return Hex
function G.unkey(k)
  local q, r = k:match("^(-?%d+),(-?%d+)$")
  return { q = math.tointeger(tonumber(q)) --[[@as integer]], r = math.tointeger(tonumber(r)) --[[@as integer]] }
end

function G.eq(a, b) return a.q == b.q and a.r == b.r end

function G.add(a, b) return { q = a.q + b.q, r = a.r + b.r } end

---Hex distance.
---@return integer
function G.distance(a, b)
  local dq, dr = a.q - b.q, a.r - b.r
  return (math.abs(dq) + math.abs(dr) + math.abs(dq + dr)) // 2
end

---Neighbour across hexside d (d taken mod 6).
---@param d integer
---@return Hex
function G.neighbor(h, d)
  d = d % 6
  return { q = h.q + DQ[d], r = h.r + DR[d] }
end

---Direction d turned by n steps clockwise (negative: counter-clockwise).
---@param d integer
---@param n integer
---@return integer
function G.turn(d, n) return (d + n) % 6 end

function G.opposite(d) return (d + 3) % 6 end

---Direction index of an adjacent hex b seen from a, or nil.
function G.direction_to(a, b)
  for d = 0, 5 do
    if a.q + DQ[d] == b.q and a.r + DR[d] == b.r then return d end
  end
  return nil
end

---Outer section (1..6) of a ship facing `facing` that lies across absolute hexside `d`.
function G.section_of_side(facing, d) return (d - facing) % 6 + 1 end

---Absolute hexside of outer section s (1..6) of a ship facing `facing`.
function G.side_of_section(facing, s) return (facing + s - 1) % 6 end

---Line coordinates (X, Y) of a hex centre.
---@param h Hex
---@return integer x
---@return integer y
local function lc(h) return 3 * h.q, 2 * h.r + h.q end
G.line_coords = lc

local function cross(ax, ay, bx, by) return ax * by - ay * bx end

---Hexsides of a hex through which a line arriving from direction vector (vx, vy) enters:
---one side, or two sides when it comes exactly through a vertex (a tie the attacker decides).
function G.sides_for_vector(vx, vy)
  if vx == 0 and vy == 0 then return {} end
  for i = 0, 5 do
    local p = (i + 5) % 6
    local a = cross(CX[p], CY[p], vx, vy)
    local b = cross(vx, vy, CX[i], CY[i])
    if b == 0 and vx * CX[i] + vy * CY[i] > 0 then return { i, (i + 1) % 6 } end
    if a > 0 and b > 0 then return { i } end
  end
  return {}
end

---Hexsides of `target` through which the line of attack from `source` enters it (1 or 2).
function G.entry_sides(source, target)
  local sx, sy = lc(source)
  local tx, ty = lc(target)
  return G.sides_for_vector(sx - tx, sy - ty)
end

---Whether `target`'s centre lies in the 60-degree arc of fire across hexside d of `from`
---(bounded by the rays through vertices d-1 and d; the boundary rays are inside).
function G.in_arc(from, d, target)
  local fx, fy = lc(from)
  local tx, ty = lc(target)
  local vx, vy = tx - fx, ty - fy
  if vx == 0 and vy == 0 then return false end
  local p = (d + 5) % 6
  return cross(CX[p], CY[p], vx, vy) >= 0 and cross(vx, vy, CX[d], CY[d]) >= 0
end

-- Fractions n/d with d > 0: a < b
local function lt(an, ad, bn, bd) return an * bd < bn * ad end

-- The three pairs of opposite hexside lines of a hex centred at the origin, as
-- |f(x, y)| <= k: f1 = y (N/S), f2 = x - y (NE/SW), f3 = x + y (SE/NW).
-- For each pair: the hexside on the +k side and on the -k side.
---@type table<integer, { plus: integer, minus: integer }>
local PAIRS = { { plus = 3, minus = 0 }, { plus = 1, minus = 4 }, { plus = 2, minus = 5 } }

-- Classify the segment A->B against the hex centred at H: "through" (crosses the interior),
-- "edge" plus the hexside it runs along, or nil.
---@param ax integer
---@param ay integer
---@param dx integer
---@param dy integer
---@param hx integer
---@param hy integer
---@return "through"|"edge"|nil kind
---@return integer|nil hexside for "edge"
---@return_overload "through"
---@return_overload "edge", integer
---@return_overload nil
local function classify(ax, ay, dx, dy, hx, hy)
  local rx, ry = ax - hx, ay - hy
  ---@type table<integer, integer>
  local as = { ry, rx - ry, rx + ry }
  ---@type table<integer, integer>
  local bs = { dy, dx - dy, dx + dy }
  ---@type table<integer, integer>
  local ks = { 1, 2, 2 }
  local lon, lod, hin, hid = 0, 1, 1, 1
  local edge = nil ---@type integer|nil
  for i = 1, 3 do
    local a, b, k = as[i], bs[i], ks[i]
    if b == 0 then
      if a == k or a == -k then
        if edge then return nil end
        edge = (a == k) and PAIRS[i].plus or PAIRS[i].minus
      elseif a > k or a < -k then
        return nil
      end
    else
      local ln, ld, hn, hd
      if b > 0 then ln, ld, hn, hd = -k - a, b, k - a, b
      else ln, ld, hn, hd = a - k, -b, a + k, -b end
      if lt(lon, lod, ln, ld) then lon, lod = ln, ld end
      if lt(hn, hd, hin, hid) then hin, hid = hn, hd end
    end
  end
  if not lt(lon, lod, hin, hid) then return nil end
  if edge then return "edge", edge end
  return "through"
end

---The exact centre-to-centre trace from a to b. Returns
---`{ through = { hexes crossed, ordered from a to b, without a and b },
---   ties = { {h1, h2}, ... } }` where each tie is a pair of hexes the line runs between, along
---their shared hexside (neither is crossed). Corners merely touched are not reported.
function G.trace(a, b)
  local ax, ay = lc(a)
  local bx, by = lc(b)
  local dx, dy = bx - ax, by - ay
  local n = G.distance(a, b)
  local through, ties, seen = {}, {}, {}
  local order = {}
  for q = math.min(a.q, b.q) - 1, math.max(a.q, b.q) + 1 do
    for r = math.min(a.r, b.r) - 1, math.max(a.r, b.r) + 1 do
      local h = { q = q, r = r }
      if not G.eq(h, a) and not G.eq(h, b) and G.distance(a, h) + G.distance(h, b) <= n + 2 then
        local hx, hy = lc(h)
        local kind, side = classify(ax, ay, dx, dy, hx, hy)
        -- Projection of the centre along the line orders the result (metric 4x*x + 3y*y).
        local proj = 4 * (hx - ax) * dx + 3 * (hy - ay) * dy
        if kind == "through" then
          through[#through + 1] = h
          order[G.key(h)] = proj
        elseif kind == "edge" then
          local o = G.neighbor(h, side)
          local k1, k2 = G.key(h), G.key(o)
          local pk = (k1 < k2) and (k1 .. "|" .. k2) or (k2 .. "|" .. k1)
          if not seen[pk] then
            seen[pk] = true
            -- left/right as seen from a looking at b
            local ox, oy = lc(o)
            local hs = cross(dx, dy, hx - ax, hy - ay)
            local left, right = h, o
            if hs > 0 then left, right = o, h end
            ties[#ties + 1] = { left = left, right = right, proj = proj + 4 * (ox - hx) * dx + 3 * (oy - hy) * dy }
          end
        end
      end
    end
  end
  table.sort(through, function(x, y)
    local px, py = order[G.key(x)], order[G.key(y)]
    if px ~= py then return px < py end
    return G.key(x) < G.key(y)
  end)
  table.sort(ties, function(x, y) return x.proj < y.proj end)
  for _, t in ipairs(ties) do t.proj = nil end
  return { through = through, ties = ties }
end

---All hexes within distance n of h (ring by ring, each ring from N clockwise).
function G.range(h, n)
  local out = { { q = h.q, r = h.r } }
  for k = 1, n do
    local cur = { q = h.q + DQ[4] * k, r = h.r + DR[4] * k } -- start k steps SW... then walk
    for side = 0, 5 do
      for _ = 1, k do
        out[#out + 1] = cur
        cur = G.neighbor(cur, side)
      end
    end
  end
  return out
end

return G
