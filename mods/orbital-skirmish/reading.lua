-- reading.lua: reading the game, shared by the rules files (main.lua, fire.lua).
--
-- What it is: the declared tables read once per load, ship reads, the planets, the movement
-- environment, and the per-listing memos that let every `choices` of one listing share one
-- read of the ships. What it deliberately does not do: change the game (nothing here writes).

local data = require("ships")
local mv = require("movement")

-- Declared tables cannot change once the data stage is over (a variant edits them before any
-- game starts), so their rows are read once per load and kept: fire choices ask for a weapon
-- many times per listing, and each ctx:lookup crosses into the engine.
---A ship on the map: a piece snapshot whose hex is known (ships_of and the listings keep only
---those; own_ship refuses the others).
---@class Ship: Piece
---@field hex Hex

---A row of the declared "weapons" table (its columns are data.weapon_columns).
---@class Weapon
---@field id string
---@field range integer
---@field damage string dice
---@field chance integer
---@field range_loss integer
---@field arc "any"|"forward"
---@field fire "both"|"offensive"
---@field limited "yes"|"no"
---@field icm_penalty integer

---@type table<string, string|integer|nil>, table<string, Weapon|nil>
local RULES, WEAPONS = {}, {}

---A cell of the declared "rules" table.
---@param ctx CtxReader
---@param name string
---@return any
local function rule(ctx, name)
  local v = RULES[name]
  if v == nil then
    v = (ctx:lookup("rules", "value", name))
    RULES[name] = v
  end
  return v
end

---@param ctx CtxReader
---@param id string
---@return Weapon
local function weapon(ctx, id)
  local w = WEAPONS[id]
  if w then return w end
  w = { id = id } --[[@as Weapon]] -- its columns are read in here
  for _, c in ipairs(data.weapon_columns) do w[c] = (ctx:lookup("weapons", id, c)) end
  WEAPONS[id] = w
  return w
end

---A roll's total (ctx:roll gives a number; a detailed roll a table with `total`).
---@param x integer|{ total: integer }
---@return integer
local function total(x)
  if type(x) == "table" then return x.total end
  return x
end

---@param p Piece
---@return integer
local function facing_of(p) return mv.dir(p.facing) or 0 end

-- Where apply and the hooks only read a ship (they write with ctx:set), they read the shared,
-- read-only snapshots too (no copy of a ship per read; docs/API.md, ctx:piece).
local SHARED = { shared = true }

---@param p Piece
---@return integer
local function hull_left(p) return (p.stats.hull - (p.values.damage or 0)) --[[@as integer]] end

-- The planets: a list of hexes and a set keyed "q,r", found once in setup.
-- A hex as a number (no string built per lookup: the move search asks about every hex it
-- reaches).
---@param h Hex
---@return integer
local function hex_number(h) return (h.q + 4096) * 8192 + (h.r + 4096) end

---@param ctx CtxReader
---@return Hex[] list
---@return table<integer, boolean> set keyed by hex_number
local function planets(ctx)
  local list = ctx:global("planets") or {}
  local set = {}
  for _, h in ipairs(list) do set[hex_number(h)] = true end
  return list, set
end

