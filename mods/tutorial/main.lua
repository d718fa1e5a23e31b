-- Tutorial: Picket Line
--
-- A Hexforge mod is declarations first: this file runs once when the mod loads and describes
-- the game through the global `game` object (piece types, tables, dice, the board, the turn
-- structure, actions, setup, victory and event hooks). Rust then checks everything at once and
-- reports each problem as `mods/tutorial/main.lua:<line>: <message>`.
--
-- The game state never lives in Lua. Callbacks receive `ctx`, a handle onto the Rust-owned
-- state: read it with ctx:piece(id), ctx:pieces{...}, ctx:pieces_at(hex); change it only with
-- engine calls (ctx:move_piece, ctx:set_value, ctx:destroy, ctx:roll, ctx:log). If a callback
-- errors, the whole action is discarded: you never have to undo half a change.
--
-- All randomness comes from ctx:roll (math.random is disabled), so a game is a pure function of
-- its seed and the players' actions: saves replay exactly.

local helpers = require("tutorial.helpers")

---------------------------------------------------------------------------------------------
-- 1. Piece types. `stats` are fixed numbers of the type; `values` are per-piece and change
--    during play (they start as given here).
---------------------------------------------------------------------------------------------
game.piece_type {
  id = "frigate",
  name = "Frigate",
  stats = { hull = 3, speed = 2, guns = 2 },
  values = { damage = 0, moved = false, fired = false },
}

game.piece_type {
  id = "scout",
  name = "Scout",
  stats = { hull = 1, speed = 3, guns = 1 },
  values = { damage = 0, moved = false, fired = false },
}

---------------------------------------------------------------------------------------------
-- 2. A rule table: the d6 roll needed to hit, by the firer's guns (rows) and range (columns).
--    A cell of 7 means "cannot hit". Variants edit single cells (see mods/tutorial-variant).
---------------------------------------------------------------------------------------------
game.table {
  id = "to_hit",
  rows = { 1, 2 },       -- guns
  columns = { 1, 2, 3 }, -- range in hexes; longer shots use the last column
  cells = {
    { 4, 5, 6 },         -- 1 gun
    { 3, 4, 5 },         -- 2 guns
  },
}

---------------------------------------------------------------------------------------------
-- 3. Dice. Plain dice are written as notation ("1d6", "2d6+1"); a named die has faces.
--    A hit rolls the damage die: "hull" does one damage, "critical" two, "glancing" none.
---------------------------------------------------------------------------------------------
game.dice {
  id = "damage",
  faces = { "glancing", "hull", "hull", "hull", "hull", "critical" },
}

