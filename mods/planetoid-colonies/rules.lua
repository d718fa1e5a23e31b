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
  -- Counts the maps: envs keep what depends only on the map per version (map_of).
  ctx:set_global("map_version", (ctx:global("map_version") or 0) + 1)
end

--------------------------------------------------------------------------------------------
-- The env: one snapshot per callback
--------------------------------------------------------------------------------------------

---A piece present on the board, as the env sees it.
---@class PieceEntry
---@field p Piece the engine's shared, read-only snapshot
---@field kind string
---@field fp Hex[] the hexes it covers (a shared list, R.footprint)
---@field facing integer

---What depends only on the map (map_of): hex keys are R.ik's.
---@class MapMemo
---@field sig? string scenario and map version; nil for a test's game handle (nothing kept)
---@field nearest table<integer, number|nil> distance to the nearest existing planetoid
---@field corridor table<integer, string|false|nil> why the map closes a hex to corridors
---@field hex table<string, table<integer, (string|false)[]|nil>> by kind: { map reason, keep-away reason }
---@field obstacles? table<integer, string|nil> terrain id of each obstacle
---@field planetoids? table<integer, string|nil> colour of each existing planetoid
---@field planetoid_list? Hex[] the existing planetoids, sorted by key
---@field blockers? Hex[] the hexes that block shots (Env:fire_blockers)
---@field reach? table<Hex[], table<integer, Distances|nil>> shot walks by source list and range

---What a side may do where, given the map, the explosions and the enemies (scene_of): each
---answer is true or the reason why not.
---@class Scene
---@field hex table<string, table<integer, true|string|nil>> by kind and hex key
---@field corridor table<integer, true|string|nil> by bow key * 8 + direction
---@field corridor_hex table<integer, string|false|nil> by hex key
---@field footprints table<string, table<Hex[], true|string|nil>> by kind and footprint list
---@field gaps table<Hex[], table<integer, number|nil>> nearest enemy by footprint and limit
---@field exits table<string, { at: Hex, facing: integer }[]|nil> hyperspace exits by ship type

---A read-only snapshot of the state for one callback (R.env).
---@class Env
---@field ctx RulesCtx
---@field board table<integer, boolean|nil> on the board or not, by hex key, when asked
---@field map MapMemo
---@field nearest table<integer, number|nil>
---@field scenes table<string, Scene|nil>
---@field active table<string, table<integer, string|false|nil>> why a piece may not act, by side and id (main.lua own_active)
---@field own table<string, integer[]|nil> the ids of a side's pieces that may still act (main.lua own_ids)
---@field obstacles table<integer, string|nil>
---@field planetoids table<integer, string|nil>
---@field planetoid_list Hex[]
---@field blasts table<integer, string|nil> the side whose shot closed each hex
---@field pieces table<integer, PieceEntry> by piece id (only present ones: look up other ids as PieceEntry|nil)
---@field order integer[] ids of the present pieces, ascending
---@field at table<integer, integer[]|nil> ids by hex key
---@field all Piece[] every piece, by id
---@field fixed? table<integer, true> Env:fixed_bases
local Env = {}
Env.__index = Env

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

-- Which hexes are on the board, per scenario (a board's shape never changes during a game,
-- and a scenario always gives the same one): asked of the engine once per hex.
---@type table<string, table<integer, boolean|nil>>
local BOARDS = {}

---@param ctx RulesCtx
---@return table<integer, boolean|nil>
local function board_of(ctx)
  -- A test's game handle (R.env(g)) has no scenario id: nothing is kept for it.
  if type(ctx.scenario) ~= "string" then return {} end
  local b = BOARDS[ctx.scenario]
  if b == nil then
    b = {}
    BOARDS[ctx.scenario] = b
  end
  return b
end

-- What does not change while the map stays the same (the board, obstacles and existing
-- planetoids, which change only when a turn starts): reasons a hex is closed whoever moves,
-- distances to the nearest planetoid and shot walks, kept per map (scenario and map version)
-- across the listings of many actions: one map per turn.
---@type table<string, MapMemo>
local MAPS = {}

