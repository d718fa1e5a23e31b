-- Tutorial: Picket Line
--
-- A Hexforge mod is declarations first: this file runs once when the mod loads and describes
-- the game through the global `game` object (piece types, a rule table, dice, terrain, the turn
-- structure, actions, setup, victory and event hooks). Rust then checks everything at once and
-- reports each problem as `mods/tutorial/main.lua:<line>: <message>`. The board and the starting
-- pieces are data in scenarios/picket.toml. The API is described in docs/API.md.
--
-- The game state never lives in Lua. Callbacks receive `ctx`, a handle onto the Rust-owned
-- state: read it with ctx:piece(id), ctx:pieces{...}, ctx:pieces_at(hex), ctx:terrain(hex);
-- change it only with engine calls (ctx:move, ctx:set, ctx:destroy, ctx:roll, ctx:log). If a
-- callback errors, the whole action is discarded: you never have to undo half a change.
--
-- All randomness comes from ctx:roll and friends (math.random is disabled), so a game is a pure
-- function of its seed and the players' actions: saves replay exactly.

-- `require("helpers")` loads helpers.lua from this mod (a variant finds its base's files too;
-- then the engine's shared scripts/ folder is searched).
local helpers = require("helpers")

---------------------------------------------------------------------------------------------
-- 1. Piece types. `stats` are fixed numbers of the type (read them as piece.stats.speed);
--    `values` are per piece, copied into each piece, and change during play.
---------------------------------------------------------------------------------------------
-- `counter` is how the editor draws a piece: a short label, the factors printed along the
-- bottom (guns-speed here), damage as { taken, of } (a red bar) and status markers.
local function counter(label)
  return function(_ctx, p)
    local markers = {}
    if p.values.moved then markers[#markers + 1] = "moved" end
    if p.values.fired then markers[#markers + 1] = "fired" end
    return {
      label = label,
      factors = p.stats.guns .. "-" .. p.stats.speed,
      damage = { p.values.damage, p.stats.hull },
      markers = markers,
    }
  end
end

game.piece_type {
  id = "frigate",
  name = "Frigate",
  stats = { hull = 3, speed = 2, guns = 2 },
  values = { damage = 0, moved = false, fired = false },
  counter = counter("FR"),
}

game.piece_type {
  id = "scout",
  name = "Scout",
  stats = { hull = 1, speed = 3, guns = 1 },
  values = { damage = 0, moved = false, fired = false },
  counter = counter("SC"),
}

---------------------------------------------------------------------------------------------
-- 2. A rule table: the d6 roll needed to hit, by the firer's guns (rows) and range (columns).
--    Keys are strings: exact ("1"), ranges ("2-4"), open ("3+"). Variants edit single cells
--    (see mods/tutorial-variant).
---------------------------------------------------------------------------------------------
game.table {
  id = "to_hit",
  rows = { "1", "2" },          -- guns
  columns = { "1", "2", "3+" }, -- range in hexes
  cells = {
    { 4, 5, 6 },                -- 1 gun
    { 3, 4, 5 },                -- 2 guns
  },
}

---------------------------------------------------------------------------------------------
-- 3. Dice. Plain dice are notation ("d6", "2d6+1"); a named die has faces.
--    A hit rolls the damage die: "hull" does one damage, "critical" two, "glancing" none.
---------------------------------------------------------------------------------------------
game.dice {
  id = "damage",
  faces = { "glancing", "hull", "hull", "hull", "hull", "critical" },
}

local DAMAGE = { glancing = 0, hull = 1, critical = 2 }

---------------------------------------------------------------------------------------------
-- 4. Terrain. Where it lies is scenario data; what it means is up to the rules below.
---------------------------------------------------------------------------------------------
game.terrain { id = "cloud", name = "Dust cloud", color = "#8a8a70", blocks_movement = true }

---------------------------------------------------------------------------------------------
-- 5. The turn structure: each round every side takes a turn, in the scenario's side order
--    (blue, then red); in its turn a side moves, then fires. `actor = "active"` (the default)
--    means the side whose turn it is. After round 10 the `turn_limit` hook decides.
---------------------------------------------------------------------------------------------
game.turns {
  order = "fixed",
  phases = {
    { id = "move" },
    { id = "fire", actor = "active" },
  },
  turn_limit = 10,
}

---------------------------------------------------------------------------------------------
-- Small helpers over ctx (local functions are fine: only declarations are visible to Rust).
---------------------------------------------------------------------------------------------
local MAX_RANGE = 3

-- Hexes no ship may end its move in: other ships and terrain that blocks movement.
local function blocked(ctx, h)
  if not ctx:on_board(h) or #ctx:pieces_at(h) > 0 then return true end
  for _, t in ipairs(ctx:terrain(h)) do
    if ctx:terrain_info(t).blocks_movement then return true end
  end
  return false
end

local function own_piece(ctx, side, id)
  local p = ctx:piece(id)
  if not p then return nil, "there is no piece " .. tostring(id) end
  if p.owner ~= side then return nil, "piece " .. id .. " is not yours" end
  return p
end

---------------------------------------------------------------------------------------------
-- 6. Actions. Each has the phases it is allowed in, its params, and three callbacks:
--    choices(ctx, side) lists the params of every legal action (bots and the editor use it;
--      it must only list actions that pass check),
--    check(ctx, a) returns true, or false and a reason the player reads,
--    apply(ctx, a) changes the state (the engine runs it only after check passed).
--    The action `a` has a.id, a.side and its params as fields (a.piece, a.to).
---------------------------------------------------------------------------------------------
game.action {
  id = "move",
  phases = { "move" },
  params = { piece = "piece", to = "hex" },

  choices = function(ctx, side)
    local out = {}
    for _, p in ipairs(ctx:pieces { owner = side }) do
      if not p.values.moved then
        for _, h in ipairs(helpers.destinations(p.hex, p.stats.speed, function(x) return blocked(ctx, x) end)) do
          out[#out + 1] = { piece = p.id, to = h }
        end
      end
    end
    return out
  end,

  check = function(ctx, a)
    local p, why = own_piece(ctx, a.side, a.piece)
    if not p then return false, why end
    if p.values.moved then return false, "piece " .. p.id .. " has already moved this turn" end
    if hex.distance(p.hex, a.to) > p.stats.speed then
      return false, "too far: speed " .. p.stats.speed
    end
    if blocked(ctx, a.to) then return false, "that hex is off the arena, occupied or in the cloud" end
    return true
  end,

  apply = function(ctx, a)
    local p = assert(ctx:piece(a.piece), "check found the piece")
    ctx:move(p.id, a.to)
    ctx:set(p.id, "moved", true)
    ctx:log(("%s %d moves to (%d, %d)"):format(p.type, p.id, a.to.q, a.to.r))
  end,
}

-- Hexes between two ships. A piece's hex is nil only while it is off the map (in a box, say);
-- the ships of this game never leave it, and assert says so.
---@param p Piece
---@param t Piece
---@return integer
local function distance(p, t)
  return hex.distance(assert(p.hex, "ships never leave the map"), assert(t.hex, "ships never leave the map"))
end

-- The d6 roll a ship with `guns` guns needs to hit at `range` (ranges below 1 count as 1; the
-- table's last column covers 3 and more), and its chance from 0 to 1.
---@param ctx CtxReader
---@param guns integer
---@param range integer
---@return integer need
---@return number chance
local function to_hit(ctx, guns, range)
  local need = ctx:lookup("to_hit", tostring(guns), tostring(helpers.clamp(range, 1, MAX_RANGE))) --[[@as integer]]
  return need, math.max(0, math.min(6, 7 - need)) / 6
end

game.action {
  id = "fire",
  phases = { "fire" },
  params = { piece = "piece", target = "piece" },

  choices = function(ctx, side)
    local out = {}
    for _, p in ipairs(ctx:pieces { owner = side }) do
      if not p.values.fired then
        for _, t in ipairs(ctx:pieces {}) do
          if t.owner ~= side and distance(p, t) <= MAX_RANGE then
            out[#out + 1] = { piece = p.id, target = t.id }
          end
        end
      end
    end
    return out
  end,

  check = function(ctx, a)
    local p, why = own_piece(ctx, a.side, a.piece)
    if not p then return false, why end
    if p.values.fired then return false, "piece " .. p.id .. " has already fired this turn" end
    local t = ctx:piece(a.target)
    if not t or t.owner == a.side then return false, "the target must be an enemy ship" end
    if distance(p, t) > MAX_RANGE then return false, "out of range (3 hexes)" end
    return true
  end,

  apply = function(ctx, a)
    local p = assert(ctx:piece(a.piece), "check found the piece")
    local t = assert(ctx:piece(a.target), "check found the target")
    ctx:set(p.id, "fired", true)
    local need = to_hit(ctx, p.stats.guns, distance(p, t))
    local roll = ctx:roll("d6", "to hit")
    if roll < need then
      ctx:log(("%s %d misses %s %d (rolled %d, needed %d)"):format(p.type, p.id, t.type, t.id, roll, need))
      return
    end
    local face = ctx:roll_named("damage", 1, "damage")[1]
    local total = t.values.damage + DAMAGE[face]
    ctx:log(("%s %d hits %s %d: %s"):format(p.type, p.id, t.type, t.id, face))
    if total >= t.stats.hull then
      ctx:destroy(t.id)
      ctx:log(("%s %d is destroyed"):format(t.type, t.id))
    else
      ctx:set(t.id, "damage", total)
    end
  end,

  -- Optional: how the editor names a shot (the play panel lists `text`, the map shows `short`
  -- by the target): the d6 roll needed and its chance, before the roll.
  label = function(ctx, a)
    local p, t = ctx:piece(a.piece), ctx:piece(a.target)
    if not p or not t then return nil end
    local range = helpers.clamp(distance(p, t), 1, MAX_RANGE)
    local need, p_hit = to_hit(ctx, p.stats.guns, range)
    local chance = math.floor(p_hit * 100 + 0.5)
    return {
      text = ("%s %d -> %s %d, range %d: needs %d (%d%%)"):format(p.type, p.id, t.type, t.id, range, need, chance),
      short = chance .. "%",
    }
  end,
}

---------------------------------------------------------------------------------------------
-- 7. Setup runs after the scenario placed the pieces; it can add to them. Here it only
--    announces the game.
---------------------------------------------------------------------------------------------
game.setup(function(ctx)
  ctx:log("Picket line: destroy the enemy squadron, or out-last it by round 10.")
end)

---------------------------------------------------------------------------------------------
-- 8. Victory: called after every action. Return nil while the game goes on, or
--    { winners = { ... }, reason = "..." } (no winners = a draw).
---------------------------------------------------------------------------------------------
local function strength(ctx, side)
  local hull = 0 ---@type number
  for _, p in ipairs(ctx:pieces { owner = side }) do
    hull = hull + p.stats.hull - p.values.damage
  end
  return hull
end

game.victory(function(ctx)
  if strength(ctx, "red") == 0 then return { winners = { "blue" }, reason = "the red squadron is destroyed" } end
  if strength(ctx, "blue") == 0 then return { winners = { "red" }, reason = "the blue squadron is destroyed" } end
  return nil
end)

---------------------------------------------------------------------------------------------
-- 8b. Evaluate (optional): how good the game looks for `side`, from 0 (lost) to 1 (won). The
--     search bot (`hexforge play tutorial --bots mcts`) cuts its simulations short after ten actions
--     (its horizon) and scores them with this; without it, every simulation plays to the end of
--     the game. Read-only, like victory. Here: this side's share of the hull left in the arena,
--     the very thing victory and the turn limit decide on.
---------------------------------------------------------------------------------------------
game.evaluate = function(ctx, side)
  local mine, all = 0, 0 ---@type number, number
  for _, s in ipairs(ctx:sides()) do
    local hull = strength(ctx, s.id)
    all = all + hull
    if s.id == side then mine = hull end
  end
  if all == 0 then return 0.5 end
  return mine / all
end

---------------------------------------------------------------------------------------------
-- 9. Hooks react to engine events (round_start, segment_start, turn_start, phase_start,
--    phase_end, after_action, turn_limit). They receive ctx and the event (these need only ctx).
---------------------------------------------------------------------------------------------
game.on("turn_start", function(ctx)
  -- A new turn: every ship may move and fire again.
  for _, p in ipairs(ctx:pieces {}) do
    ctx:set(p.id, "moved", false)
    ctx:set(p.id, "fired", false)
  end
end)

game.on("round_start", function(ctx)
  ctx:log("round " .. ctx.round)
end)

game.on("turn_limit", function(ctx)
  -- Round 10 is over and both squadrons are still flying: more hull left wins.
  local blue, red = strength(ctx, "blue"), strength(ctx, "red")
  if blue == red then
    ctx:end_game { winners = {}, reason = ("%d hull each"):format(blue) }
  else
    local winner = blue > red and "blue" or "red"
    ctx:end_game { winners = { winner }, reason = ("%d hull to %d"):format(math.max(blue, red), math.min(blue, red)) }
  end
end)

---------------------------------------------------------------------------------------------
-- 10. Bots (optional): `hexforge play tutorial --bots greedy` or `--bots blue=greedy,red=random`.
--     A bot gets a read-only ctx, its side and the list of its legal actions, and returns the
--     1-based index of the one to take. This one fires when it can, otherwise closes in on the
--     nearest enemy; it ends the phase only when nothing else is left.
---------------------------------------------------------------------------------------------
local function nearest_enemy_distance(ctx, side, from)
  local best = math.huge
  for _, t in ipairs(ctx:pieces {}) do
    if t.owner ~= side then best = math.min(best, hex.distance(from, t.hex)) end
  end
  return best
end

game.bots.greedy = function(ctx, side, legal)
  local best, best_score = #legal, -math.huge
  for i, a in ipairs(legal) do
    ---@type number
    local score = -1000 -- end_phase: only when nothing else is left
    if a.id == "fire" then
      score = 1000
    elseif a.id == "move" then
      score = -nearest_enemy_distance(ctx, side, a.to)
    end
    if score > best_score then best, best_score = i, score end
  end
  return best
end

-- A second bot, `patient` (`--bots blue=patient,red=greedy`), knows what greedy does not: in an
-- I-go-you-go game the side that moves into range first is shot at first. It moves a ship into
-- range only where it fires from there this turn at odds better than the reply it invites, and
-- otherwise keeps it out of the enemy's reach (an enemy's speed plus the 3-hex range), closing in
-- only as far as that allows. From round 8, when it is not ahead on hull, it stops waiting (the
-- turn limit gives a tie to nobody). It fires the best shot first: the best odds, a kill before
-- a scratch.
local function hit_chance(ctx, guns, range)
  if range > MAX_RANGE then return 0 end
  local _, chance = to_hit(ctx, guns, range)
  return chance
end

-- How good hex `h` is for ship `p` to end its move in.
---@param ctx CtxReader
---@param p Piece
---@param h Hex
---@param enemies Piece[]
---@param wait number 1 to weigh the enemy's reply, 0 to ignore it
---@return number
local function standing(ctx, p, h, enemies, wait)
  local shot, threat, nearest = 0, 0, math.huge ---@type number, number, number
  for _, e in ipairs(enemies) do
    local d = hex.distance(h, assert(e.hex, "ships never leave the map"))
    nearest = math.min(nearest, d)
    shot = math.max(shot, hit_chance(ctx, p.stats.guns, d))
    -- The enemy moves next and fires from as close as its speed takes it.
    threat = threat + hit_chance(ctx, e.stats.guns, math.max(1, d - e.stats.speed))
  end
  return 2 * shot - wait * threat - 0.01 * nearest
end

game.bots.patient = function(ctx, side, legal)
  local enemies, mine, theirs = {}, strength(ctx, side), 0 ---@type Piece[], number, number
  for _, t in ipairs(ctx:pieces {}) do
    if t.owner ~= side then
      enemies[#enemies + 1] = t
      theirs = theirs + t.stats.hull - t.values.damage
    end
  end
  local wait = (ctx.round >= 8 and mine <= theirs) and 0 or 1
  local best, best_score = nil, 0 ---@type integer?, number
  local here = {} ---@type table<integer, number> each moving ship's standing where it is
  for i, a in ipairs(legal) do
    local score = nil ---@type number?
    if a.id == "fire" then
      local p, t = assert(ctx:piece(a.piece)), assert(ctx:piece(a.target))
      local left = t.stats.hull - t.values.damage
      score = 10 + hit_chance(ctx, p.stats.guns, distance(p, t)) * (left <= 1 and 2 or 1)
    elseif a.id == "move" then
      local p = assert(ctx:piece(a.piece))
      here[p.id] = here[p.id] or standing(ctx, p, assert(p.hex, "ships never leave the map"), enemies, wait)
      score = standing(ctx, p, a.to, enemies, wait) - here[p.id]
    end
    if score and score > best_score then best, best_score = i, score end
  end
  -- Nothing better than where the ships stand (or nothing to fire): end the phase.
  if best then return best end
  for i, a in ipairs(legal) do
    if a.id == "end_phase" then return i end
  end
  return #legal
end
