-- rules.lua: the game's logic as functions over a read-only snapshot of the state (an "env").
-- Geometry is plain axial integer arithmetic written here, so the rules do not depend on the
-- exact names of engine helpers. Nothing here writes to the game except `destroy` and the map
-- refresh, which take a writable ctx. Numbers come from data.lua.

local data = require("data")

---The callbacks' ctx, or a test's game handle (it reads the same way; it has no scenario id).
---@alias RulesCtx Ctx|TestGame

---@class PlanetoidRules
local R = {}

-- Axial direction vectors, 0 = N, clockwise (engine numbering).
---@type table<integer, Hex>
R.DIRS = {
  [0] = { q = 0, r = -1 }, { q = 1, r = -1 }, { q = 1, r = 0 },
  { q = 0, r = 1 }, { q = -1, r = 1 }, { q = -1, r = 0 },
}
---@type table<string, integer>
local NAMES = { N = 0, NE = 1, SE = 2, S = 3, SW = 4, NW = 5 }

--------------------------------------------------------------------------------------------
-- Geometry
--------------------------------------------------------------------------------------------

---@param h Hex
---@return string
function R.key(h) return h.q .. "," .. h.r end

-- An integer key for a hex, for the hot lookups inside one env (string keys are for globals).
---@param h Hex
---@return integer
function R.ik(h) return (h.q + 4096) * 8192 + (h.r + 4096) end

---@param k string a key made by R.key
---@return Hex
function R.unkey(k)
  local qs, rs = k:match("^(-?%d+),(-?%d+)$")
  local q, r = math.tointeger(tonumber(qs)), math.tointeger(tonumber(rs))
  assert(q and r, "hex keys are \"q,r\" with integer q and r")
  return { q = q, r = r }
end

---@param a Hex
---@param b Hex
---@return Hex
function R.add(a, b) return { q = a.q + b.q, r = a.r + b.r } end

---@param a Hex|nil
---@param b Hex|nil
---@return boolean
function R.eq(a, b) return a ~= nil and b ~= nil and a.q == b.q and a.r == b.r end

---@param a Hex
---@param b Hex
---@return integer
function R.distance(a, b)
  local dq, dr = a.q - b.q, a.r - b.r
  return math.max(math.abs(dq), math.abs(dr), math.abs(dq + dr))
end

-- A direction given as 0..5 or a name; nil if neither.
---@param d any
---@return integer|nil
function R.dir(d)
  if type(d) == "number" then
    if d == math.floor(d) and d >= 0 and d <= 5 then return math.floor(d) end
    return nil
  end
  if type(d) == "string" then return NAMES[d] end
  return nil
end

---@param h Hex
---@param d integer 0..5
---@param n? integer steps (default 1)
---@return Hex
function R.step(h, d, n)
  local v = R.DIRS[d]
  n = n or 1
  return { q = h.q + v.q * n, r = h.r + v.r * n }
end

---@param d integer
---@return integer
function R.opposite(d) return (d + 3) % 6 end

-- Rotate an offset clockwise by `steps` sixths of a turn: (q, r) -> (-r, q + r).
---@param v Hex
---@param steps integer
---@return Hex
function R.rotate(v, steps)
  local q, r = v.q, v.r
  for _ = 1, steps % 6 do q, r = -r, q + r end
  return { q = q, r = r }
end

-- The hexes a piece of `kind` covers with its anchor (bow) at `anchor`, facing `facing`.
-- Kept once made (a pure function of its arguments, asked for the same positions over and over
-- by every listing): the list and its hexes are shared, so callers only read them.
---@type table<string, table<integer, Hex[]|nil>>
local FOOTPRINTS = {}
---@param kind string
---@param anchor Hex
---@param facing? integer 0..5 (default 0)
---@return Hex[]
function R.footprint(kind, anchor, facing)
  facing = facing or 0
  local by_kind = FOOTPRINTS[kind]
  if not by_kind then
    by_kind = {}
    FOOTPRINTS[kind] = by_kind
  end
  local k = R.ik(anchor) * 8 + facing
  local out = by_kind[k]
  if out then return out end
  out = {}
  for i, o in ipairs(data.pieces[kind].footprint) do
    out[i] = R.add(anchor, R.rotate(o, facing))
  end
  by_kind[k] = out
  return out
end

-- Smallest distance between two lists of hexes (math.huge when one is empty).
---@param hexes_a Hex[]
---@param hexes_b Hex[]
---@return number
function R.gap(hexes_a, hexes_b)
  local best = math.huge
  for _, a in ipairs(hexes_a) do
    for _, b in ipairs(hexes_b) do
      local d = R.distance(a, b)
      if d < best then best = d end
    end
  end
  return best
end

--------------------------------------------------------------------------------------------
-- The map: static obstacles and the planetoids existing this turn, kept in game globals
--------------------------------------------------------------------------------------------

