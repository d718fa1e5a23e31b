-- Solar Flare (draft rules, CC BY-NC-SA; see LICENSE.md and README.md): capital ships with seven
-- sections, power and crew, shields, beams, torpedoes, anomalies and ship design.
--
-- This file only declares: piece types, terrain, the turn structure, actions (choices, check,
-- apply), setup, hooks and victory. Numbers live in data.lua, designs in designs.lua, the pure
-- rules in geom/sectors/design/combat/power.lua and the ctx-level rules in rules.lua.
-- Deliberately absent: any rule number or randomness outside ctx.
local D = require("data")
local G = require("geom")
local PW = require("power")
local R = require("rules")
local PL = require("placement")
local BOT = require("bot")
local DESIGNS = require("designs")

local P = R.param
local X = require("decl")
local action, battle = X.action, X.battle

-- A ship's `design` value names a sample design (designs.lua) the scenario fixes; without it the
-- owner designs the ship in play (setup.lua).
-- How the editor draws a ship: its design's first letters, hull integrity lost over every
-- section as a bar, and markers while it is being designed; a torpedo shows its level.
local function ship_counter(_ctx, p)
  local v = p.values
  local d = v.design and DESIGNS[v.design]
  local whole = D.sections * D.section_integrity
  local left = whole
  if type(v.hull) == "table" then
    left = 0
    for _, h in ipairs(v.hull) do left = left + math.max(0, h) end
  end
  local markers = {}
  if not v.design_final then markers[#markers + 1] = "designing" end
  return {
    label = d and d.name and d.name:sub(1, 3):upper() or (v.design_final and "CAP" or "NEW"),
    factors = "#" .. p.id,
    damage = { whole - math.min(left, whole), whole },
    markers = markers,
  }
end
local function torpedo_counter(_ctx, p)
  return { label = "T" .. (p.values.level or 1), factors = "#" .. p.id }
end
game.piece_type { id = "ship", name = "Capital ship", values = {}, counter = ship_counter }
game.piece_type { id = "torpedo", name = "Torpedo", values = { level = 1, integrity = 1 }, counter = torpedo_counter }

game.terrain { id = "planet", name = "Planet", color = "#c8a060", blocks_movement = true }
game.terrain { id = "moon", name = "Moon", color = "#aaa", blocks_movement = true }
game.terrain { id = "nebula", name = "Nebula", color = "#a6c" }
game.terrain { id = "asteroid", name = "Asteroid field", color = "#864" }

game.turns {
  -- Seating order while the players design their ships; once every design is final the rules
  -- roll for the play order (ctx:roll_order in setup.lua), and play goes round in that order
  -- for the rest of the game.
  order = "hook",
  teams = true,
  phases = {
    { id = "deploy" },
    { id = "weapons" },
    { id = "movement" },
    { id = "power" },
  },
  turn_limit = D.turn_limit,
}

---------------------------------------------------------------------------------------------
-- Deploy phase (setup in play): setup.lua. Weapons phase: fire.lua.
---------------------------------------------------------------------------------------------
local S = require("setup")
local F = require("fire")
local A = require("attack")
local pending, hit_ship = F.pending, F.hit_ship
local owes_anomaly, may_deploy_ship = S.owes_anomaly, S.may_deploy_ship

---------------------------------------------------------------------------------------------
-- Movement phase.
---------------------------------------------------------------------------------------------
local function mover(ctx, a)
  if not battle(ctx) then return nil, "the battle has not begun" end
  local p, why = R.own_ship(ctx, a.side, P(a, "ship"))
  if not p then return nil, why end
  if not R.on_board(p) then return nil, "ship " .. p.id .. " is not on the board" end
  return p
end

-- Enter hex nh (by a forward move or a slide toward absolute direction dir), asteroids attack.
-- `touched`: the components already drawn from by this move (only those are written).
local function enter(ctx, p, s, nh, dir, evade, touched)
  local f = R.facing_of(p)
  R.spend_manoeuvre(ctx, s, evade, touched)
  R.save_comps(ctx, p.id, s, touched)
  R.save_ship(ctx, p.id, s, R.SAVE_BANK)
  ctx:move(p.id, nh, f)
  if R.is_asteroid(R.terrain_map(ctx), nh) then
    local n = R.engine_rating(s) - evade
    if n > 0 then
      hit_ship(ctx, p.id, G.section_of_side(f, dir), ctx:pool(n, D.die_sides, "asteroids"), "asteroids")
    else
      ctx:log("the ship threads the asteroid field unharmed")
    end
  end
end

-- Evasion choices when entering nh: 0.. the attacks, limited by manoeuvre points left after cost.
local function evasions(ctx, s, nh, mn_after)
  if not R.is_asteroid(R.terrain_map(ctx), nh) then return { 0 } end
  local out = {}
  for e = 0, math.min(R.engine_rating(s), math.max(0, mn_after)) do out[#out + 1] = e end
  return out
end

local function check_evade(ctx, s, nh, evade, mn_cost)
  if type(evade) ~= "number" or evade < 0 then return false, "evade must be 0 or more" end
  if evade > 0 and not R.is_asteroid(R.terrain_map(ctx), nh) then return false, "evasion is only for asteroid fields" end
  if evade > R.engine_rating(s) then return false, "more evasion than asteroid attacks" end
  if R.manoeuvre_available(ctx, s) < mn_cost + evade then return false, "not enough manoeuvre points" end
  return true
end

action {
  id = "forward",
  phases = { "movement" },
  params = { ship = "piece", evade = "integer" },
  choices = function(ctx, side)
    local out = {}
    if not battle(ctx) then return out end
    local map, occ = R.terrain_map(ctx), R.occupancy(ctx)
    for _, p in ipairs(R.ships(ctx, side)) do
      if R.on_board(p) and R.movement_available(ctx, p.values) >= 1 then
        local nh = G.neighbor(R.hex_of(p), R.facing_of(p))
        if R.ship_can_enter(ctx, map, occ, nh) then
          for _, e in ipairs(evasions(ctx, p.values, nh, R.manoeuvre_available(ctx, p.values))) do
            out[#out + 1] = { ship = p.id, evade = e }
          end
        end
      end
    end
    return out
  end,
  check = function(ctx, a)
    local p, why = mover(ctx, a)
    if not p then return false, why end
    if R.movement_available(ctx, p.values) < 1 then return false, "no movement points: the main engines are empty" end
    local nh = G.neighbor(R.hex_of(p), R.facing_of(p))
    local ok, why2 = R.ship_can_enter(ctx, R.terrain_map(ctx), R.occupancy(ctx), nh)
    if not ok then return false, why2 end
    return check_evade(ctx, p.values, nh, P(a, "evade") or 0, 0)
  end,
  apply = function(ctx, a)
    local p = ctx:piece(P(a, "ship"))
    local s = p.values
    local touched = {}
    R.spend_movement(ctx, s, 1, touched)
    local f = R.facing_of(p)
    enter(ctx, p, s, G.neighbor(R.hex_of(p), f), f, P(a, "evade") or 0, touched)
  end,
}

action {
  id = "slide",
  phases = { "movement" },
  params = { ship = "piece", direction = "direction", evade = "integer" },
  choices = function(ctx, side)
    local out = {}
    if not battle(ctx) then return out end
    local map, occ = R.terrain_map(ctx), R.occupancy(ctx)
    for _, p in ipairs(R.ships(ctx, side)) do
      local mn = R.manoeuvre_available(ctx, p.values)
      if R.on_board(p) and mn >= 3 then
        for d = 0, 5 do
          local nh = G.neighbor(R.hex_of(p), d)
          if R.ship_can_enter(ctx, map, occ, nh) then
            for _, e in ipairs(evasions(ctx, p.values, nh, mn - 3)) do
              out[#out + 1] = { ship = p.id, direction = d, evade = e }
            end
          end
        end
      end
    end
    return out
  end,
  check = function(ctx, a)
    local p, why = mover(ctx, a)
    if not p then return false, why end
    local d = R.dir(P(a, "direction"))
    if type(d) ~= "number" or d < 0 or d > 5 then return false, "direction must be one of the six" end
    if R.manoeuvre_available(ctx, p.values) < 3 then return false, "a sideways move needs 3 manoeuvre points" end
    local nh = G.neighbor(R.hex_of(p), d)
    local ok, why2 = R.ship_can_enter(ctx, R.terrain_map(ctx), R.occupancy(ctx), nh)
    if not ok then return false, why2 end
    return check_evade(ctx, p.values, nh, P(a, "evade") or 0, 3)
  end,
  apply = function(ctx, a)
    local p = ctx:piece(P(a, "ship"))
    local s = p.values
    local touched = {}
    R.spend_manoeuvre(ctx, s, 3, touched)
    local d = assert(R.dir(P(a, "direction")), "check accepted the direction")
    enter(ctx, p, s, G.neighbor(R.hex_of(p), d), d, P(a, "evade") or 0, touched)
  end,
}

action {
  id = "turn",
  phases = { "movement" },
  params = { ship = "piece", turn = "integer" },
  choices = function(ctx, side)
    local out = {}
    if not battle(ctx) then return out end
    for _, p in ipairs(R.ships(ctx, side)) do
      if R.on_board(p) and R.manoeuvre_available(ctx, p.values) >= 1 then
        out[#out + 1] = { ship = p.id, turn = -1 }
        out[#out + 1] = { ship = p.id, turn = 1 }
      end
    end
    return out
  end,
  check = function(ctx, a)
    local p, why = mover(ctx, a)
    if not p then return false, why end
    local t = P(a, "turn")
    if t ~= 1 and t ~= -1 then return false, "a turn is one hexside left (-1) or right (1)" end
    if R.manoeuvre_available(ctx, p.values) < 1 then return false, "no manoeuvre points: the thrusters are empty" end
    return true
  end,
  apply = function(ctx, a)
    local p = ctx:piece(P(a, "ship"))
    local s = p.values
    local touched = {}
    R.spend_manoeuvre(ctx, s, 1, touched)
    R.save_comps(ctx, p.id, s, touched)
    R.save_ship(ctx, p.id, s, R.SAVE_BANK)
    ctx:move(p.id, R.hex_of(p), G.turn(R.facing_of(p), P(a, "turn")))
  end,
}

action {
  id = "buy_manoeuvre",
  phases = { "movement" },
  params = { ship = "piece" },
  choices = function(ctx, side)
    local out = {}
    if not battle(ctx) then return out end
    for _, p in ipairs(R.ships(ctx, side)) do
      if R.on_board(p) and R.engine_charges(p.values) >= 3 then out[#out + 1] = { ship = p.id } end
    end
    return out
  end,
  check = function(ctx, a)
    local p, why = mover(ctx, a)
    if not p then return false, why end
    if R.engine_charges(p.values) < 3 then return false, "a manoeuvre point costs 3 main engine charges" end
    return true
  end,
  apply = function(ctx, a)
    local p = ctx:piece(P(a, "ship"))
    local s = p.values
    R.bank(ctx, s)
    local touched = {}
    R.drain(s, "engine", 3, touched)
    s.bank_mn = s.bank_mn + 1
    R.save_comps(ctx, p.id, s, touched)
    R.save_ship(ctx, p.id, s, R.SAVE_BANK)
  end,
}

action {
  id = "buy_movement",
  phases = { "movement" },
  params = { ship = "piece" },
  choices = function(ctx, side)
    local out = {}
    if not battle(ctx) then return out end
    for _, p in ipairs(R.ships(ctx, side)) do
      if R.on_board(p) and R.manoeuvre_available(ctx, p.values) >= 3 then out[#out + 1] = { ship = p.id } end
    end
    return out
  end,
  check = function(ctx, a)
    local p, why = mover(ctx, a)
    if not p then return false, why end
    if R.manoeuvre_available(ctx, p.values) < 3 then return false, "a movement point costs 3 manoeuvre points" end
    return true
  end,
  apply = function(ctx, a)
    local p = ctx:piece(P(a, "ship"))
    local s = p.values
    local touched = {}
    R.spend_manoeuvre(ctx, s, 3, touched)
    s.bank_mv = s.bank_mv + 1
    R.save_comps(ctx, p.id, s, touched)
    R.save_ship(ctx, p.id, s, R.SAVE_BANK)
  end,
}

---------------------------------------------------------------------------------------------
-- Power phase: each crew team moves up to its level of power into one component.
---------------------------------------------------------------------------------------------
-- Transfer choices, made once and returned by every listing: ship -> crew -> comp -> amount ->
-- `{ ship, crew, comp, amount }`. Why: a power-phase listing holds a hundred or more of them and
-- is made again after every transfer; building (and collecting) the same small tables each time
-- was most of its cost. Nobody changes a choices table (the engine only reads it).
local TRANSFERS = {}
-- The power a crew team may move into `comp`: the pool and every battery's charge, but a battery
-- does not charge from itself (it may from the others: "the Ship itself, Generators and Batteries").
local function available_for(ctx, s, comp)
  local own = (comp.kind == "battery" and not comp.dead) and comp.charge or 0
  return R.pool(ctx, s) + R.battery_charge(s) - own
end

-- How much of a transfer comes from the batteries is the player's to say ("none, or up to their
-- charge"). A transfer without a `battery` param waits in the `power_pending` global for it
-- (`from_batteries`) whenever more than one split is possible.
local function power_pending(ctx)
  local pp = R.global(ctx, "power_pending", false)
  if not pp or pp.side == nil then return nil end
  return pp
end

---The least and the most of `n` power into `comp` that may come from the batteries.
local function battery_range(ctx, s, comp, n)
  local bat = available_for(ctx, s, comp) - R.pool(ctx, s)
  return math.max(0, n - R.pool(ctx, s)), math.min(n, bat)
end

---Moves `n` power, `from_bat` of it from the batteries, with crew team `ci` into component `ki`.
local function do_transfer(ctx, id, ci, ki, n, from_bat)
  local p = ctx:piece(id)
  local s = p.values
  local cr, comp = s.crew[ci], s.comps[ki]
  R.open_pool(ctx, s)
  s.pool = s.pool - (n - from_bat)
  -- Only the charged component, the batteries drawn from and the crew team change: each is
  -- written alone.
  local touched = { [ki] = true }
  R.drain(s, "battery", from_bat, touched, ki)
  local before_over = comp.over
  local used = PW.charge(comp, n)
  if comp.kind == "beam" and comp.over > before_over then comp.over_round = ctx.round end
  cr.used_round = ctx.round
  comp.charged_round = ctx.round
  R.save_comps(ctx, p.id, s, touched)
  ctx:set(p.id, { "crew", ci }, cr)
  R.save_ship(ctx, p.id, s, R.SAVE_POOL)
  ctx:log(("ship %d: crew %d moves %d power (%d from batteries) into %s %d; %d lost"):format(
    p.id, ci, n, from_bat, comp.kind, ki, n - used))
end

action {
  id = "transfer",
  phases = { "power" },
  params = { ship = "piece", crew = "integer", comp = "integer", amount = "integer", battery = "integer" },
  choices = function(ctx, side)
    local out = {}
    if not battle(ctx) or power_pending(ctx) then return out end
    for _, p in ipairs(R.ships(ctx, side)) do
      if R.on_board(p) then
        local s = p.values ---@type ShipRecord
        -- Why computed once per ship: the power and the room in each component do not depend on
        -- the crew team, and this listing runs on every step of the power phase.
        -- The components with room, in order: (index, room) pairs, so each crew team's loop
        -- visits only those (most of a ship's components are full or already worked on).
        local pool, battery = R.pool(ctx, s), R.battery_charge(s)
        local round, min = ctx.round, math.min
        local open, nopen = {}, 0
        for ki, comp in ipairs(s.comps) do
          if comp.kind ~= "generator" and not comp.dead and comp.charged_round ~= round then
            local avail = pool + battery - ((comp.kind == "battery") and comp.charge or 0)
            local room = min(avail, PW.useful(comp))
            if room > 0 then
              open[nopen + 1], open[nopen + 2] = ki, room
              nopen = nopen + 2
            end
          end
        end
        local by_crew = TRANSFERS[p.id]
        if not by_crew then by_crew = {}; TRANSFERS[p.id] = by_crew end
        local n_out = #out
        for ci, cr in ipairs(s.crew) do
          if cr.used_round ~= round then
            local by_comp = by_crew[ci]
            if not by_comp then by_comp = {}; by_crew[ci] = by_comp end
            local level = cr.level
            for j = 1, nopen, 2 do
              local ki = open[j]
              local top = min(level, open[j + 1])
              if top > 0 then
                local made = by_comp[ki]
                if not made then made = {}; by_comp[ki] = made end
                for n = 1, top do
                  local c = made[n]
                  if not c then c = { ship = p.id, crew = ci, comp = ki, amount = n }; made[n] = c end
                  n_out = n_out + 1
                  out[n_out] = c
                end
              end
            end
          end
        end
      end
    end
    return out
  end,
  check = function(ctx, a)
    local p, why = mover(ctx, a)
    if not p then return false, why end
    local s = p.values
    local cr = s.crew[P(a, "crew")]
    if not cr then return false, "no such crew team" end
    if cr.used_round == ctx.round then return false, "that crew team has already worked this round" end
    local comp = s.comps[P(a, "comp")]
    if not comp then return false, "no such component" end
    if comp.dead then return false, "that component is destroyed" end
    if comp.kind == "generator" then return false, "generators hold no charge" end
    if comp.charged_round == ctx.round then return false, "another crew team has already worked on that component" end
    local n = P(a, "amount")
    if type(n) ~= "number" or n < 1 then return false, "transfer at least 1 power" end
    if n > cr.level then return false, ("a level %d crew team moves at most %d power"):format(cr.level, cr.level) end
    if n > available_for(ctx, s, comp) then return false, "not enough power" end
    if power_pending(ctx) then return false, "say how much power comes from the batteries for the last transfer first" end
    local b = P(a, "battery")
    if b ~= nil then
      local lo, hi = battery_range(ctx, s, comp, n)
      if type(b) ~= "number" or b < lo or b > hi then
        return false, ("%d to %d of that power can come from the batteries"):format(lo, hi)
      end
    end
    return true
  end,
  apply = function(ctx, a)
    local id, ci, ki, n = P(a, "ship"), P(a, "crew"), P(a, "comp"), P(a, "amount")
    local b = P(a, "battery")
    if b == nil then
      local s = ctx:piece(id, { shared = true }).values
      local comp = s.comps[ki]
      local lo, hi = battery_range(ctx, s, comp, n)
      if hi > lo then
        ctx:set_global("power_pending", { side = a.side, ship = id, crew = ci, comp = ki, amount = n, lo = lo, hi = hi })
        ctx:log(("ship %d: crew %d is to move %d power into %s %d; %s says how much comes from the batteries (%d to %d)"):format(
          id, ci, n, comp.kind, ki, a.side, lo, hi))
        return
      end
      b = lo
    end
    do_transfer(ctx, id, ci, ki, n, b)
  end,
}

action {
  id = "from_batteries",
  phases = { "power" },
  params = { battery = "integer" },
  choices = function(ctx, side)
    local pp, out = power_pending(ctx), {}
    if pp and pp.side == side then
      for b = pp.lo, pp.hi do out[#out + 1] = { battery = b } end
    end
    return out
  end,
  check = function(ctx, a)
    local pp = power_pending(ctx)
    if not pp or pp.side ~= a.side then return false, "no transfer waits for its power" end
    local b = P(a, "battery")
    if type(b) ~= "number" or b < pp.lo or b > pp.hi then
      return false, ("%d to %d of that power can come from the batteries"):format(pp.lo, pp.hi)
    end
    return true
  end,
  apply = function(ctx, a)
    local pp = power_pending(ctx)
    ctx:set_global("power_pending", false)
    do_transfer(ctx, pp.ship, pp.crew, pp.comp, pp.amount, P(a, "battery"))
  end,
}

-- Safety net: a transfer still waiting when the power phase ends is dropped (its side can not
-- end the phase while it waits).
game.on("phase_end", { phases = { "power" } }, function(ctx)
  if power_pending(ctx) then ctx:set_global("power_pending", false) end
end)

---------------------------------------------------------------------------------------------
-- Phase ends, hooks, setup, victory.
---------------------------------------------------------------------------------------------
action {
  id = "end_phase",
  -- Why the phases: only these three ever refuse the end of a phase; elsewhere the engine allows
  -- it without calling the check (a ctx and a callback saved on every step of a game).
  phases = { "deploy", "weapons", "power" },
  check = function(ctx, a)
    local side = a.side
    if ctx.phase == "deploy" then
      if not battle(ctx) and #S.open_designs(ctx, side) > 0 then
        return false, "finish your ship design first (finish_design)"
      end
      if owes_anomaly(ctx, side) and #PL.anomaly_choices(ctx, true) > 0 then
        return false, "place an anomaly first"
      end
      if may_deploy_ship(ctx, side) then return false, "place a ship first" end
    elseif ctx.phase == "weapons" then
      local pl = pending(ctx)
      if pl and pl.side == side then return false, "confirm or cancel the declared attack first" end
      local st = A.resolving(ctx)
      if st and st.side == side then
        return false, st.ask == "section" and "choose the section the blast hits first (choose_section)"
          or "choose the order of the dice first (dice_order)"
      end
      for _, t in ipairs(R.torpedoes(ctx, side)) do
        if (t.values.launched_round or ctx.round) < ctx.round then
          return false, ("torpedo %d was fired last round: detonate or disarm it"):format(t.id)
        end
      end
    elseif ctx.phase == "power" then
      local pp = power_pending(ctx)
      if pp and pp.side == side then return false, "say how much power comes from the batteries first (from_batteries)" end
    end
    return true
  end,
}

-- Unused overcharge is lost after the owner's next weapons phase, and an overcharged beam loses
-- a level then, its overcharge fired or not (the damage is the overcharging's).
-- Runs as the movement phase starts, for the sides acting in it.
local function burn_overcharge(ctx)
  for _, side in ipairs(ctx.acting or { ctx.active }) do
    for _, p in ipairs(R.ships(ctx, side)) do
      local s, changed = p.values, false
      for i, c in ipairs(s.comps) do
        if c.kind == "beam" and (c.over_round or 0) > 0 and c.over_round < ctx.round then
          c.over = 0
          c.over_round = 0
          c.level = c.level - 1
          if c.charge > c.level then c.charge = c.level end
          if c.level <= 0 then c.dead = true; c.level = 0; c.charge = 0 end
          changed = true
          ctx:log(("ship %d: overcharged beam %d burns down to level %d"):format(p.id, i, c.level))
        end
      end
      if changed then R.save_ship(ctx, p.id, s, R.SAVE_COMPS) end
    end
  end
end

-- Safety net if the runtime can not refuse end_phase: an undecided attack is cancelled and a
-- torpedo past its second round is disarmed when the weapons phase ends. The engine fires
-- phase_end after the clock moved on: the ended phase is `ev.phase`, and ctx already shows the
-- movement phase of the same turn (same round, same acting sides).
-- Why the overcharge burn is here too: the movement phase starts only right after a weapons
-- phase ends (the engine fires phase_end, then phase_start, with nothing in between), so doing
-- the burn at the end of this hook changes nothing but saves a hook call at every phase start.
-- Filtered: the engine calls it only when a weapons phase ends.
game.on("phase_end", { phases = { "weapons" } }, function(ctx)
  A.finish(ctx)
  local pl = pending(ctx)
  if pl then ctx:set_global("pending", false) end
  R.expire_torpedoes(ctx, (ctx.acting and #ctx.acting > 0) and ctx.acting or { ctx.active })
  if ctx.phase == "movement" then burn_overcharge(ctx) end
end)

game.on("round_start", function(ctx)
  if battle(ctx) then return end
  for _, s in ipairs(ctx:sides()) do
    if #PL.reserve_ships(ctx, s.id) > 0 then return end
  end
  if not PL.all_anomalies_placed(ctx) or not S.designs_done(ctx) then return end
  ctx:set_global("battle", true)
  ctx:log("all ships are placed: the battle begins")
end)

local function alive_teams(ctx)
  local teams, order, has = {}, {}, R.sides_with_ships(ctx)
  for _, s in ipairs(ctx:sides()) do
    if not s.eliminated and has[s.id] then
      local t = R.side_team(s)
      if not teams[t] then teams[t] = {}; order[#order + 1] = t end
      table.insert(teams[t], s.id)
    end
  end
  return teams, order
end


game.setup(function(ctx)
  -- Terrain given by the scenario becomes the anomaly map.
  local map = {}
  for _, h in ipairs(R.board(ctx).hexes) do
    for _, t in ipairs(ctx:terrain(h) or {}) do
      if D.terrain[t] then map[G.key(h)] = t end
    end
  end
  ctx:set_global("terrain", map)
  ctx:set_global("pending", false)
  ctx:set_global("fleet", R.fleet_of(ctx))
  S.setup_ships(ctx)
  local ready = PL.all_anomalies_placed(ctx) and S.designs_done(ctx)
  for _, s in ipairs(ctx:sides()) do
    if #PL.reserve_ships(ctx, s.id) > 0 then ready = false end
  end
  ctx:set_global("battle", ready)
end)

game.victory(R.readonly(function(ctx)
  -- An attack waiting for its attacker's choice is not over: its other hits may still land.
  if A.resolving(ctx) then return nil end
  local _, order = alive_teams(ctx)
  if #order == 1 then
    -- The whole team wins, including members whose own ships are gone.
    local winners = {}
    for _, s in ipairs(ctx:sides()) do
      if R.side_team(s) == order[1] then winners[#winners + 1] = s.id end
    end
    return { winners = winners, reason = "the last fleet with ships" }
  elseif #order == 0 then
    return { winners = {}, reason = "every ship is destroyed" }
  end
  return nil
end))

-- The search bot's heuristic (`--bots mcts`, docs/API.md section 2.10b): how the game stands
-- for `side`, from 0 (lost) to 1 (won): its team's share of the hull integrity left in every
-- section of every ship still in the game (a ship still being designed counts as whole; the
-- last team with ships wins).
game.evaluate = R.readonly(function(ctx, side)
  local team_of = {}
  for _, s in ipairs(ctx:sides()) do team_of[s.id] = R.side_team(s) end
  local whole = D.sections * D.section_integrity
  local mine, all = 0, 0
  for _, p in ipairs(R.ships(ctx)) do
    local left = whole
    local hull = p.values.hull
    if type(hull) == "table" then
      left = 0
      for _, h in ipairs(hull) do left = left + math.max(0, h) end
    end
    all = all + left
    if team_of[p.owner] == team_of[side] then mine = mine + left end
  end
  if all == 0 then return 0.5 end
  return mine / all
end)

-- Bots: `hexforge play mods/solar-flare --bots blue=greedy,red=random` (see bot.lua).
game.bots.greedy = R.readonly(BOT.greedy)
-- The tactical bot (tactics.lua): greedy's play, the facing, power and placement weighed by
-- the fire they trade. `--bots blue=tactical,red=greedy`.
game.bots.tactical = R.readonly(require("tactics").tactical)