---------------------------------------------------------------------------------------------
-- 4. The board: a hexagonal arena of radius 4 (61 hexes) with a dust cloud at its centre
--    that blocks movement into it (terrain ids are the mod's own words).
---------------------------------------------------------------------------------------------
game.board {
  id = "arena",
  shape = "hexagon",
  radius = 4,
  terrain = { cloud = { { q = 0, r = 0 } } },
}

---------------------------------------------------------------------------------------------
-- 5. The turn structure: each round every side takes a turn, in the scenario's seating order
--    (blue, then red); in its turn a side moves, then fires. `actor = "active"` (the default)
--    means the side whose turn it is. The game ends after round 10 if nobody has won before.
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
local RADIUS = 4

local function occupied(ctx)
  local set = {}
  for _, p in ipairs(ctx:pieces {}) do
    if p.pos.q then set[hex.key(p.pos)] = true end
  end
  set[hex.key({ q = 0, r = 0 })] = true -- the cloud
  return set
end

local function own_piece(ctx, side, id)
  local p = ctx:piece(id)
  if not p then return nil, "there is no piece " .. tostring(id) end
  if p.owner ~= side then return nil, "piece " .. id .. " is not yours" end
  return p
end

---------------------------------------------------------------------------------------------
-- 6. Actions. Each has the phases it is allowed in, typed params, and three callbacks:
--    choices(ctx, side) lists the legal actions (bots and the editor use it),
--    check(ctx, a) returns nothing if legal or a reason string if not,
--    apply(ctx, a) changes the state (the engine calls check first).
---------------------------------------------------------------------------------------------
game.action {
  id = "move",
  phases = { "move" },
  params = { piece = "piece", to = "hex" },

  choices = function(ctx, side)
    local out, blocked = {}, occupied(ctx)
    for _, p in ipairs(ctx:pieces { owner = side }) do
      if not p.values.moved then
        local speed = game.piece_types[p.kind].stats.speed
        for _, h in ipairs(helpers.destinations(p.pos, speed, RADIUS, blocked)) do
          out[#out + 1] = { piece = p.id, to = h }
        end
      end
    end
    return out
  end,

  check = function(ctx, a)
    local p, why = own_piece(ctx, a.side, a.params.piece)
    if not p then return why end
    if p.values.moved then return "piece " .. p.id .. " has already moved this turn" end
    local speed = game.piece_types[p.kind].stats.speed
    if hex.distance(p.pos, a.params.to) > speed then
      return "too far: speed " .. speed
    end
    if hex.length(a.params.to) > RADIUS then return "off the arena" end
    if occupied(ctx)[hex.key(a.params.to)] then return "that hex is occupied" end
  end,

  apply = function(ctx, a)
    local p = ctx:piece(a.params.piece)
    ctx:move_piece(p.id, a.params.to)
    ctx:set_value(p.id, "moved", true)
    ctx:log(("%s %d moves to (%d, %d)"):format(p.kind, p.id, a.params.to.q, a.params.to.r))
  end,
}

game.action {
  id = "fire",
  phases = { "fire" },
  params = { piece = "piece", target = "piece" },

  choices = function(ctx, side)
    local out = {}
    for _, p in ipairs(ctx:pieces { owner = side }) do
      if not p.values.fired then
        for _, t in ipairs(ctx:pieces {}) do
          if t.owner ~= side and hex.distance(p.pos, t.pos) <= 3 then
            out[#out + 1] = { piece = p.id, target = t.id }
          end
        end
      end
    end
    return out
  end,

  check = function(ctx, a)
    local p, why = own_piece(ctx, a.side, a.params.piece)
    if not p then return why end
    if p.values.fired then return "piece " .. p.id .. " has already fired this turn" end
    local t = ctx:piece(a.params.target)
    if not t or t.owner == a.side then return "the target must be an enemy piece" end
    if hex.distance(p.pos, t.pos) > 3 then return "out of range (3 hexes)" end
  end,

  apply = function(ctx, a)
    local p, t = ctx:piece(a.params.piece), ctx:piece(a.params.target)
    ctx:set_value(p.id, "fired", true)
    local guns = game.piece_types[p.kind].stats.guns
    local range = helpers.clamp(hex.distance(p.pos, t.pos), 1, 3)
    local need = ctx:lookup("to_hit", guns, range)
    local roll = ctx:roll("1d6", "to hit")
    if roll.total < need then
      ctx:log(("%s %d misses %s %d (rolled %d, needed %d)"):format(p.kind, p.id, t.kind, t.id, roll.total, need))
      return
    end
    local face = ctx:roll("1d[damage]", "damage").dice[1].face
    local dmg = ({ glancing = 0, hull = 1, critical = 2 })[face]
    local total = t.values.damage + dmg
    ctx:log(("%s %d hits %s %d: %s (%d damage)"):format(p.kind, p.id, t.kind, t.id, face, dmg))
    if total >= game.piece_types[t.kind].stats.hull then
      ctx:destroy(t.id)
      ctx:log(("%s %d is destroyed"):format(t.kind, t.id))
    else
      ctx:set_value(t.id, "damage", total)
    end
  end,
}

---------------------------------------------------------------------------------------------
-- 7. Setup: the scenario file (scenarios/*.toml) places the pieces; setup can add to it.
--    Here it only announces the game.
---------------------------------------------------------------------------------------------
game.setup(function(ctx)
  ctx:log("Picket line: destroy the enemy squadron, or out-last it by round 10.")
end)

---------------------------------------------------------------------------------------------
-- 8. Victory: called after every action. Return nil while the game goes on, or
--    { winners = { ... }, reason = "..." }. After the turn limit, no winner means a draw.
---------------------------------------------------------------------------------------------
local function strength(ctx, side)
  local hull = 0
  for _, p in ipairs(ctx:pieces { owner = side }) do
    hull = hull + game.piece_types[p.kind].stats.hull - p.values.damage
  end
  return hull
end

game.victory(function(ctx)
  local blue, red = strength(ctx, "blue"), strength(ctx, "red")
  if red == 0 then return { winners = { "blue" }, reason = "the red squadron is destroyed" } end
  if blue == 0 then return { winners = { "red" }, reason = "the blue squadron is destroyed" } end
  if ctx.finished then
    if blue > red then return { winners = { "blue" }, reason = ("%d hull to %d"):format(blue, red) } end
    if red > blue then return { winners = { "red" }, reason = ("%d hull to %d"):format(red, blue) } end
  end
end)

---------------------------------------------------------------------------------------------
-- 9. Hooks: react to engine events (round_start, turn_start, phase_start, after_action).
---------------------------------------------------------------------------------------------
game.on("turn_start", function(ctx)
  -- A new turn: every piece may move and fire again.
  for _, p in ipairs(ctx:pieces {}) do
    ctx:set_value(p.id, "moved", false)
    ctx:set_value(p.id, "fired", false)
  end
end)

game.on("round_start", function(ctx)
  ctx:log("round " .. ctx.round)
end)
