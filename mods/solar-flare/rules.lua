-- Solar Flare rules over the engine's ctx: reading ship records, lines of attack, movement,
-- torpedoes, power, setup placement. main.lua declares the actions and calls these.
--
-- Ship records are plain data in piece values (see design.build); each function reads a fresh
-- snapshot through ctx and writes back whole keys with ctx:set. Deliberately absent: any rule
-- number (they come from data.lua) and any randomness outside ctx:pool / ctx:roll.
--
-- Example: `rules.beam_targets(ctx, ship)` lists every legal aim of that ship's beams.
local D = require("data")
local G = require("geom")
local SEC = require("sectors")

local R = {}

-- Read-only memo ------------------------------------------------------------------------------
-- Why: in choices, check, victory and bots the state can not change during the call, yet the
-- same snapshots (own ships, the terrain map, occupancy, a side's team) were fetched from the
-- engine many times per call, and converting a ship record is the costliest thing a callback
-- does. `R.readonly(fn)` marks the ctx of one such call; `memo` then keeps each result for the
-- rest of that call only (weak keys: it goes with the ctx). Writable ctxs (apply, setup, hooks)
-- are never marked, so they always read fresh state.
local RO = setmetatable({}, { __mode = "k" })

---Wraps a read-only callback (choices, check, victory, bot) so its ctx memoises snapshots.
function R.readonly(fn)
  return function(ctx, ...)
    if type(ctx) == "table" and RO[ctx] == nil then RO[ctx] = {} end
    return fn(ctx, ...)
  end
end

-- `memo(ctx, kind, sub, make, a)`: the value for (`kind`, `sub`; `sub` may be nil), made by
-- `make(ctx, a)` on the first ask. A maker made once (not a closure per call) and keys that are
-- not built per call keep the memo itself cheap: it runs many times in every listing.
local NIL = {}
local function memo(ctx, kind, sub, make, a)
  local m = RO[ctx]
  if not m then return make(ctx, a) end
  local t = m[kind]
  if t == nil then t = {}; m[kind] = t end
  if sub == nil then sub = NIL end
  local v = t[sub]
  if v == nil then
    v = make(ctx, a)
    t[sub] = v
  end
  return v
end
R.memo = memo

---Whether `ctx` is the ctx of a read-only call marked by R.readonly.
---@param ctx table
---@return boolean
function R.is_readonly(ctx) return RO[ctx] ~= nil end

-- Engine adapters (the few places that know the snapshot's field names) -------------------
function R.param(a, k)
  local v = a[k]
  if v == nil and type(a.params) == "table" then v = a.params[k] end
  return v
end

function R.hex_of(p)
  local h = p.hex
  if h == nil and type(p.pos) == "table" and p.pos.q then h = p.pos end
  if h == nil and type(p.position) == "table" and p.position.q then h = p.position end
  if h then return { q = h.q, r = h.r } end
  return nil
end

function R.type_of(p) return p.type or p.kind end

---@type table<string, integer> direction name -> 0..5
local NAME = { N = 0, NE = 1, SE = 2, S = 3, SW = 4, NW = 5 }
---The facing of a piece snapshot as 0..5 (0 when it has none).
---@return integer
function R.facing_of(p)
  local f = p.facing
  if type(f) == "string" then return NAME[f] end
  return f or 0
end

---A direction param as 0..5: a number as it is, a name ("NE") by its number, else nil.
---@param v any
---@return integer|nil
function R.dir(v)
  if type(v) == "string" then return NAME[v] end
  return v
end

function R.tile_radius(ctx)
  local o = ctx.options or {}
  return o.tile_radius or D.default_tile_radius
end

function R.board(ctx) return SEC.board(R.tile_radius(ctx)) end

local function read_global(ctx, k)
  local x = ctx:global(k)
  if x == nil then return false end -- memo keeps false, not nil
  return { x }
end

function R.global(ctx, k, default)
  local v = memo(ctx, "global", k, read_global, k)
  if v == false then return default end
  return v[1]
end

function R.terrain_map(ctx) return R.global(ctx, "terrain", {}) end

---The team of a side record (its own id when it has none).
function R.side_team(s)
  if s.team and s.team ~= "" then return s.team end
  return s.id
end

---The team of side id `side` (the id itself when it has no team or is unknown). Why one
---ctx:sides() for all: in read-only callbacks the map is memoised, so every side's team costs
---one engine call per callback instead of one per side.
local function read_teams(ctx)
  local m = {}
  for _, s in ipairs(ctx:sides()) do m[s.id] = R.side_team(s) end
  return m
end

function R.team_of(ctx, side)
  local teams = memo(ctx, "teams", nil, read_teams)
  return teams[side] or side
end

function R.enemies(ctx, a, b) return R.team_of(ctx, a) ~= R.team_of(ctx, b) end

-- Pieces ------------------------------------------------------------------------------------
-- Why the type filter: the engine converts every matching snapshot into Lua, and ship records
-- are large; filtering in the engine keeps torpedo and ship listings from converting the other.
-- Why the field list: no rule reads a piece's `stats` or `position` (R.hex_of reads `hex`
-- first), so listings copy the rest only.
local LISTED = { "id", "owner", "type", "hex", "facing", "values" }

---Every piece with the LISTED fields, by id: one engine read serving every listing of a
---read-only callback. Why: there the records are shared views (no copy), so reading all pieces
---at once costs about what one filtered read does, and a listing used to make three (own ships,
---every ship's spot, torpedoes). Writable callbacks (records copied) keep the filtered reads.
local LISTED_FILTER = { fields = LISTED }
local function read_all(ctx) return ctx:pieces(LISTED_FILTER) end
local function all_listed(ctx)
  return memo(ctx, "all", nil, read_all)
end

---Pieces of type `kind` (and `owner` when given) by id: from all_listed in read-only
---callbacks, else from a filtered engine read with `fields`.
local function pieces_of(ctx, kind, owner, fields)
  local src
  if RO[ctx] then src = all_listed(ctx) else src = ctx:pieces { owner = owner, type = kind, fields = fields } end
  local out = {}
  for _, p in ipairs(src) do
    if R.type_of(p) == kind and (owner == nil or p.owner == owner) then out[#out + 1] = p end
  end
  return out
end

local function by_id(x, y) return x.id < y.id end

local function read_ships(ctx, owner)
  local out = pieces_of(ctx, "ship", owner, LISTED)
  table.sort(out, by_id)
  return out
end

function R.ships(ctx, owner)
  return memo(ctx, "ships", owner, read_ships, owner)
end

local SPOT = { "id", "owner", "type", "hex" }

---Every ship still in the game with at least `{ id, owner, type = "ship", hex = hex or nil }`
---(hex nil in reserve), sorted by id. Why: who is where and whose it is is all that occupancy,
---lines of attack, victory and eliminations need, and in writable callbacks the full record is
---by far the most expensive snapshot to copy; the engine's light read copies only these fields
---(read-only callbacks take them from all_listed, which has the records too).
local function read_spots(ctx) return pieces_of(ctx, "ship", nil, SPOT) end
function R.ship_spots(ctx)
  return memo(ctx, "spots", nil, read_spots)
end

local PLACE = { "id", "owner", "type", "hex", "facing" }

---The pieces `a` and `b` as light snapshots `{ id, owner, type, hex, facing }` (nil when there
---is none), from one light read: for applies that need where pieces are, not their records.
---@param a integer
---@param b integer
---@return Piece|nil
---@return Piece|nil
function R.spots(ctx, a, b)
  local pa, pb ---@type Piece|nil, Piece|nil
  for _, p in ipairs(ctx:pieces { fields = PLACE }) do
    if p.id == a then pa = p end
    if p.id == b then pb = p end
  end
  return pa, pb
end

---The set of sides owning a ship still in the game (in reserve or on the board): side -> true.
---Why not a read of the ships: ships are only ever made at setup, which stores every one in the
---`fleet` global, so a ctx:exists per ship answers it without building any piece table (this
---runs in victory after every action). Without a fleet (a game set up otherwise) it reads the
---ships' spots.
function R.sides_with_ships(ctx)
  local has = {}
  local fleet = R.global(ctx, "fleet", nil)
  if type(fleet) == "table" then
    for _, f in ipairs(fleet) do
      if not has[f.owner] and ctx:exists(f.id) then has[f.owner] = true end
    end
  else
    for _, p in ipairs(R.ship_spots(ctx)) do has[p.owner] = true end
  end
  return has
end

---The fleet record for setup: every ship's id and owner, by id. No rule reads it any more (the
---light read above replaced it); setup still stores it so states and saves stay as they were.
function R.fleet_of(ctx)
  local out = {}
  for _, p in ipairs(R.ships(ctx)) do out[#out + 1] = { id = p.id, owner = p.owner } end
  return out
end

function R.on_board(p) return R.hex_of(p) ~= nil end

local function read_torpedoes(ctx, owner)
  local out = {}
  for _, p in ipairs(pieces_of(ctx, "torpedo", owner, LISTED)) do
    if R.on_board(p) then out[#out + 1] = p end
  end
  table.sort(out, by_id)
  return out
end

function R.torpedoes(ctx, owner)
  return memo(ctx, "torps", owner, read_torpedoes, owner)
end

---Disarms the torpedoes past their second round, as a weapons phase ends: those of `sides` (the
---sides that acted in it) and those of every eliminated side, which never has a weapons phase
---again (README assumption: its torpedoes expire at the end of the first weapons phase after
---their second round begins).
function R.expire_torpedoes(ctx, sides)
  local list = {}
  for _, s in ipairs(sides) do list[#list + 1] = s end
  for _, s in ipairs(ctx:sides()) do
    if s.eliminated then list[#list + 1] = s.id end
  end
  for _, side in ipairs(list) do
    for _, t in ipairs(R.torpedoes(ctx, side)) do
      if (t.values.launched_round or ctx.round) < ctx.round then
        ctx:destroy(t.id)
        ctx:log(("torpedo %d is disarmed at the end of its second round"):format(t.id))
      end
    end
  end
end

---Ships (as spots) and torpedoes on the board, sorted by id: what a beam can target and what
---blocks a line of attack.
local function read_board_pieces(ctx)
  local out = {}
  for _, s in ipairs(R.ship_spots(ctx)) do
    if s.hex then out[#out + 1] = s end
  end
  for _, t in ipairs(R.torpedoes(ctx)) do out[#out + 1] = t end
  table.sort(out, by_id)
  return out
end

function R.board_pieces(ctx)
  return memo(ctx, "board_pieces", nil, read_board_pieces)
end

-- hex key -> { ship = id or nil, torps = n }
local function read_occupancy(ctx)
  local occ = {}
  for _, p in ipairs(R.board_pieces(ctx)) do
    local k = G.key(R.hex_of(p))
    occ[k] = occ[k] or { torps = 0 }
    if R.type_of(p) == "ship" then occ[k].ship = p.id else occ[k].torps = occ[k].torps + 1 end
  end
  return occ
end

function R.occupancy(ctx)
  return memo(ctx, "occupancy", nil, read_occupancy)
end

---A piece snapshot (memoised in read-only callbacks); nil when there is none.
local function read_piece(ctx, id) return ctx:piece(id) or false end

function R.piece(ctx, id)
  local v = memo(ctx, "piece", id, read_piece, id)
  return v or nil
end

function R.own_ship(ctx, side, id)
  local p = R.piece(ctx, id)
  if not p or R.type_of(p) ~= "ship" then return nil, "there is no ship " .. tostring(id) end
  if p.owner ~= side then return nil, "ship " .. id .. " is not yours" end
  return p
end

function R.own_torpedo(ctx, side, id)
  local p = R.piece(ctx, id)
  if not p or R.type_of(p) ~= "torpedo" then return nil, "there is no torpedo " .. tostring(id) end
  if p.owner ~= side then return nil, "torpedo " .. id .. " is not yours" end
  return p
end

-- Ships destroyed during one writable callback: ctx -> true (weak keys: it goes with the ctx).
local LOST = setmetatable({}, { __mode = "k" })

---Destroys ship `id` and notes that this callback destroyed a ship (see R.after_apply).
function R.destroy_ship(ctx, id)
  ctx:destroy(id)
  LOST[ctx] = true
end

---A side with no ship left is eliminated.
function R.eliminate_shipless(ctx)
  local has = R.sides_with_ships(ctx)
  for _, s in ipairs(ctx:sides()) do
    if not s.eliminated and not has[s.id] then ctx:eliminate(s.id) end
  end
end

---Runs at the end of every apply: eliminates the sides left without ships when this apply
---destroyed a ship (ships leave the game only through R.destroy_ship, in applies).
function R.after_apply(ctx)
  if LOST[ctx] then
    LOST[ctx] = nil
    R.eliminate_shipless(ctx)
  end
end

-- What an apply changed in a ship record, for R.save_ship (keys are groups of record keys).
R.SAVE_COMPS = { comps = true }                          -- charges, firing, burn-down
R.SAVE_MOVE = { comps = true, bank = true }              -- engines/thrusters drained, points banked
R.SAVE_POWER = { comps = true, crew = true, pool = true } -- a crew team's transfer
R.SAVE_DAMAGE = { comps = true, hull = true }            -- shields, sections, destroyed systems
R.SAVE_BANK = { bank = true }                            -- only banked points (no charge drained)
R.SAVE_HULL = { hull = true }                            -- only the sections' integrity
R.SAVE_POOL = { pool = true }                            -- only the power pool
R.SAVE_NOTHING = {}                                      -- (only scalar keys still missing)

---Save the mutable keys of a ship record: all of them, or only the groups in `what` (see the
---R.SAVE_* sets). Why: writing an unchanged key changes nothing but still converts it (the
---components list is most of a record), and every apply saves one ship. A scalar key missing
---from the record is written (as 0) whatever `what` says, as a full save would.
function R.save_ship(ctx, id, s, what)
  if what == nil or what.comps then ctx:set(id, "comps", s.comps) end
  if what == nil or what.crew then ctx:set(id, "crew", s.crew) end
  if what == nil or what.hull then ctx:set(id, "hull", s.hull) end
  local bank, pool = what == nil or what.bank, what == nil or what.pool
  if bank or s.bank_round == nil then ctx:set(id, "bank_round", s.bank_round or 0) end
  if bank or s.bank_mv == nil then ctx:set(id, "bank_mv", s.bank_mv or 0) end
  if bank or s.bank_mn == nil then ctx:set(id, "bank_mn", s.bank_mn or 0) end
  if pool or s.pool_round == nil then ctx:set(id, "pool_round", s.pool_round or 0) end
  if pool or s.pool == nil then ctx:set(id, "pool", s.pool or 0) end
end

-- Terrain -----------------------------------------------------------------------------------
function R.terrain_at(map, h) return map[G.key(h)] end

function R.is_solid(map, h)
  local t = map[G.key(h)]
  return t ~= nil and D.terrain[t] and D.terrain[t].solid
end

function R.is_asteroid(map, h)
  local t = map[G.key(h)]
  return t ~= nil and D.terrain[t] and D.terrain[t].asteroid
end

-- Line of attack ------------------------------------------------------------------------------
---Evaluate the line from `from` to `to`. kind "beam": planets, moons, ships and torpedoes in
---crossed hexes block, nebulae weaken by 1 each; kind "blast": only planets and moons block.
---Where the line runs along a hexside between two hexes, it counts through the less obstructed
---of the two (the attacker's choice). Returns blocked (bool), nebulae (integer).
-- Traces as keys, kept: from.q -> from.r -> to.q -> to.r -> { through = { key... }, ties =
-- { { left key, right key }... } }. Why: the trace is pure geometry, and aiming asks for the
-- same few lines (every beam at every target, again in check and apply) on every step of a
-- weapons phase; tracing was the largest share of the weapons phase's Lua.
local LINES = {}
local function line_keys(from, to)
  local a = LINES[from.q]
  if not a then a = {}; LINES[from.q] = a end
  local b = a[from.r]
  if not b then b = {}; a[from.r] = b end
  local c = b[to.q]
  if not c then c = {}; b[to.q] = c end
  local l = c[to.r]
  if not l then
    local tr = G.trace(from, to)
    local through, ties = {}, {}
    for i, h in ipairs(tr.through) do through[i] = G.key(h) end
    for i, p in ipairs(tr.ties) do ties[i] = { G.key(p.left), G.key(p.right) } end
    l = { through = through, ties = ties }
    c[to.r] = l
  end
  return l
end

function R.line_of_attack(map, occ, from, to, kind)
  local tr = line_keys(from, to)
  local INF = 1000
  local function cost(k)
    local t = map[k]
    if t and D.terrain[t].solid then return INF end
    if kind == "beam" then
      local o = occ[k]
      if o and (o.ship or o.torps > 0) then return INF end
      if t and D.terrain[t].nebula then return 1 end
    end
    return 0
  end
  local total = 0
  for _, k in ipairs(tr.through) do total = total + cost(k) end
  for _, p in ipairs(tr.ties) do total = total + math.min(cost(p[1]), cost(p[2])) end
  if total >= INF then return true, 0 end
  return false, total
end

-- Ships' resources ----------------------------------------------------------------------------
---@param s ShipRecord
---@return integer
function R.engine_charges(s)
  local n = 0
  for _, c in ipairs(s.comps) do if c.kind == "engine" and not c.dead then n = n + c.charge end end
  return n
end

---@param s ShipRecord
---@return integer
function R.engine_rating(s)
  local n = 0
  for _, c in ipairs(s.comps) do if c.kind == "engine" and not c.dead then n = n + c.level end end
  return n
end

---@param s ShipRecord
---@return integer
function R.thruster_charges(s)
  local n = 0
  for _, c in ipairs(s.comps) do if c.kind == "thruster" and not c.dead then n = n + c.charge end end
  return n
end

---Takes up to n charges from working components of `kind`, first first, never from the one at
---index `skip`; returns how many it took (0: the components are unchanged). With `touched`,
---marks the index of each component it drew from (for R.save_comps).
---@param s ShipRecord
---@param kind string
---@param n integer
---@param touched? table<integer, boolean>
---@param skip? integer
---@return integer took
local function drain(s, kind, n, touched, skip)
  local took = 0
  for i, c in ipairs(s.comps) do
    if n <= 0 then break end
    if c.kind == kind and not c.dead and c.charge > 0 and i ~= skip then
      local t = math.min(c.charge, n)
      c.charge = c.charge - t
      n = n - t
      took = took + t
      if touched then touched[i] = true end
    end
  end
  return took
end

---Writes only the components whose indices are keys of `touched` (in index order): one item
---each (`ctx:set` with a path), not the whole list. Why: a crew team's transfer changes one
---or two of a ship's ~14 components, and writing the list converts all of them.
function R.save_comps(ctx, id, s, touched)
  local list = {}
  for i in pairs(touched) do list[#list + 1] = i end
  table.sort(list)
  for _, i in ipairs(list) do ctx:set(id, { "comps", i }, s.comps[i]) end
end
R.drain = drain

-- Banked points (bought by conversions) last only for this movement phase.
function R.bank(ctx, s)
  if s.bank_round ~= ctx.round then s.bank_round = ctx.round; s.bank_mv = 0; s.bank_mn = 0 end
end

---The banked (movement, manoeuvre) points of this movement phase, without touching the record
---(check and choices read shared, read-only snapshots).
---@param s ShipRecord
---@return integer movement
---@return integer manoeuvre
local function banked(ctx, s)
  if s.bank_round ~= ctx.round then return 0, 0 end
  return s.bank_mv or 0, s.bank_mn or 0
end

---Manoeuvre points available: banked ones plus thruster charges.
---@param s ShipRecord
---@return integer
function R.manoeuvre_available(ctx, s)
  local _, mn = banked(ctx, s)
  return mn + R.thruster_charges(s)
end

---Spends n manoeuvre points, banked ones first; returns the thruster charges drained (0: the
---components are unchanged).
function R.spend_manoeuvre(ctx, s, n, touched)
  R.bank(ctx, s)
  local b = math.min(s.bank_mn, n)
  s.bank_mn = s.bank_mn - b
  return drain(s, "thruster", n - b, touched)
end

---Movement points available: banked ones plus main engine charges.
---@param s ShipRecord
---@return integer
function R.movement_available(ctx, s)
  local mv = banked(ctx, s)
  return mv + R.engine_charges(s)
end

---Spends n movement points, banked ones first; returns the engine charges drained (with
---`touched`, marks the components drawn from, as R.drain does).
function R.spend_movement(ctx, s, n, touched)
  R.bank(ctx, s)
  local b = math.min(s.bank_mv, n)
  s.bank_mv = s.bank_mv - b
  return drain(s, "engine", n - b, touched)
end

-- Power pool: base power plus working generators, made once per power phase. Reading it
-- changes nothing (check and choices see read-only snapshots); apply stores it with
-- R.open_pool before spending from it.
---@param s ShipRecord
---@return integer
function R.pool(ctx, s)
  if s.pool_round ~= ctx.round then
    local n = D.base_power
    for _, c in ipairs(s.comps) do if c.kind == "generator" and not c.dead then n = n + c.level end end
    return n
  end
  return s.pool
end

---Opens this power phase's pool in a writable record (apply): the pool as R.pool reads it.
function R.open_pool(ctx, s)
  s.pool = R.pool(ctx, s)
  s.pool_round = ctx.round
  return s.pool
end

---@param s ShipRecord
---@return integer
function R.battery_charge(s)
  local n = 0
  for _, c in ipairs(s.comps) do if c.kind == "battery" and not c.dead then n = n + c.charge end end
  return n
end

-- Movement targets ----------------------------------------------------------------------------
---Whether a ship may enter hex h: in play, not a planet or moon, no other ship there.
function R.ship_can_enter(ctx, map, occ, h)
  if not R.board(ctx).play[G.key(h)] then return false, "off the board" end
  if R.is_solid(map, h) then return false, "a planet or moon blocks the way" end
  local o = occ[G.key(h)]
  if o and o.ship then return false, "another ship is there" end
  return true
end

---Whether a torpedo may enter hex h: in play, not a planet or moon (ships do not stop it).
function R.torpedo_can_enter(ctx, map, h)
  if not R.board(ctx).play[G.key(h)] then return false, "off the board" end
  if R.is_solid(map, h) then return false, "a planet or moon blocks the way" end
  return true
end

return R
