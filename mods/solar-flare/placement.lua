-- placement.lua: where setup may put things. Anomalies: the hexes each kind covers, whether a
-- placement is allowed (board, gap, spacing) and every allowed placement, kept per board and
-- per read-only callback; ships: the reserve and where a ship may be deployed.
-- What it deliberately does not do: the setup flow itself (setup.lua) or change the game.

local D = require("data")
local G = require("geom")
local R = require("rules")
local memo = R.memo

local PL = {}

-- Setup: anomalies ----------------------------------------------------------------------------
---Hexes an anomaly of `kind` centred at h would cover.
function PL.anomaly_hexes(kind, h)
  local out = {}
  for _, o in ipairs(D.shapes[D.anomalies[kind].shape]) do out[#out + 1] = { q = h.q + o[1], r = h.r + o[2] } end
  return out
end

-- Keys of the hexes within the anomaly gap of hex x (key k), x excluded; cached per board.
-- Why: listing anomaly placements checks every board hex's neighbourhood for every kind, and
-- building those hexes and their keys again each time was most of the setup's cost.
local NEAR = setmetatable({}, { __mode = "k" })
local function near_keys(b, x, k)
  local per = NEAR[b]
  if not per then per = {}; NEAR[b] = per end
  local list = per[k]
  if not list then
    list = {}
    for _, y in ipairs(G.range(x, D.solid_gap)) do
      if not G.eq(x, y) then list[#list + 1] = G.key(y) end
    end
    per[k] = list
  end
  return list
end

---Whether an anomaly of `kind` can be centred at h: every hex in play and free of anomalies and
---ships; a planet or moon keeps a gap of one hex to any other anomaly, and no anomaly comes
---within one hex of a planet or moon.
function PL.anomaly_ok(ctx, map, occ, kind, h, used, b)
  local info = D.anomalies[kind]
  if not info then return false, "unknown anomaly " .. tostring(kind) end
  b = b or R.board(ctx)
  local solid = D.terrain[info.terrain].solid
  for _, x in ipairs(PL.anomaly_hexes(kind, h)) do
    local k = G.key(x)
    if not b.play[k] then return false, "an anomaly may not reach over the board's edge" end
    if map[k] then return false, "another anomaly is there" end
    if occ[k] and occ[k].ship then return false, "a ship is there" end
    -- (map[k] is empty here, so only the other hexes within the gap matter.)
    for _, yk in ipairs(near_keys(b, x, k)) do
      local t = map[yk]
      if t and (solid or D.terrain[t].solid) then
        return false, "planets and moons need a gap of " .. D.solid_gap .. " hex to other anomalies"
      end
    end
  end
  used = used or R.global(ctx, "anomalies_used", {})
  if (used[kind] or 0) >= info.count then return false, "no " .. kind .. " tiles left" end
  return true
end

-- Listing placements --------------------------------------------------------------------------
-- Why: listing anomaly placements asks PL.anomaly_ok for every kind at every board hex, on every
-- step of the deploy phase (and the end_phase check asks for the first one); building each
-- anomaly's hexes and their "q,r" keys again each time made the deploy phase a third of a game.
-- The board part of the answer never changes, so it is kept per board and kind; what depends
-- on the game (anomalies and ships placed) is looked up per listing in a few sets.

-- board -> shape name -> list of { h = centre hex (the board's own table), keys = covered
-- keys, [kind] = its choice table once made } for every centre whose whole anomaly is in play,
-- in the order of b.hexes, with `cover` = covered key -> the spots covering it. Kinds of one
-- shape share the list (kind -> list through D.anomalies[kind].shape).
local SPOTS = setmetatable({}, { __mode = "k" })

---The keys of the hexes an anomaly of shape `offsets` centred at h covers, or nil when one of
---them is not in play (`grid`: q -> r -> key of every hex in play).
---@param grid table<integer, table<integer, string>>
---@param h Hex
---@param offsets [integer, integer][] (dq, dr) of each covered hex
---@return string[]|nil
local function covered_keys(grid, h, offsets)
  local keys = {}
  for i, o in ipairs(offsets) do
    local col = grid[h.q + o[1]]
    local k = col and col[h.r + o[2]]
    if not k then return nil end
    keys[i] = k
  end
  return keys
end

local function anomaly_spots(b)
  local per = SPOTS[b]
  if per then return per end
  per = {}
  -- q -> r -> key of every hex in play (so covered hexes need no new key strings)
  local grid = {}
  for _, h in ipairs(b.hexes) do
    local col = grid[h.q]
    if not col then col = {}; grid[h.q] = col end
    col[h.r] = G.key(h)
  end
  for name, offsets in pairs(D.shapes) do
    local list = {}
    for _, h in ipairs(b.hexes) do
      local keys = covered_keys(grid, h, offsets)
      if keys then list[#list + 1] = { h = h, keys = keys } end
    end
    -- covered key -> the spots covering it, in list order
    local cover = {}
    for _, spot in ipairs(list) do
      for _, k in ipairs(spot.keys) do
        local c = cover[k]
        if not c then c = {}; cover[k] = c end
        c[#c + 1] = spot
      end
    end
    list.cover = cover
    per[name] = list
  end
  SPOTS[b] = per
  return per
end

-- "q,r" key -> keys of every hex within the anomaly gap of it, itself included (pure, kept).
local WITHIN_GAP = {}
local function within_gap(k)
  local list = WITHIN_GAP[k]
  if not list then
    list = {}
    for _, y in ipairs(G.range(G.unkey(k), D.solid_gap)) do list[#list + 1] = G.key(y) end
    WITHIN_GAP[k] = list
  end
  return list
end

---Keys within the gap of any anomaly (`any`) and of any planet or moon (`solid`). A hex is
---within the gap of an anomaly hex exactly when that anomaly hex is within the gap of it, so
---these two sets answer PL.anomaly_ok's gap test for every hex at once.
local function gap_sets(map)
  local any, solid = {}, {}
  for k, t in pairs(map) do
    local info = D.terrain[t]
    local is_solid = info and info.solid
    for _, y in ipairs(within_gap(k)) do
      any[y] = true
      if is_solid then solid[y] = true end
    end
  end
  return any, solid
end

-- Placements across read-only callbacks: terrain map -> anomalies_used -> key of the ships'
-- hexes -> { all = list or nil, first = list or nil }. Why: the deploy phase lists placements
-- (and the end_phase check asks for the first) on every step of both sides while nothing they
-- depend on changes; in read-only callbacks an unchanged global is the same shared table in
-- every call, so those tables (weak keys) and the ships' hexes identify the answer. Writable
-- callbacks get fresh copies, which never hit (nor stay: the keys are weak).
local PLACEMENTS = setmetatable({}, { __mode = "k" })

local function placement_entry(ctx)
  local map = R.terrain_map(ctx)
  local used = R.global(ctx, "anomalies_used", false)
  local by_map = PLACEMENTS[map]
  if not by_map then by_map = setmetatable({}, { __mode = "k" }); PLACEMENTS[map] = by_map end
  local by_used = by_map[used]
  if not by_used then by_used = {}; by_map[used] = by_used end
  local hexes = {}
  for _, p in ipairs(R.board_pieces(ctx)) do
    if R.type_of(p) == "ship" then hexes[#hexes + 1] = G.key(R.hex_of(p)) end
  end
  local k = table.concat(hexes, ";")
  local e = by_used[k]
  if not e then e = {}; by_used[k] = e end
  return e
end

---Every placement `{ kind =, at = }` PL.anomaly_ok allows now, kinds in D.anomaly_order and
---hexes in board order (only the first with first_only). Memoised in read-only callbacks (and
---across them while the terrain, the tiles used and the ships' hexes stay the same).
function PL.anomaly_choices(ctx, first_only)
  if not R.is_readonly(ctx) then return PL.placements_now(ctx, first_only) end
  return memo(ctx, first_only and "anomaly_first" or "anomaly_all", nil, function()
    local e = placement_entry(ctx)
    if first_only then
      if e.all then return { e.all[1] } end
      e.first = e.first or PL.placements_now(ctx, true)
      return e.first
    end
    e.all = e.all or PL.placements_now(ctx, false)
    return e.all
  end)
end

---The placements computed from the state (no memo): see PL.anomaly_choices.
function PL.placements_now(ctx, first_only)
  do
    local map, occ = R.terrain_map(ctx), R.occupancy(ctx)
    local used, b = R.global(ctx, "anomalies_used", {}), R.board(ctx)
    local spots = anomaly_spots(b)
    local near_any, near_solid = gap_sets(map)
    -- Why one set per gap kind: a covered hex is refused when it holds an anomaly, lies in
    -- the gap, or holds a ship; one lookup per hex instead of three.
    local blocked = { [near_any] = {}, [near_solid] = {} }
    for near, set in pairs(blocked) do
      for k in pairs(map) do set[k] = true end
      for k in pairs(near) do set[k] = true end
      for k, o in pairs(occ) do if o.ship then set[k] = true end end
    end
    -- The spots refused, per shape and gap kind: found from the few blocked hexes through the
    -- spots covering each hex (board-fixed), instead of testing every hex of every spot.
    local refused = {}
    local out = {}
    for _, kind in ipairs(D.anomaly_order) do
      local info = D.anomalies[kind]
      if (used[kind] or 0) < info.count then
        local no = blocked[D.terrain[info.terrain].solid and near_any or near_solid]
        local list = spots[info.shape]
        local per = refused[list]
        if not per then per = {}; refused[list] = per end
        local bad = per[no]
        if not bad then
          bad = {}
          local cover = list.cover
          for k in pairs(no) do
            local covering = cover[k]
            if covering then for _, spot in ipairs(covering) do bad[spot] = true end end
          end
          per[no] = bad
        end
        for _, spot in ipairs(list) do
          if not bad[spot] then
            -- The choice tables are kept with the spot (made once, see main.lua's TRANSFERS).
            local c = spot[kind]
            if not c then c = { kind = kind, at = spot.h }; spot[kind] = c end
            out[#out + 1] = c
            if first_only then return out end
          end
        end
      end
    end
    return out
  end
end

-- Setup: ships --------------------------------------------------------------------------------
---The ships of `side` not yet placed on the board, by id.
---@return Piece[]
function PL.reserve_ships(ctx, side)
  local out = {}
  for _, p in ipairs(R.ships(ctx, side)) do if not R.on_board(p) then out[#out + 1] = p end end
  return out
end

---Whether a ship of `side` can be deployed at h: in play, no anomaly, no ship, and no sector
---of h holds an enemy ship (a seam hex is in every sector that covers it).
function PL.deploy_ok(ctx, side, map, occ, h, ships)
  local b = R.board(ctx)
  local k = G.key(h)
  if not b.play[k] then return false, "not a whole hex of the board" end
  if map[k] then return false, "ships can not be placed on an anomaly" end
  if occ[k] and occ[k].ship then return false, "another ship is there" end
  local mine = {}
  for _, s in ipairs(b.sectors[k]) do mine[s] = true end
  for _, p in ipairs(ships or R.ship_spots(ctx)) do
    local ph = R.hex_of(p)
    if ph and R.enemies(ctx, side, p.owner) then
      for _, s in ipairs(b.sectors[G.key(ph)] or {}) do
        if mine[s] then return false, "sector " .. s .. " already holds an enemy ship" end
      end
    end
  end
  return true
end

function PL.all_anomalies_placed(ctx)
  for _, s in ipairs(ctx:sides()) do
    if not s.eliminated and (s.values.anomalies_left or 0) > 0 then
      if #PL.anomaly_choices(ctx, true) > 0 then return false end
    end
  end
  return true
end

return PL