-- The colour of a round (1-based).
---@param round integer
---@return string
function R.colour_of_round(round)
  local colour = assert(data.colours[(round - 1) % #data.colours + 1], "the index is within the list")
  return colour
end

---@param ctx RulesCtx
---@return string
function R.colour(ctx)
  if ctx.label then return ctx.label end
  return R.colour_of_round(math.max(ctx.round or 1, 1))
end

-- Scan the board's terrain and store it: `obstacles` (hex key -> terrain id) and `planetoids`
-- (hex key -> colour, only those existing in this turn's colour). Called at setup and at the
-- start of every turn.
---@param ctx Ctx
function R.refresh_map(ctx)
  local obstacles, planetoids = {}, {}
  local colour = R.colour(ctx)
  for _, h in ipairs(ctx:board_hexes()) do
    for _, t in ipairs(ctx:terrain(h)) do
      local info = data.terrain[t]
      if info and info.obstacle then obstacles[R.key(h)] = t end
      if info and info.planetoid == colour then planetoids[R.key(h)] = colour end
    end
  end
  ctx:set_global("obstacles", obstacles)
  ctx:set_global("planetoids", planetoids)
  -- Names the map by what is on it: envs keep what depends only on the map per name (env.lua
  -- map_of), and the same map comes back every third turn.
  ctx:set_global("map_sig", ("%s|%s|%s"):format(colour, R.sorted_keys(obstacles), R.sorted_keys(planetoids)))
end

-- The keys of table `t`, sorted and joined with commas.
---@param t table<string, any>
---@return string
function R.sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys)
  return table.concat(keys, ",")
end

---@param p Piece
---@return integer
local function facing_of(p)
  local f = R.dir(p.facing)
  return f or 0
end

---@param p Piece
---@return string
local function kind_of(p) return p.type end
R.kind_of = kind_of
R.facing_of = facing_of

--------------------------------------------------------------------------------------------
-- Combat numbers
--------------------------------------------------------------------------------------------

-- The longest distance `firer_kind` can shoot at `target_kind`.
---@param firer_kind string
---@param target_kind string
---@return integer
function R.max_range(firer_kind, target_kind)
  local t = data.pieces[firer_kind].table
  if not t then return 0 end
  local n = #data.tables[t].cells[1]
  local cap = data.max_distance[firer_kind] and data.max_distance[firer_kind][target_kind]
  if cap and cap < n then n = cap end
  return n
end

-- The cell of a table: the lowest d6 face that hits.
---@param table_id string
---@param row string
---@param distance integer
---@return integer|nil
function R.cell(table_id, row, distance)
  local t = data.tables[table_id]
  for i, cells in ipairs(t.cells) do
    if t.rows[i] == row then return cells[distance] end
  end
  return nil
end

-- The d6 roll a firer of `firer_kind` with `damage` needs against `target_kind` at `distance`:
-- a number, or nil and the reason there is no shot.
---@param firer_kind string
---@param target_kind string
---@param distance integer
---@param damage? integer the firer's damage
---@return integer|nil need
---@return string|nil reason
function R.need(firer_kind, target_kind, distance, damage)
  local t = data.pieces[firer_kind].table
  if not t then return nil, "a " .. data.pieces[firer_kind].name:lower() .. " never fires" end
  local n_cols = #data.tables[t].cells[1]
  if distance < 1 or distance > n_cols then
    return nil, ("out of range: %d hexes (the table ends at %d)"):format(distance, n_cols)
  end
  local cap = R.max_range(firer_kind, target_kind)
  if distance > cap then
    return nil, ("out of range: a %s fires at a %s only from %d hex(es)"):format(
      data.pieces[firer_kind].name:lower(), data.pieces[target_kind].name:lower(), cap)
  end
  local row = data.target_row[t][target_kind]
  local cell = assert(R.cell(t, row, distance), "every target row has a cell at every distance in range")
  local n = cell + (damage or 0)
  if n > data.die_faces then
    return nil, ("no face of the die can hit (needs %d)"):format(n)
  end
  return n
end

--------------------------------------------------------------------------------------------
-- Destruction
--------------------------------------------------------------------------------------------

-- Destroy piece `id` and, transitively, every piece present that overlaps a destroyed one.
-- Returns the list of destroyed ids (ascending).
---@param ctx Ctx
---@param e Env
---@param id integer
---@return integer[]
function R.destroy(ctx, e, id)
  local doomed = { [id] = true } ---@type table<integer, true|nil>
  local queue = { id }
  while #queue > 0 do
    local cur = table.remove(queue, 1)
    local entry = e.pieces[cur] ---@type PieceEntry|nil
    if entry then
      for _, h in ipairs(entry.fp) do
        for _, other in ipairs(e:ids_at(h)) do
          if not doomed[other] then
            doomed[other] = true
            queue[#queue + 1] = other
          end
        end
      end
    end
  end
  local ids = {}
  for d in pairs(doomed) do ids[#ids + 1] = d end
  table.sort(ids)
  for _, d in ipairs(ids) do
    local entry = e.pieces[d]
    local name = entry and data.pieces[entry.kind].name or "piece"
    if d ~= id then
      ctx:log(("%s %d, overlapping, is destroyed with it"):format(name, d))
    else
      ctx:log(("%s %d is destroyed"):format(name, d))
    end
    ctx:destroy(d)
  end
  return ids
end

--------------------------------------------------------------------------------------------
-- Scoring
--------------------------------------------------------------------------------------------

---@param ctx RulesCtx
---@param side string
---@return number
function R.score(ctx, side)
  local total = 0 ---@type number
  -- Only the fixed bases, as shared snapshots: this runs after every action.
  for _, p in ipairs(ctx:pieces({ owner = side, type = "fixed_base", shared = true })) do
    local hits = (p.values and p.values.damage) or 0
    total = total + math.max(0, data.points_per_base - data.points_per_hit * hits)
  end
  return total
end

return R