---The side's ships on the map (shared snapshots), in id order.
---@param ctx CtxReader
---@param side string
---@return Ship[]
local function ships_of(ctx, side)
  local out = {} ---@type Ship[]
  for _, p in ipairs(ctx:pieces { owner = side, shared = true }) do
    if p.hex then out[#out + 1] = p --[[@as Ship]] end
  end
  table.sort(out, function(a, b) return a.id < b.id end)
  return out
end

---@param ctx CtxReader
---@param side string
---@param id integer
---@return Ship|nil
---@return string|nil why
local function own_ship(ctx, side, id)
  local p = ctx:piece(id, SHARED)
  if not p then return nil, "there is no ship " .. tostring(id) end
  if p.owner ~= side then return nil, "ship " .. tostring(id) .. " is not yours" end
  if not p.hex then return nil, "ship " .. tostring(id) .. " is not on the map" end
  return p --[[@as Ship]]
end

---The movement environment of a game (move_env): the planets and the board always known.
---@class GameMoveEnv: MoveEnv
---@field planets Hex[]
---@field planet_blocked fun(h: Hex): boolean
---@field board_ctx CtxReader
---@field board_on_board fun(h: Hex): boolean

--- The movement environment of the current game (board, planets, variant extensions).
---@param ctx CtxReader
---@return GameMoveEnv
local function move_env(ctx)
  local list, set = planets(ctx)
  local board_cache = {}
  local env = {
    planets = list,
    on_board = function(h)
      local k = hex_number(h)
      local v = board_cache[k]
      if v == nil then
        v = ctx:on_board(h) and true or false
        board_cache[k] = v
      end
      return v
    end,
    blocked = function(h) return set[hex_number(h)] == true end,
  }
  -- Unless an extension replaces it, blocked is exactly `planets` (movement.reach hands the
  -- engine the list).
  env.planet_blocked = env.blocked
  -- The game's board: move listings let the engine answer it (movement.reach), unless an
  -- extension replaces on_board.
  env.board_ctx, env.board_on_board = ctx, env.on_board
  for _, ext in ipairs(ORBITAL_SKIRMISH.env_extensions) do ext(ctx, env) end
  return env
end
ORBITAL_SKIRMISH.move_env = move_env

-- Listings. Why a memo: the engine calls every `choices` of one listing with the same read-only
-- ctx (the state cannot change between them; docs/API.md section 3), and each used to read the
-- ships and build the movement environment anew. Kept per ctx (weak keys: it goes with the ctx);
-- only choices use it, never a writable ctx.
---@class Listing
---@field ships table<string, Ship[]>
---@field all? Ship[]
---@field env? GameMoveEnv

---@type table<CtxReader, Listing>
local LISTING = setmetatable({}, { __mode = "k" })

---@param ctx CtxReader
---@return Listing
local function listing(ctx)
  local m = LISTING[ctx]
  if m == nil then
    m = { ships = {} }
    LISTING[ctx] = m
  end
  return m
end

--- Every piece on the map (snapshots), for the choices of one listing.
---@param ctx CtxReader
---@return Ship[]
local function listed_pieces(ctx)
  local m = listing(ctx)
  if m.all == nil then
    m.all = {}
    for _, p in ipairs(ctx:pieces {}) do
      if p.hex then m.all[#m.all + 1] = p --[[@as Ship]] end
    end
  end
  return m.all
end

--- ships_of for the choices of one listing.
---@param ctx CtxReader
---@param side string
---@return Ship[]
local function listed_ships_of(ctx, side)
  local m = listing(ctx)
  local out = m.ships[side]
  if out == nil then
    out = {}
    for _, p in ipairs(listed_pieces(ctx)) do
      if p.owner == side then out[#out + 1] = p end
    end
    table.sort(out, function(a, b) return a.id < b.id end)
    m.ships[side] = out
  end
  return out
end

--- move_env for the choices of one listing.
---@param ctx CtxReader
---@return GameMoveEnv
local function listed_env(ctx)
  local m = listing(ctx)
  if m.env == nil then m.env = move_env(ctx) end
  return m.env
end

---@param ctx CtxReader
---@param h Hex
---@return Hex[]
local function adjacent_planets(ctx, h)
  local list = planets(ctx)
  local out = {}
  for _, p in ipairs(list) do
    if mv.distance(p, h) == 1 then out[#out + 1] = p end
  end
  return out
end

--- The greedy bot's pick among `actions` (legal actions of `side`); see bot.lua.

return {
  rule = rule,
  weapon = weapon,
  total = total,
  facing_of = facing_of,
  SHARED = SHARED,
  hull_left = hull_left,
  hex_number = hex_number,
  planets = planets,
  ships_of = ships_of,
  own_ship = own_ship,
  move_env = move_env,
  listing = listing,
  listed_pieces = listed_pieces,
  listed_ships_of = listed_ships_of,
  listed_env = listed_env,
  adjacent_planets = adjacent_planets,
}
