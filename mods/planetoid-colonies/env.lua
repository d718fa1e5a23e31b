-- env.lua: the env, one read-only snapshot of the game per callback (E.env), shared by every
-- `choices` of one listing (E.listed_env), and what it keeps across actions: per map version
-- (closed hexes, corridors, distances to planetoids, shot walks) and per scene (where a side
-- may stand and which corridors are clear while its enemies stand still). Legality reads it;
-- nothing here changes the game.

local data = require("data")
local R = require("rules")
local kind_of, facing_of = R.kind_of, R.facing_of

local E = {}

--------------------------------------------------------------------------------------------
-- The env: one snapshot per callback
--------------------------------------------------------------------------------------------

---A piece present on the board, as the env sees it.
---@class PieceEntry
---@field p Piece the engine's shared, read-only snapshot
---@field kind string
---@field fp Hex[] the hexes it covers (a shared list, R.footprint)
---@field facing integer
---@field sig string id, hexes and facing, as scene signatures name an enemy

---What depends only on the map (map_of): hex keys are R.ik's.
---@class MapMemo
---@field sig? string scenario and map name (R.refresh_map); nil for a test's game handle (nothing kept)
---@field nearest table<integer, number|nil> distance to the nearest existing planetoid
---@field corridor table<integer, string|false|nil> why the map closes a hex to corridors
---@field hex table<string, table<integer, (string|false)[]|nil>> by kind: { map reason, keep-away reason }
---@field obstacles? table<integer, string|nil> terrain id of each obstacle
---@field planetoids? table<integer, string|nil> colour of each existing planetoid
---@field planetoid_list? Hex[] the existing planetoids, sorted by key
---@field sites? Hex[] every planetoid hex of every colour (Env:planetoid_sites)
---@field obstacle_list? Hex[] the obstacles' hexes (Env:obstacle_hexes)
---@field blockers? Hex[] the hexes that block shots (Env:fire_blockers)
---@field reach? table<Hex[], table<integer, Distances|nil>> shot walks by source list and range
---@field exits table<string, MapExit[]|nil> hyperspace exits the map allows, by ship type (Env:exits)

---A hyperspace exit the map allows: where, facing, and the hexes an enemy or explosion would close.
---@class MapExit
---@field at Hex
---@field facing integer
---@field keys integer[] the footprint's and the corridor's hex keys

---What a side may do where, given the map, the explosions and the enemies (scene_of): each
---answer is true or the reason why not.
---@class Scene
---@field hex table<string, table<integer, true|string|nil>> by kind and hex key
---@field corridor table<integer, true|string|nil> by bow key * 8 + direction
---@field corridor_hex table<integer, string|false|nil> by hex key
---@field footprints table<string, table<Hex[], true|string|nil>> by kind and footprint list
---@field gaps table<Hex[], table<integer, number|nil>> nearest enemy by footprint and limit
---@field exits table<string, { at: Hex, facing: integer }[]|nil> hyperspace exits by ship type
---@field closed? table<integer, true|nil> hexes with an enemy or an explosion (Env:exits)
---@field choices table<string, table<Piece, table[]|nil>> a piece's choices by action and snapshot (Env:piece_choices)

---A read-only snapshot of the state for one callback (E.env).
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
---@field at? table<integer, integer[]|nil> ids by hex key (Env:ids_at)
---@field all Piece[] every piece, by id
---@field fixed? table<integer, true> Env:fixed_bases
local Env = {}
Env.__index = Env


-- Which hexes are on the board, per scenario (a board's shape never changes during a game,
-- and a scenario always gives the same one): asked of the engine once per hex.
---@type table<string, table<integer, boolean|nil>>
local BOARDS = {}

---@param ctx RulesCtx
---@return table<integer, boolean|nil>
local function board_of(ctx)
  -- A test's game handle (E.env(g)) has no scenario id: nothing is kept for it.
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
-- distances to the nearest planetoid and shot walks, kept per map (scenario and what is on the
-- map) across the listings of many actions and across turns and games: a scenario has one map
-- per planetoid colour.
---@type table<string, MapMemo>
local MAPS = {}

