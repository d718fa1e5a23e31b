-- The greedy bot for Solar Flare: scores each legal action with a one-step heuristic and takes
-- the best (the first on ties, so it is deterministic).
--
-- Heuristics, in order of weight: confirm a declared beam attack; make the attacker's choices
-- (the section at a vertex, the dice order) best for its side: most damage to enemies, least to
-- its own; detonate a torpedo whose blast reaches an enemy ship and spares our own; aim the
-- strongest beam at the weakest hit section; launch torpedoes and steer them at the nearest
-- enemy; in movement close in on the nearest enemy, counting steps round planets and moons
-- (buying movement with thruster power when the ship has no main engine), while turning to
-- bring it ahead; in power fill beams, then shields, torpedoes, engines, thrusters and
-- batteries, never overcharging, generator power before battery power; in setup pick the
-- sample design with the most weighted levels (in the advanced setup, build that design from
-- scratch), raise weapons and shields, mark the design final, then deploy facing the nearest
-- enemy (or the board's centre). It ends a phase only when nothing scores above ending it.
--
-- Deliberately absent: look-ahead or simulation (ctx is read-only in a bot) and any randomness.
--
-- Example: `game.bots.greedy = require("bot").greedy`, then
-- `hexforge play mods/solar-flare --bots blue=greedy,red=random`.
local G = require("geom")
local C = require("combat")
local PW = require("power")
local R = require("rules")
local DESIGNS = require("designs")
local A = require("attack")

local M = {}

-- How far (in steps) the movement heuristic walks round planets and moons.
local WAY_MAX = 40
-- Power priority by component kind (higher first).
local POWER_PRIORITY = { beam = 6, shield = 5, torpedo = 4, engine = 3, thruster = 2, battery = 1 }
-- Design priority for the advanced setup (install) and standard setup (raise a level).
local DESIGN_PRIORITY = { beam = 7, shield = 6, engine = 5, thruster = 4, generator = 3, torpedo = 2, battery = 1, crew = 5 }

-- How much the greedy bot likes a sample design: its systems' levels weighted by DESIGN_PRIORITY.
---@param d Design
---@return integer
local function design_value(d)
  local v = 0
  for _, c in ipairs(d.components) do v = v + (DESIGN_PRIORITY[c.kind] or 0) * c.level end
  for _, lvl in ipairs(d.crew) do v = v + DESIGN_PRIORITY.crew * lvl end
  return v
end

-- The sample design the bot likes best (the one it picks in the quick and standard setups), and
-- so the ship it builds in the advanced setup: install that design's systems where it has
-- them, then raise each to its level. (Installing by priority alone filled every slot with
-- beams and the rest of the budget with crew: no generator, no engine, and the game a draw.)
---@type Design
local LIKED = (function()
  local best, best_v = nil, -math.huge ---@type Design|nil, number
  for _, id in ipairs(DESIGNS.order) do
    local d = DESIGNS[id] --[[@as Design]]
    local v = design_value(d)
    if v > best_v then best, best_v = d, v end
  end
  if best == nil then error("there are sample designs") end
  return best
end)()

-- The liked design's level for a system of `kind` in `section` (nil: it has none there).
---@param kind string
---@param section integer
---@return integer|nil
local function liked_level(kind, section)
  for _, c in ipairs(LIKED.components) do
    if c.kind == kind and c.section == section then return c.level end
  end
  return nil
end

-- How the advanced setup scores an install or a level change: toward the liked design, never
-- away from it (a negative score: the bot finishes the design instead).
---@return number
local function toward_liked(ctx, a)
  local p = R.piece(ctx, a.ship)
  local s = p.values
  if a.id == "install" then
    if a.kind == "crew" then return (#s.crew < #LIKED.crew) and 50 + DESIGN_PRIORITY.crew or -20 end
    if not liked_level(a.kind, a.section) then return -20 end
    for _, c in ipairs(s.comps) do
      if c.kind == a.kind and c.section == a.section then return -20 end -- already there
    end
    return 50 + (DESIGN_PRIORITY[a.kind] or 0)
  end
  if a.delta < 0 then return -5 end
  if a.what == "crew" then
    return (s.crew[a.index].level < (LIKED.crew[a.index] or 0)) and 20 + DESIGN_PRIORITY.crew or -5
  end
  local c = s.comps[a.index]
  local want = liked_level(c.kind, c.section) or 0
  return (c.level < want) and 20 + (DESIGN_PRIORITY[c.kind] or 0) or -5
end

local function enemy_ships(ctx, side)
  local out = {}
  for _, p in ipairs(R.ship_spots(ctx)) do
    if R.on_board(p) and R.enemies(ctx, side, p.owner) then out[#out + 1] = p end
  end
  return out
end

local function nearest(from, ships)
  local best, bd = nil, math.huge
  for _, p in ipairs(ships) do
    local d = G.distance(from, R.hex_of(p))
    if d < bd then best, bd = p, d end
  end
  return best, bd
end

-- How far `facing` at `h` is from pointing at `target` (0 = straight at it, 3 = away).
---@param facing integer
---@return integer
local function bearing_off(h, facing, target)
  if G.eq(h, target) then return 0 end
  local best = 3
  for d = 0, 5 do
    if G.in_arc(h, d, target) then
      local off = math.min((d - facing) % 6, (facing - d) % 6)
      if off < best then best = off end
    end
  end
  return best
end

-- Step distances round planets and moons (neither a ship nor a torpedo can enter them), read
-- only when a movement choice is scored: `way.to(th)(h)` is how many steps `h` is from `th` (the
-- straight distance where the walk does not reach), `way.can_enter(h)` whether a ship may move
-- into `h`, `way.open(h)` whether a torpedo may (no ship stops it). One per bot call; the map,
-- the occupancy and each target's walk are read once, when first asked.
local function new_way(ctx)
  local map, occ, solid ---@type table?, table?, Hex[]?
  local cache = {} ---@type table<string, (fun(h: Hex): integer)?>
  local function load()
    if map then return end
    map, occ, solid = R.terrain_map(ctx), R.occupancy(ctx), {}
    for key in pairs(map) do
      local h = G.unkey(key)
      if R.is_solid(map, h) then solid[#solid + 1] = h end
    end
  end
  local way = {}
  function way.to(th)
    local k = G.key(th)
    if cache[k] then return cache[k] end
    load()
    local d = ctx:distances({ th }, WAY_MAX, { blocked = solid })
    cache[k] = function(h) return d:at(h) or G.distance(h, th) end
    return cache[k]
  end
  function way.can_enter(h)
    load()
    return (R.ship_can_enter(ctx, map, occ, h))
  end
  function way.open(h)
    load()
    return (R.torpedo_can_enter(ctx, map, h))
  end
  return way
end

-- Net blast value of torpedo `t` detonating now: enemy dice minus own dice.
---@return integer
local function blast_value(ctx, side, t)
  local c, lvl, v = R.hex_of(t), t.values.level or 1, 0 ---@type Hex?, integer, integer
  for _, p in ipairs(R.ship_spots(ctx)) do
    local h = R.hex_of(p)
    if h then
      local n = lvl - G.distance(c, h)
      if n > 0 then v = v + (R.enemies(ctx, side, p.owner) and n or -2 * n) end
    end
  end
  return v
end

local function score(ctx, side, a, foes, way)
  local id = a.id
  if id == "end_phase" then return 0 end
  if id == "confirm" then return 1000 end
  if id == "choose_section" or id == "dice_order" then
    -- The attacker's choices: what is best for our side (most damage to an enemy ship, least to
    -- our own or an ally's).
    local st = A.resolving(ctx)
    local h = st.hits[1]
    local p = R.piece(ctx, h.target)
    if id == "choose_section" then return 1000 + A.section_value(ctx, side, p, a.section, h.n) end
    return 1000 + A.order_value(ctx, side, p, h.section, h.dice, a.order)
  end
  if id == "from_batteries" then return 50 - a.battery end -- generator power is lost anyway
  if id == "cancel" then return -10 end
  if id == "detonate" then
    local t = R.piece(ctx, a.torpedo)
    local v = blast_value(ctx, side, t)
    local overdue = (t.values.launched_round or ctx.round) < ctx.round
    if v > 0 then return 900 + v end
    if overdue and v == 0 then return 5 end
    return -50
  end
  if id == "disarm" then
    local t = R.piece(ctx, a.torpedo)
    return ((t.values.launched_round or ctx.round) < ctx.round) and 1 or -60
  end
  if id == "aim" then
    local t = R.piece(ctx, a.target)
    if R.type_of(t) ~= "ship" then return -20 end
    local sec = G.section_of_side(R.facing_of(t), a.hexside)
    local first = assert(C.ship_layers(t.values, sec)[1], "the core is always a layer")
    return 500 + 10 * a.strength - 3 * first.defence
  end
  if id == "launch" then
    local p = R.piece(ctx, a.ship)
    local _, d = nearest(R.hex_of(p), foes)
    return (d <= 8) and 400 or -5
  end
  if id == "torpedo_move" or id == "torpedo_turn" then
    local t = R.piece(ctx, a.torpedo)
    local h, f = R.hex_of(t), R.facing_of(t)
    local target = nearest(h, foes)
    if not target then return -5 end
    local th = R.hex_of(target)
    local steps = way.to(th)
    if id == "torpedo_move" then
      return 300 + 20 * (steps(h) - steps(G.neighbor(h, f))) - 5 * (a.evade or 0)
    end
    local nf = G.turn(f, a.turn)
    -- A planet or moon ahead (the torpedo cannot move on) and a step that closes in round it
    -- after the turn: take the turn. Without it the torpedo sat facing the planet.
    if not way.open(G.neighbor(h, f)) and way.open(G.neighbor(h, nf))
      and steps(h) - steps(G.neighbor(h, nf)) == 1 then
      return 310
    end
    local gain = bearing_off(h, f, th) - bearing_off(h, nf, th)
    return gain > 0 and (300 + 15 * gain) or -5
  end
  if id == "forward" or id == "slide" or id == "turn" or id == "buy_movement" then
    local p = R.piece(ctx, a.ship)
    local h, f = R.hex_of(p), R.facing_of(p)
    local target = nearest(h, foes)
    if not target then return -5 end
    local th = R.hex_of(target)
    local steps = way.to(th)
    -- The step ahead after facing `dir`, counted round planets and moons: +1 closer, 0, -1
    -- farther, -2 when the ship cannot enter it.
    local function ahead(dir)
      local nh = G.neighbor(h, dir)
      if not way.can_enter(nh) then return -2 end
      return steps(h) - steps(nh)
    end
    if id == "turn" then
      local nf = G.turn(f, a.turn)
      -- Away from the enemy, face a step that closes in (round an obstacle) and keep it.
      if steps(h) > 3 then
        if ahead(f) < 1 and ahead(nf) == 1 then return 20 end
        if ahead(f) == 1 and ahead(nf) < 1 then return -5 end
      end
      return 15 * (bearing_off(h, f, th) - bearing_off(h, nf, th)) - 1
    end
    if id == "buy_movement" then
      -- A ship with no main engine (some sample designs have none) moves only on thruster
      -- power: a movement point when the step ahead closes in. Without it such a ship sat out
      -- the game, and the four-way skirmish was drawn.
      if R.movement_available(ctx, p.values) >= 1 then return -5 end
      return (ahead(f) == 1 and steps(G.neighbor(h, f)) >= 2) and 5 or -5
    end
    local nh = G.neighbor(h, id == "forward" and f or a.direction)
    local d1 = steps(nh)
    if d1 < 2 then return -5 end -- keep a hex between: ramming is not a rule
    return 20 * (steps(h) - d1) - 5 * (a.evade or 0) - (id == "slide" and 8 or 0)
  end
  if id == "buy_manoeuvre" then return -5 end
  if id == "transfer" then
    local p = R.piece(ctx, a.ship)
    local comp = p.values.comps[a.comp] ---@type Component
    local room = PW.useful(comp)
    if comp.kind == "beam" then room = math.max(0, comp.level - comp.charge) end
    if room <= 0 then return -5 end
    return 100 + 10 * (POWER_PRIORITY[comp.kind] or 0) + math.min(a.amount, room) - math.max(0, a.amount - room) * 3
  end
  if id == "choose_design" then
    -- Pick once (the best liked design), never again.
    if R.piece(ctx, a.ship).values.design ~= nil then return -30 end
    return 60 + design_value(DESIGNS[a.design]) / 100
  end
  if id == "finish_design" then return 10 end -- after every install or raise worth making
  local advanced = (ctx.options or {}).setup == "advanced"
  if advanced and (id == "install" or id == "adjust") then return toward_liked(ctx, a) end
  if id == "install" then return 50 + (DESIGN_PRIORITY[a.kind] or 0) end
  if id == "adjust" then
    if a.delta < 0 then return -5 end
    local p = R.piece(ctx, a.ship)
    local kind = (a.what == "crew") and "crew" or p.values.comps[a.index].kind
    return 20 + (DESIGN_PRIORITY[kind] or 0)
  end
  if id == "remove" then return -20 end
  if id == "deploy" then
    local target = nearest(a.at, foes)
    local th = target and R.hex_of(target) or { q = 0, r = 0 }
    return 10 - G.distance(a.at, th) - 3 * bearing_off(a.at, a.facing, th)
  end
  if id == "place_anomaly" then return 1 end
  return -1
end

-- Helpers the other bots of this mod reuse (tactics.lua).
M.enemy_ships, M.nearest, M.bearing_off, M.new_way = enemy_ships, nearest, bearing_off, new_way

---Greedy's score of one legal action (higher is better; end_phase scores 0): `foes` from
---M.enemy_ships, `way` from M.new_way.
M.score = score

---A scorer: `fun(ctx, side, a, foes, way): number` (M.score, or one built on it).
---@alias SolarScorer fun(ctx: table, side: string, a: table, foes: table[], way: table): number

---The index in `legal` of the action `scorer` scores best (the first on ties), ending the
---phase when nothing scores above 0 and the rules allow it: greedy's choice with another scorer.
---@param scorer SolarScorer
---@return integer
function M.choose(ctx, side, legal, scorer)
  local foes = enemy_ships(ctx, side)
  local way = new_way(ctx)
  local best, best_score = nil, -math.huge
  local end_index = nil ---@type integer|nil
  local scores = {} ---@type number[]
  for i, a in ipairs(legal) do
    if a.id == "end_phase" then end_index = i end
    local s = scorer(ctx, side, a, foes, way)
    scores[i] = s
    if s > best_score then best, best_score = i, s end
  end
  -- Prefer ending the phase over any action scoring below it, when the rules allow it (the
  -- engine lists end_phase without asking them).
  if end_index and best_score <= 0 and ctx:legal { id = "end_phase", side = side } then
    return end_index
  end
  if best == end_index then
    best, best_score = nil, -math.huge
    for i = 1, #legal do
      local s = scores[i] or -math.huge
      if i ~= end_index and s > best_score then best, best_score = i, s end
    end
  end
  return best or 1
end

---The greedy bot: `game.bots.greedy = M.greedy`.
function M.greedy(ctx, side, legal)
  return M.choose(ctx, side, legal, score)
end

return M