---@param ctx RulesCtx
---@return MapMemo
local function map_of(ctx)
  local version = ctx:global("map_version")
  -- A test's game handle (R.env(g)) has no scenario id: nothing is kept for it.
  if type(ctx.scenario) ~= "string" or version == nil then
    return { nearest = {}, corridor = {}, hex = {} }
  end
  -- Every change of the map goes through R.refresh_map, which counts it; a scenario's maps are
  -- the same in every game (obstacles from its board, planetoids by the turn's colour).
  local sig = ctx.scenario .. "#" .. version
  local m = MAPS[sig]
  if m == nil then
    m = { nearest = {}, corridor = {}, hex = {}, sig = sig }
    MAPS[sig] = m
  end
  return m
end

-- What a side may do where, as far as the map, this turn's explosions and where its enemies
-- stand decide it: whether a piece of a kind may stand on a hex, whether a corridor is clear.
-- Kept per scene across listings (the enemies do not move during a side's go, so most
-- listings of a go share one); the last SCENE_LIMIT scenes are kept.
---@type table<string, Scene|nil>
local SCENES = {}
---@type string[]
local SCENE_ORDER = {}
local SCENE_LIMIT = 16

---@param e Env
---@param side string
---@return Scene
local function scene_of(e, side)
  local sig ---@type string|nil
  if e.map.sig then
    local enemy, blasts = {}, {}
    for _, id in ipairs(e.order) do
      local entry = e.pieces[id]
      if entry.p.owner ~= side then
        for _, h in ipairs(entry.fp) do enemy[#enemy + 1] = R.ik(h) end
      end
    end
    for k in pairs(e.blasts) do blasts[#blasts + 1] = k end
    table.sort(enemy)
    table.sort(blasts)
    sig = table.concat({ e.map.sig, side, table.concat(enemy, ","), table.concat(blasts, ",") }, "|")
    local sc = SCENES[sig]
    if sc then return sc end
  end
  ---@type Scene
  local sc = { hex = {}, corridor = {}, corridor_hex = {}, footprints = {}, exits = {},
                gaps = setmetatable({}, { __mode = "k" }) }
  if sig then
    SCENES[sig] = sc
    SCENE_ORDER[#SCENE_ORDER + 1] = sig
    if #SCENE_ORDER > SCENE_LIMIT then SCENES[table.remove(SCENE_ORDER, 1)] = nil end
  end
  return sc
end

---@param side string
---@return Scene
function Env:scene(side)
  local sc = self.scenes[side]
  if sc == nil then
    sc = scene_of(self, side)
    self.scenes[side] = sc
  end
  return sc
end

---@param ctx RulesCtx
---@return Env
function R.env(ctx)
  -- Globals are keyed "q,r"; the env re-keys them by integer (R.ik) for speed.
  ---@param m table<string, string>|nil globals keyed "q,r"
  ---@return table<integer, string|nil>
  local function rekey(m)
    local out = {}
    for k, v in pairs(m or {}) do out[R.ik(R.unkey(k))] = v end
    return out
  end
  local map = map_of(ctx)
  -- Read and re-keyed once per map.
  if not map.obstacles then
    local planetoids = ctx:global("planetoids") or {}
    local obstacles = ctx:global("obstacles") or {}
    map.obstacles, map.planetoids = rekey(obstacles), rekey(planetoids)
    local keys = {}
    for k in pairs(planetoids) do keys[#keys + 1] = k end
    table.sort(keys)
    map.planetoid_list = {}
    for _, k in ipairs(keys) do map.planetoid_list[#map.planetoid_list + 1] = R.unkey(k) end
  end
  local e = setmetatable({
    ctx = ctx,
    board = board_of(ctx),
    map = map,
    nearest = map.nearest, -- hex key -> distance to the nearest existing planetoid, when asked
    scenes = {},    -- side -> its scene (scene_of)
    active = {},    -- side -> id -> why the piece may not act now, or false (main.lua own_active)
    own = {},       -- side -> ids of its pieces that may still act (main.lua own_ids)
    obstacles = map.obstacles,
    planetoids = map.planetoids,
    planetoid_list = map.planetoid_list,
    blasts = rekey(ctx:global("blasts")),
    pieces = {},    -- id -> { p = snapshot, kind, fp = hexes } for pieces present on the board
    order = {},     -- ids in ascending order
    at = {},        -- hex key -> list of ids
    -- Shared read-only snapshots: the env only reads pieces (docs/API.md, ctx:pieces).
    all = ctx:pieces({ shared = true }),
  }, Env)
  table.sort(e.all, function(a, b) return a.id < b.id end)
  for _, p in ipairs(e.all) do
    local kind = kind_of(p)
    if p.hex and data.pieces[kind] then
      local present = true
      if data.pieces[kind].fixed then present = e.planetoids[R.ik(p.hex)] ~= nil end
      if present then
        local fp = R.footprint(kind, p.hex, facing_of(p))
        e.pieces[p.id] = { p = p, kind = kind, fp = fp, facing = facing_of(p) }
        e.order[#e.order + 1] = p.id
        for _, h in ipairs(fp) do
          local k = R.ik(h)
          e.at[k] = e.at[k] or {}
          table.insert(e.at[k], p.id)
        end
      end
    end
  end
  return e
end

-- The env of one listing. Why a memo: the engine calls every `choices` of one listing (and a
-- bot's pick from it) with the same read-only ctx, whose state cannot change meanwhile; each
-- used to build the env anew (a third of a game's Lua time). Weak keys: it goes with the ctx.
-- Only for read-only callbacks: an apply changes the state its env was read from.
---@type table<RulesCtx, Env|nil>
local LISTED = setmetatable({}, { __mode = "k" })
---@param ctx RulesCtx
---@return Env
function R.listed_env(ctx)
  local e = LISTED[ctx]
  if e == nil then
    e = R.env(ctx)
    LISTED[ctx] = e
  end
  return e
end

---@param h Hex
---@return boolean
function Env:on_board(h)
  local k = R.ik(h)
  local v = self.board[k]
  if v == nil then
    v = self.ctx:on_board(h) and true or false
    self.board[k] = v
  end
  return v
end

---@param h Hex
---@return boolean
function Env:is_obstacle(h) return self.obstacles[R.ik(h)] ~= nil end
---@param h Hex
---@return boolean
function Env:is_planetoid(h) return self.planetoids[R.ik(h)] ~= nil end
---@param h Hex
---@return boolean
function Env:is_blast(h) return self.blasts[R.ik(h)] ~= nil end

-- Blocks shots: obstacles and existing planetoids.
---@param h Hex
---@return boolean
function Env:blocks_fire(h) return self:is_obstacle(h) or self:is_planetoid(h) end

-- The hexes with a fixed base, those of planetoids absent this turn too (hex key -> true).
---@return table<integer, true>
function Env:fixed_bases()
  if not self.fixed then
    self.fixed = {}
    for _, p in ipairs(self.all) do
      if kind_of(p) == "fixed_base" and p.hex then self.fixed[R.ik(p.hex)] = true end
    end
  end
  return self.fixed
end

---@param h Hex
---@return integer[]
function Env:ids_at(h) return self.at[R.ik(h)] or {} end

---@param h Hex
---@param side string
---@return integer|nil id
function Env:enemy_at(h, side)
  for _, id in ipairs(self:ids_at(h)) do
    if self.pieces[id].p.owner ~= side then return id end
  end
  return nil
end

---@param h Hex
---@return number
function Env:nearest_planetoid(h)
  local k = R.ik(h)
  local best = self.nearest[k]
  if best then return best end
  best = math.huge
  for _, p in ipairs(self.planetoid_list) do
    local d = R.distance(h, p)
    if d < best then best = d end
  end
  self.nearest[k] = best
  return best
end

-- Whether a piece of `kind` owned by `side` may occupy hex `h`; false plus the reason if not.
---@param kind string
---@param side string
---@param h Hex
---@return boolean ok
---@return string|nil reason
function Env:hex_ok(kind, side, h)
  local by_kind = self:scene(side).hex[kind]
  if not by_kind then
    by_kind = {}
    self:scene(side).hex[kind] = by_kind
  end
  local k = R.ik(h)
  local why = by_kind[k]
  if why == nil then
    local ok, reason = self:hex_ok_now(kind, side, h)
    why = ok or reason
    by_kind[k] = why
  end
  if why == true then return true end
  return false, why
end

---@param kind string
---@param side string
---@param h Hex
---@return boolean ok
---@return string|nil reason
function Env:hex_ok_now(kind, side, h)
  -- The map's answers (kept per map) come before and after the explosions and enemies of now.
  local by_kind = self.map.hex[kind]
  if not by_kind then
    by_kind = {}
    self.map.hex[kind] = by_kind
  end
  local k = R.ik(h)
  local m = by_kind[k]
  if m == nil then
    m = { self:map_closed(kind, h) or false, self:keep_away_closed(kind, h) or false }
    by_kind[k] = m
  end
  if m[1] then return false, m[1] end
  if self:is_blast(h) then return false, "an explosion closes that hex this turn" end
  if self:enemy_at(h, side) then return false, "an enemy piece is there" end
  if m[2] then return false, m[2] end
  return true
end

-- Why the map closes hex `h` to a piece of `kind` (off the board, an obstacle, a planetoid it
-- may not enter), or nil.
---@param kind string
---@param h Hex
---@return string|nil
function Env:map_closed(kind, h)
  if not self:on_board(h) then return "off the board" end
  local obstacle = self.obstacles[R.ik(h)]
  if obstacle then return "blocked by " .. data.terrain[obstacle].name:lower() end
  if self:is_planetoid(h) and not data.pieces[kind].enters_planetoids then
    return "only transports may enter a planetoid"
  end
  return nil
end

-- Why `kind` may not stand on `h` so near a planetoid, or nil.
---@param kind string
---@param h Hex
---@return string|nil
function Env:keep_away_closed(kind, h)
  local t = data.pieces[kind]
  if (t.keep_away or 0) > 0 and self:nearest_planetoid(h) < t.keep_away then
    return ("a %s must stay %d hexes from planetoids"):format(t.name:lower(), t.keep_away)
  end
  return nil
end

-- Kept per scene and footprint list (footprints are shared lists, R.footprint).
---@param kind string
---@param side string
---@param hexes Hex[]
---@return boolean ok
---@return string|nil reason
function Env:footprint_ok(kind, side, hexes)
  local sc = self:scene(side)
  local memo = sc.footprints[kind]
  if not memo then
    memo = setmetatable({}, { __mode = "k" })
    sc.footprints[kind] = memo
  end
  local why = memo[hexes]
  if why == nil then
    why = true
    for _, h in ipairs(hexes) do
      local ok, reason = self:hex_ok(kind, side, h)
      if not ok then why = reason break end
    end
    memo[hexes] = why
  end
  if why == true then return true end
  return false, why
end

-- The hexes that block shots (obstacles and existing planetoids), as a list, once per map.
---@return Hex[]
function Env:fire_blockers()
  if not self.map.blockers then
    local out = {}
    for k in pairs(self.obstacles) do out[#out + 1] = k end
    for k in pairs(self.planetoids) do
      if not self.obstacles[k] then out[#out + 1] = k end
    end
    table.sort(out)
    for i, k in ipairs(out) do out[i] = { q = k // 8192 - 4096, r = k % 8192 - 4096 } end
    self.map.blockers = out
  end
  return self.map.blockers
end

-- Shortest crooked-path distances from `sources` through hexes that do not block shots, up to
-- `maxd` (the engine's walk on the game's board): `dist:at(h)` is a hex's distance or nil. A
-- blocking hex may be the end of a path (a target on it) but never a hex passed through.
-- Kept per map and source list (footprints are shared lists, R.footprint): the walk depends on
-- nothing else.
---@param sources Hex[]
---@param maxd integer
---@return Distances
function Env:reach(sources, maxd)
  local memo = self.map.reach
  if not memo then
    memo = {}
    setmetatable(memo, { __mode = "k" })
    self.map.reach = memo
  end
  local by_max = memo[sources]
  if not by_max then
    by_max = {}
    memo[sources] = by_max
  end
  local d = by_max[maxd]
  if not d then
    d = self.ctx:distances(sources, maxd, { blocked = self:fire_blockers() })
    by_max[maxd] = d
  end
  return d
end

-- Distance of a shot from a footprint to another, or nil if no clear path within `maxd`.
---@param from Hex[]
---@param to Hex[]
---@param maxd integer
---@return integer|nil
function Env:shot_distance(from, to, maxd)
  local dist = self:reach(from, maxd)
  local best
  for _, h in ipairs(to) do
    local d = dist:at(h)
    if d and (best == nil or d < best) then best = d end
  end
  return best
end

-- The straight corridor of `data.corridor` hexes ahead of `bow` in direction `d` is clear for
-- `side`: on the board, no enemy, no obstacle or existing planetoid, no explosion.
-- Kept per scene, as hex_ok.
---@param side string
---@param bow Hex
---@param d integer 0..5
---@return boolean ok
---@return string|nil reason
function Env:corridor_clear(side, bow, d)
  local memo = self:scene(side).corridor
  local k = R.ik(bow) * 8 + d
  local why = memo[k]
  if why == nil then
    local ok, reason = self:corridor_clear_now(side, bow, d)
    why = ok and true or reason
    memo[k] = why
  end
  if why == true then return true end
  return false, why
end

---@param side string
---@param bow Hex
---@param d integer 0..5
---@return boolean ok
---@return string|nil reason
function Env:corridor_clear_now(side, bow, d)
  -- Hex keys step by a fixed amount along a straight line (R.ik is linear in q and r).
  local v = R.DIRS[d]
  local k, dk = R.ik(bow), v.q * 8192 + v.r
  local reasons = self:scene(side).corridor_hex
  for _ = 1, data.corridor do
    k = k + dk
    local why = reasons[k]
    if why == nil then
      why = self:corridor_hex(side, { q = k // 8192 - 4096, r = k % 8192 - 4096 }) or false
      reasons[k] = why
    end
    if why then return false, why end
  end
  return true
end

-- Why hex `h` cannot be part of a hyperspace corridor for `side`, or nil.
---@param side string
---@param h Hex
---@return string|nil
function Env:corridor_hex(side, h)
  local k = R.ik(h)
  local closed = self.map.corridor[k]
  if closed == nil then
    closed = (not self:on_board(h) and "the hyperspace corridor leaves the board")
      or (self:blocks_fire(h) and "the hyperspace corridor is blocked by an obstacle") or false
    self.map.corridor[k] = closed
  end
  if closed then return closed end
  if self:is_blast(h) then return "the hyperspace corridor crosses an explosion" end
  if self:enemy_at(h, side) then return "the hyperspace corridor is blocked by an enemy" end
  return nil
end

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
