-- squadron-command geometry: offset rows, sectors and reachable hexes. Pure functions only.
--
-- The battlefield is the engine's offset_rect board: even-r offset rows, row = axial r (row 0
-- at the top), even rows shoved half a hex right, col = q + (r + r mod 2) / 2. This module
-- knows nothing about ctx or pieces: callers pass predicates (is a hex enterable, does it stop
-- movement, may a unit step off the board here).
--
-- Example: geometry.x2({q=0,r=0}) == 1 (even row, column 0: its centre is half a hex from the
-- left edge); geometry.sectors_of({q=4,r=0}, {9,17}, {"left","centre","right"}) == {"left","centre"}.

local G = {}

-- Axial vectors of directions 0..5 (N, NE, SE, S, SW, NW), as the engine numbers them.
G.DIRS = {
  [0] = { q = 0, r = -1 },
  { q = 1, r = -1 },
  { q = 1, r = 0 },
  { q = 0, r = 1 },
  { q = -1, r = 1 },
  { q = -1, r = 0 },
}

function G.key(h)
  return h.q .. "," .. h.r
end

function G.eq(a, b)
  return a.q == b.q and a.r == b.r
end

function G.neighbor(h, d)
  local v = G.DIRS[d]
  return { q = h.q + v.q, r = h.r + v.r }
end

function G.distance(a, b)
  local dq, dr = a.q - b.q, a.r - b.r
  return (math.abs(dq) + math.abs(dr) + math.abs(dq + dr)) // 2
end

-- Offset column of a hex (Lua's // and % round towards minus infinity, like the engine).
function G.col(h)
  return h.q + (h.r + h.r % 2) // 2
end

function G.from_offset(col, row)
  return { q = col - (row + row % 2) // 2, r = row }
end

-- x of the hex centre in half hex widths from the left edge: even rows sit half a hex right.
function G.x2(h)
  local c = G.col(h)
  if h.r % 2 == 0 then
    return 2 * c + 1
  end
  return 2 * c
end

-- The sectors a hex belongs to: sector i spans the x positions between line i-1 and line i,
-- both included, so a hex centred on a line is in both sectors it divides.
function G.sectors_of(h, lines, names)
  local x, out = G.x2(h), {}
  for i, name in ipairs(names) do
    local lo, hi = lines[i - 1], lines[i]
    if (lo == nil or x >= lo) and (hi == nil or x <= hi) then
      out[#out + 1] = name
    end
  end
  return out
end

function G.in_sector(h, sector, lines, names)
  for _, s in ipairs(G.sectors_of(h, lines, names)) do
    if s == sector then
      return true
    end
  end
  return false
end

-- Hexes a unit at `start` can reach in at most `steps` hexes, one hex at a time.
--   enterable(h): the unit may enter h (on the board, a whole hex, not occupied)
--   stops(h): entering h ends the move (a space feature)
--   exit_ok(from, to): stepping from board hex `from` to off-board hex `to` leaves the battle
-- Returns a list of { hex, cost, exit } sorted by cost, then row, then q (deterministic); the
-- start hex is not included. A hex is reached at its least cost (breadth first), so a stopping
-- hex on the cheapest way is never expanded.
function G.reach(start, steps, enterable, stops, exit_ok)
  local seen = { [G.key(start)] = true }
  local out, frontier = {}, { start }
  for cost = 1, steps do
    local next_frontier = {}
    for _, h in ipairs(frontier) do
      for d = 0, 5 do
        local n = G.neighbor(h, d)
        local k = G.key(n)
        if not seen[k] then
          if enterable(n) then
            seen[k] = true
            out[#out + 1] = { hex = n, cost = cost, exit = false }
            if not stops(n) then
              next_frontier[#next_frontier + 1] = n
            end
          elseif exit_ok(h, n) then
            seen[k] = true
            out[#out + 1] = { hex = n, cost = cost, exit = true }
          end
        end
      end
    end
    frontier = next_frontier
  end
  table.sort(out, function(a, b)
    if a.cost ~= b.cost then
      return a.cost < b.cost
    end
    if a.hex.r ~= b.hex.r then
      return a.hex.r < b.hex.r
    end
    return a.hex.q < b.hex.q
  end)
  return out
end

-- The entry for `to` in a reach list, or nil.
function G.find(list, to)
  for _, e in ipairs(list) do
    if G.eq(e.hex, to) then
      return e
    end
  end
  return nil
end

-- The first hex among the neighbours of h in `dirs` order that `free` accepts, or nil.
function G.retire_step(h, dirs, free)
  for _, d in ipairs(dirs) do
    local n = G.neighbor(h, d)
    if free(n) then
      return n
    end
  end
  return nil
end

return G