---@param ctx RulesCtx
---@return MapMemo
local function map_of(ctx)
  local name = ctx:global("map_sig")
  -- A test's game handle (E.env(g)) has no scenario id: nothing is kept for it.
  if type(ctx.scenario) ~= "string" or name == nil then
    return { nearest = {}, corridor = {}, hex = {}, exits = {} }
  end
  -- Every change of the map goes through R.refresh_map, which names it by its content.
  local sig = ctx.scenario .. "#" .. name
  local m = MAPS[sig]
  if m == nil then
    m = { nearest = {}, corridor = {}, hex = {}, exits = {}, sig = sig }
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
    -- Enemies by id, hexes and facing: fire choices name targets by id, and empty shots aim
    -- ahead of an enemy's bow.
    local enemy, blasts = {}, {}
    for _, id in ipairs(e.order) do
      local entry = e.pieces[id]
      if entry.p.owner ~= side then enemy[#enemy + 1] = entry.sig end
    end
    for k in pairs(e.blasts) do blasts[#blasts + 1] = k end
    table.sort(blasts)
    sig = table.concat({ e.map.sig, side, table.concat(enemy, ","), table.concat(blasts, ",") }, "|")
    local sc = SCENES[sig]
    if sc then return sc end
  end
  ---@type Scene
  local sc = { hex = {}, corridor = {}, corridor_hex = {}, footprints = {}, exits = {},
                gaps = setmetatable({}, { __mode = "k" }), choices = {} }
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

-- A piece's entry, kept per snapshot: read-only callbacks get the same snapshot table for a
-- piece until it changes (docs/API.md), so most entries are made once per change of the piece.
---@type table<Piece, PieceEntry|false|nil>
local ENTRIES = setmetatable({}, { __mode = "k" })

-- The entry of piece snapshot `p`, standing on `hex` (its own), or nil for a type this mod
-- does not know.
---@param p Piece
---@param hex Hex
---@return PieceEntry|nil
local function entry_of(p, hex)
  local entry = ENTRIES[p]
  if entry == nil then
    local kind = kind_of(p)
    entry = false
    if data.pieces[kind] --[[@as PieceType|nil]] then
      local facing = facing_of(p)
      local fp = R.footprint(kind, hex, facing)
      local keys = {}
      for i, h in ipairs(fp) do keys[i] = R.ik(h) end
      entry = { p = p, kind = kind, fp = fp, facing = facing,
                sig = p.id .. ":" .. table.concat(keys, ";") .. ":" .. facing }
    end
    ENTRIES[p] = entry
  end
  return entry or nil
end

---@param ctx RulesCtx
---@return Env
function E.env(ctx)
  -- Globals are keyed "q,r"; the env re-keys them by integer (R.ik) for speed.
  ---@param m table<string, string>|nil globals keyed "q,r"
  ---@return table<integer, string|nil>
  local function rekey(m)
    local out = {}
    for k, v in pairs(m or {}) do
      local key = R.ik(R.unkey(k))
      out[key] = v
    end
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
    at = nil,       -- hex key -> list of ids, made when first asked (Env:ids_at)
    -- Shared read-only snapshots, in id order: the env only reads pieces (docs/API.md,
    -- ctx:pieces).
    all = ctx:pieces({ shared = true }),
  }, Env)
  for _, p in ipairs(e.all) do
    local hex = p.hex
    local entry = hex and entry_of(p, hex)
    if hex and entry and (not data.pieces[entry.kind].fixed or e.planetoids[R.ik(hex)] ~= nil) then
      e.pieces[p.id] = entry
      e.order[#e.order + 1] = p.id
    end
  end
  return e
end

-- The choices `list(entry)` gives piece `id` of `side` for action `action`, kept per scene
-- and piece snapshot. Why that is enough: a piece's move, pivot, shot and corridor choices
-- depend only on the piece itself (the same snapshot table until it changes) and the scene
-- (map, explosions, enemies by id, hexes and facing), so after an action only the piece that
-- acted is listed anew. Not the side's other pieces: a listing whose answer depends on them
-- asks that part apart (empty shots). The caller checks what the whole side must pass first
-- (its go, bases to place). The lists are shared: read them, never change them.
---@param side string
---@param action string
---@param id integer
---@param list fun(entry: PieceEntry): table[]
---@return table[]
function Env:piece_choices(side, action, id, list)
  local entry = self.pieces[id]
  local memo = self:scene(side).choices
  local by_piece = memo[action]
  if not by_piece then
    by_piece = setmetatable({}, { __mode = "k" })
    memo[action] = by_piece
  end
  local got = by_piece[entry.p]
  if not got then
    got = list(entry)
    by_piece[entry.p] = got
  end
  return got
end

-- The env of one listing. Why a memo: the engine calls every `choices` of one listing (and a
-- bot's pick from it) with the same read-only ctx, whose state cannot change meanwhile; each
-- used to build the env anew (a third of a game's Lua time). Weak keys: it goes with the ctx.
-- Only for read-only callbacks: an apply changes the state its env was read from.
---@type table<RulesCtx, Env|nil>
local LISTED = setmetatable({}, { __mode = "k" })
---@param ctx RulesCtx
---@return Env
function E.listed_env(ctx)
  local e = LISTED[ctx]
  if e == nil then
    e = E.env(ctx)
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

-- Every planetoid hex of every colour, existing this turn or not, in the scenario's order:
-- where a transport may go and wait for its planetoid to appear (B5). Read once per map.
---@return Hex[]
function Env:planetoid_sites()
  local map = self.map
  if not map.sites then
    local sites = {}
    for _, t in ipairs(self.ctx:timed_terrain()) do
      local info = data.terrain[t.terrain]
      if info and info.planetoid then sites[#sites + 1] = t.hex end
    end
    map.sites = sites
  end
  return map.sites
end

-- The obstacles' hexes (asteroids, home planets), sorted by key: a list for ctx:distances.
---@return Hex[]
function Env:obstacle_hexes()
  local map = self.map
  if not map.obstacle_list then
    local keys = {}
    for k in pairs(self.ctx:global("obstacles") or {}) do keys[#keys + 1] = k end
    table.sort(keys)
    map.obstacle_list = {}
    for _, k in ipairs(keys) do map.obstacle_list[#map.obstacle_list + 1] = R.unkey(k) end
  end
  return map.obstacle_list
end

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
      if kind_of(p) == "fixed_base" and p.hex then
        local key = R.ik(p.hex)
        self.fixed[key] = true
      end
    end
  end
  return self.fixed
end

---@param h Hex
---@return integer[]
function Env:ids_at(h)
  -- Made when first asked: most envs are served from the scene's memos and never ask.
  local at = self.at
  if not at then
    at = {}
    for _, id in ipairs(self.order) do
      for _, x in ipairs(self.pieces[id].fp) do
        local k = R.ik(x)
        local ids = at[k]
        if ids then ids[#ids + 1] = id else at[k] = { id } end
      end
    end
    self.at = at
  end
  return at[R.ik(h)] or {}
end

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

-- The nearest hex of footprint `to` in walk `dist`, or nil when none is in reach. Kept per
-- walk and footprint (both shared and kept: Env:reach, R.footprint): each answer is one engine
-- call per hex, and fire listings ask it for every shooter and target after every action.
local NEAREST = setmetatable({}, { __mode = "k" })

---@param dist Distances
---@param to Hex[]
---@return integer|nil
function E.nearest(dist, to)
  local by_fp = NEAREST[dist]
  if not by_fp then
    by_fp = setmetatable({}, { __mode = "k" })
    NEAREST[dist] = by_fp
  end
  local best = by_fp[to]
  if best == nil then
    for _, h in ipairs(to) do
      local d = dist:at(h)
      if d and (not best or d < best) then best = d end
    end
    by_fp[to] = best or false
  end
  return best or nil
end

-- Distance of a shot from a footprint to another, or nil if no clear path within `maxd`.
---@param from Hex[]
---@param to Hex[]
---@param maxd integer
---@return integer|nil
function Env:shot_distance(from, to, maxd)
  return E.nearest(self:reach(from, maxd), to)
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
  local closed = self:corridor_map_closed(h)
  if closed then return closed end
  if self:is_blast(h) then return "the hyperspace corridor crosses an explosion" end
  if self:enemy_at(h, side) then return "the hyperspace corridor is blocked by an enemy" end
  return nil
end

-- Why the map closes hex `h` to hyperspace corridors (off the board, an obstacle), or nil.
---@param h Hex
---@return string|nil
function Env:corridor_map_closed(h)
  local k = R.ik(h)
  local closed = self.map.corridor[k]
  if closed == nil then
    closed = (not self:on_board(h) and "the hyperspace corridor leaves the board")
      or (self:blocks_fire(h) and "the hyperspace corridor is blocked by an obstacle") or false
    self.map.corridor[k] = closed
  end
  return closed or nil
end

-- Where a ship of `kind` may come out of hyperspace for `side` now: every hex of the exit grid
-- (data.exit_grid) and facing whose footprint and corridor are open, in board order, facings
-- 0..5. The same answer as Env:exit_clear over every such hex and facing, in two steps: what
-- the map allows is kept per map and ship type, and each scene only drops the exits that an
-- enemy or explosion closes. Shared lists: read them, never change them.
---@param side string
---@param kind string
---@return { at: Hex, facing: integer }[]
function Env:exits(side, kind)
  local sc = self:scene(side)
  local got = sc.exits[kind]
  if got then return got end
  local closed = sc.closed
  if not closed then
    ---@type table<integer, true|nil>
    closed = {}
    for k in pairs(self.blasts) do closed[k] = true end
    for _, id in ipairs(self.order) do
      local entry = self.pieces[id]
      if entry.p.owner ~= side then
        for _, h in ipairs(entry.fp) do
          local k = R.ik(h)
          closed[k] = true
        end
      end
    end
    sc.closed = closed
  end
  got = {}
  for _, x in ipairs(self:map_exits(kind)) do
    local open = true
    for _, k in ipairs(x.keys) do
      if closed[k] then open = false break end
    end
    if open then got[#got + 1] = { at = x.at, facing = x.facing } end
  end
  sc.exits[kind] = got
  return got
end

-- The exits of Env:exits that the map alone allows, kept per map and ship type.
---@param kind string
---@return MapExit[]
function Env:map_exits(kind)
  local got = self.map.exits[kind]
  if got then return got end
  got = {}
  local g = data.exit_grid
  for _, h in ipairs(self.ctx:board_hexes()) do
    if h.q % g == 0 and h.r % g == 0 then
      for f = 0, 5 do
        local keys, open = {}, true
        for _, x in ipairs(R.footprint(kind, h, f)) do
          if self:map_closed(kind, x) or self:keep_away_closed(kind, x) then open = false break end
          keys[#keys + 1] = R.ik(x)
        end
        local v = R.DIRS[f]
        local bow = { q = h.q, r = h.r }
        for _ = 1, open and data.corridor or 0 do
          bow = { q = bow.q + v.q, r = bow.r + v.r }
          if self:corridor_map_closed(bow) then open = false break end
          keys[#keys + 1] = R.ik(bow)
        end
        if open then got[#got + 1] = { at = { q = h.q, r = h.r }, facing = f, keys = keys } end
      end
    end
  end
  self.map.exits[kind] = got
  return got
end

return E
