-- The tactical bot for Solar Flare (`game.bots.tactical`): greedy's play (bot.lua), but the
-- facing, the power and the ship placement chosen by the fire they trade.
--
-- greedy turns its bow to the nearest enemy whatever is left of it. In a duel of gun
-- platforms (the Bastion, greedy's pick) that is costly: once the front section's armour is
-- gone, its beam and shield are gone too and every later hit goes straight into the core, yet
-- greedy keeps presenting it. This bot weighs each facing it can reach with its manoeuvre
-- points by what the fire of the next two weapons phases is expected to do:
--   - the enemy's shot that comes next, from where it stands with the beams it has charged in
--     arc now, at the section this facing presents (the enemy names the side at a vertex),
--     with that section's shield as this power phase can raise it;
--   + its own next shot, with every beam this facing brings into arc (at its level: the power
--     phase refills it), at the section the enemy presents now;
-- in expected damage points (`T.harm`: shield 1, armour 1.5, core 3 a point, plus the
-- section's systems when its armour goes and a ship's worth when the core does). While an
-- enemy has a line of attack to it, it stays where it is (moving gains nothing: beams lose no
-- dice with range) and keeps its thrusters for turning; with no line, it closes in as greedy.
-- In the power phase it gives the crew teams to the beam that will be in arc and the shield
-- that will be hit, the pair of teams and amounts best by the same measure (greedy gives its
-- best team to the first beam and the next to the shield with the most room), then follows
-- greedy's order. It places its ship, when the enemy's is on the board, where its first shot
-- does the most against the enemy's first shot at it (out of the enemy's beam arcs, at a weak
-- section, where it can); when it places first, where the worst for it of the places an enemy
-- can take nearest to it trades best (a ship of our design there, facing us).
--
-- Deliberately absent: look-ahead past the next two shots, movement for position (nebulae,
-- cover), overcharging (it costs the beam a level), and coordination between ships of one
-- side (each ship is weighed as if it were the only one). Aiming, torpedoes, the attacker's
-- choices, designs and anomalies are greedy's (scoring aims by expected damage instead made
-- no measurable difference). Deterministic: ties go to the first in list order.
--
-- Example: `game.bots.tactical = R.readonly(require("tactics").tactical)`, then
-- `hexforge play mods/solar-flare --scenario skirmish --bots blue=tactical,red=greedy`.
local D = require("data")
local G = require("geom")
local C = require("combat")
local PW = require("power")
local R = require("rules")
local BOT = require("bot")

local T = {}

-- What a point of damage is worth by layer, a lost system by kind (a level), a lost ship.
local POINT = { shield = 1, armour = 1.5, core = 3 }
local SYSTEM = { beam = 2, shield = 1, thruster = 1.5, engine = 1, torpedo = 1, battery = 0.5, generator = 1 }
local SHIP = 30

-- Binomial probabilities P[m] (m = 0..n) of m successes in n tries at chance p, kept per (n, p).
local BINOM = {}
---@param n integer
---@param p number
---@return number[]
local function binom(n, p)
  local key = n * 100 + math.floor(p * 60 + 0.5)
  local t = BINOM[key]
  if t then return t end
  t = {}
  local c = 1.0 -- n choose m
  for m = 0, n do
    t[m] = c * p ^ m * (1 - p) ^ (n - m)
    c = c * (n - m) / (m + 1)
  end
  BINOM[key] = t
  return t
end

-- The worth of the systems of `s` in outer section `section` (lost when its armour goes).
---@return number
local function systems_in(s, section)
  local v = 0.0
  for _, c in ipairs(s.comps) do
    if c.section == section and not c.dead then v = v + (SYSTEM[c.kind] or 0) * c.level end
  end
  return v
end

-- The worth of `m` points through `layers` (from the first), and of what they destroy.
---@param layers Layer[]
---@param m integer
---@param from integer
---@return number
local function points_worth(s, layers, m, from)
  local v = 0.0
  for i = from, #layers do
    if m <= 0 then break end
    local l = layers[i]
    local take = math.min(m, l.integrity)
    m = m - take
    v = v + take * POINT[l.what]
    if take >= l.integrity then
      if l.what == "armour" then v = v + systems_in(s, l.section) end
      if l.what == "core" then v = v + SHIP end
    end
  end
  return v
end

---The expected harm (in damage points, see POINT, SYSTEM, SHIP) of `n` dice on ship record `s`
---hit in outer section `section`, the dice applied as best for the attacker. Dice below the
---first layer's defence are discarded; the lowest of the rest are spent on it and the others
---go on (armour and core have defence 2, so after a shield of 2 or more every die goes on).
---@param s ShipRecord
---@param section integer
---@param n integer
---@return number
function T.harm(s, section, n)
  if n <= 0 then return 0 end
  local layers = C.ship_layers(s, section)
  local top = assert(layers[1], "the core is always a layer")
  local d1 = top.defence
  local v = 0.0
  if d1 <= 1 then
    -- A shield at 1: every die meets it, the lowest is spent on it and the 1s among the
    -- others are discarded by the armour.
    local first = POINT[top.what]
    local pm = binom(n, (D.die_sides - 1) / D.die_sides)
    for m = 0, n do
      v = v + (pm[m] or 0) * (first + points_worth(s, layers, math.min(m, n - 1), 2))
    end
    return v
  end
  local pm = binom(n, (D.die_sides - math.min(d1, D.die_sides) + 1) / D.die_sides)
  for m = 1, n do v = v + (pm[m] or 0) * points_worth(s, layers, m, 1) end
  return v
end

-- A ship record with the shield of `section` raised as `power` can raise it (partial charge
-- counted), the rest as it is: what the enemy's next shot meets after this power phase.
local function with_shield(s, section, power)
  local si = C.shield_of(s, section)
  if not si or power <= 0 then return s end
  local c = s.comps[si]
  local copy = { kind = c.kind, level = c.level, charge = c.charge, partial = c.partial or 0, over = 0, dead = false }
  PW.charge(copy, power)
  if copy.charge == c.charge then return s end
  local comps = {}
  for i, x in ipairs(s.comps) do comps[i] = x end
  comps[si] = { kind = c.kind, section = c.section, level = c.level, charge = copy.charge, partial = copy.partial }
  return { comps = comps, hull = s.hull }
end

-- The live beams of a record with what each will fire (`charge` now, or its level when the
-- power phase refills it first).
---A beam's shot: its component index, its section and the dice it fires.
---@class SolarShot
---@field index integer
---@field section integer
---@field dice integer

---@return SolarShot[]
local function beams(s, refilled)
  local out = {}
  for wi, c in ipairs(s.comps) do
    if c.kind == "beam" and not c.dead and c.level > 0 then
      local n = refilled and c.level or (c.charge + (c.over or 0))
      if n > 0 then out[#out + 1] = { index = wi, section = c.section, dice = n } end
    end
  end
  return out
end

-- The expected harm of `shooter`'s beams (each beam once, as `dice` says) at `target`, the
-- shooter at `sh` facing `sf`, the target at `th` facing `tf`; `line` is R.line_of_attack's
-- (blocked, nebulae) between the two; `target_rec` the target's record to hit.
---@param shots SolarShot[]
---@param nebulae integer
---@param only? integer
---@return number
local function volley(shots, sh, sf, th, tf, nebulae, target_rec, only)
  local total = 0.0
  local sides = G.entry_sides(sh, th)
  for _, b in ipairs(shots) do
    if (only == nil or only == b.index) and G.in_arc(sh, G.side_of_section(sf, b.section), th) then
      local n, best = b.dice - nebulae, 0.0 ---@type integer, number
      for _, hs in ipairs(sides) do
        local v = T.harm(target_rec, G.section_of_side(tf, hs), n)
        if v > best then best = v end
      end
      total = total + best
    end
  end
  return total
end

-- The shield power this ship can spend on the section it presents after refilling its beams
-- (an estimate for the movement phase: the pool and the batteries less the beams' room, at
-- most its best crew team's level).
---@param s ShipRecord
---@return integer
local function shield_power(ctx, s)
  local power = R.pool(ctx, s) + R.battery_charge(s) ---@type integer
  for _, c in ipairs(s.comps) do
    local room = c.level - c.charge ---@type integer
    if c.kind == "beam" and not c.dead and room > 0 then power = power - room end
  end
  local best = 0 ---@type integer
  for _, cr in ipairs(s.crew) do if cr.level > best then best = cr.level end end
  if power > best then power = best end
  return power > 0 and power or 0
end

---What R.line_of_attack says of a line: blocked, else how many nebula hexes it crosses.
---@class SolarLine
---@field blocked boolean
---@field nebulae integer

---Per-call reading of the battle: the enemy ships on the board with their records, and the
---line of attack between two hexes (blocked, nebulae), kept for the call.
local function new_reading(ctx, side)
  local map, occ = R.terrain_map(ctx), R.occupancy(ctx)
  local foes = {}
  for _, p in ipairs(BOT.enemy_ships(ctx, side)) do foes[#foes + 1] = R.piece(ctx, p.id) end
  local lines = {} ---@type table<string, SolarLine>
  ---@class SolarReading
  ---@field foes Piece[]
  ---@field map table
  ---@field occ table
  ---@field spots table<string, Hex[]>
  local rd = { foes = foes, map = map, occ = occ, spots = {} }
  ---@return SolarLine
  function rd.line(a, b)
    local k = G.key(a) .. ">" .. G.key(b)
    local l = lines[k]
    if not l then
      local blocked, neb = R.line_of_attack(map, occ, a, b, "beam")
      l = { blocked = blocked, nebulae = neb }
      lines[k] = l
    end
    return l
  end
  return rd
end

---What facing `f` of ship `p` is worth (see the header): the enemies' next shots at it taken
---from its own next shots, in expected damage points.
---@param rd SolarReading
---@param f integer
---@return number
local function facing_worth(ctx, rd, p, f)
  local s = p.values ---@type ShipRecord
  local h = assert(R.hex_of(p), "the ship is on the board")
  local mine = beams(s, true)
  local off, def = 0.0, 0.0
  local spare = shield_power(ctx, s)
  -- Each of our beams at the enemy it does most to.
  local best_by_beam = {} ---@type table<integer, number>
  for _, e in ipairs(rd.foes) do
    local eh, ef = R.hex_of(e), R.facing_of(e)
    local l = rd.line(eh, h)
    if not l.blocked then
      -- Their shot: at the section we present, its shield raised by this power phase.
      local theirs = beams(e.values, false)
      local sides = G.entry_sides(eh, h)
      for _, b in ipairs(theirs) do
        if G.in_arc(eh, G.side_of_section(ef, b.section), h) then
          local worst = 0.0
          for _, hs in ipairs(sides) do
            local sec = G.section_of_side(f, hs)
            local v = T.harm(with_shield(s, sec, spare), sec, b.dice - l.nebulae)
            if v > worst then worst = v end
          end
          def = def + worst
        end
      end
      for _, b in ipairs(mine) do
        local v = volley(mine, h, f, eh, ef, l.nebulae, e.values, b.index)
        if v > (best_by_beam[b.index] or 0) then best_by_beam[b.index] = v end
      end
    end
  end
  -- Summed in the beams' order (pairs' order is not the same from one build to the next).
  for _, b in ipairs(mine) do off = off + (best_by_beam[b.index] or 0) end
  return off - def
end

-- Whether ship `p` and an enemy have a line of attack between them (any arcs).
local function engaged(rd, p)
  local h = R.hex_of(p)
  for _, e in ipairs(rd.foes) do
    if not rd.line(R.hex_of(e), h).blocked then return true end
  end
  return false
end

-- Turns (hexsides) from facing a to facing b, the shorter way.
local function turns_between(a, b)
  local d = (b - a) % 6
  return math.min(d, 6 - d)
end

-- The facing ship `p` should turn to this movement phase: the best facing_worth among those
-- its manoeuvre points reach (a hundredth of a point less per turn; the nearest on ties).
local function best_facing(ctx, rd, p)
  local f0 = R.facing_of(p)
  local mn = R.manoeuvre_available(ctx, p.values)
  local best, bv = f0, -math.huge
  for k = 0, 3 do
    for _, dir in ipairs(k == 0 and { 0 } or (k == 3 and { 3 } or { -k, k })) do
      local f = G.turn(f0, dir)
      if k <= mn then
        local v = facing_worth(ctx, rd, p, f) - 0.01 * k
        if v > bv then best, bv = f, v end
      end
    end
  end
  return best
end

-- Power: the beams in arc of an enemy with a line (by component index) and the shields of the
-- sections the enemies' lines enter, for ship `p` as it now stands.
local function hot(rd, p)
  local s, h, f = p.values, R.hex_of(p), R.facing_of(p)
  local hot_beams, hot_shields = {}, {}
  for _, e in ipairs(rd.foes) do
    local eh = R.hex_of(e)
    if not rd.line(eh, h).blocked then
      for wi, c in ipairs(s.comps) do
        if c.kind == "beam" and not c.dead and G.in_arc(h, G.side_of_section(f, c.section), eh) then
          hot_beams[wi] = true
        end
      end
      for _, hs in ipairs(G.entry_sides(eh, h)) do
        local si = C.shield_of(s, G.section_of_side(f, hs))
        if si then hot_shields[si] = true end
      end
    end
  end
  return hot_beams, hot_shields
end

-- What the next exchange is worth to ship `p` with its components' charges as `s` has them:
-- its shots (charged beams in arc, at the enemy's current section) less the enemies'.
local function exchange(rd, p, s)
  local h, f = R.hex_of(p), R.facing_of(p)
  local mine = beams(s, false)
  local v = 0.0
  for _, e in ipairs(rd.foes) do
    local eh, ef = R.hex_of(e), R.facing_of(e)
    local l = rd.line(eh, h)
    if not l.blocked then
      v = v + volley(mine, h, f, eh, ef, l.nebulae, e.values)
      v = v - volley(beams(e.values, false), eh, ef, h, f, l.nebulae, s)
    end
  end
  return v
end

-- A copy of record `s` with `amount` power moved into component `ki` (PW.charge's rule).
local function charged(s, ki, amount)
  local comps = {}
  for i, c in ipairs(s.comps) do comps[i] = c end
  local c = s.comps[ki]
  local copy = { kind = c.kind, section = c.section, level = c.level, charge = c.charge, partial = c.partial or 0, over = c.over or 0, dead = c.dead }
  -- A beam is filled, never overcharged, by this bot.
  if c.kind == "beam" then amount = math.min(amount, c.level - c.charge) end
  PW.charge(copy, amount)
  comps[ki] = copy
  return { comps = comps, hull = s.hull, crew = s.crew }
end

-- The crew plan of ship `p` for this power phase: which free team moves how much into the hot
-- beam and the hot shield (at most one each, the pair best by `exchange`), as a list of
-- { crew, comp, amount }; empty when there is nothing hot to charge.
local function power_plan(ctx, rd, p)
  local s = p.values
  local hb, hs = hot(rd, p)
  local round = ctx.round
  local open = {} ---@type integer[]
  for ki, c in ipairs(s.comps) do
    if (hb[ki] or hs[ki]) and not c.dead and c.charged_round ~= round and PW.useful(c) > 0
      and (c.kind ~= "beam" or c.charge < c.level) then
      open[#open + 1] = ki
    end
  end
  if #open == 0 then return {} end
  local free = {} ---@type integer[]
  for ci, cr in ipairs(s.crew) do if cr.used_round ~= round then free[#free + 1] = ci end end
  local power = R.pool(ctx, s) + R.battery_charge(s)
  local best, bv = {}, exchange(rd, p, s)
  -- One or two transfers: component a by team i, then component b by team j.
  for ai, a in ipairs(open) do
    for _, i in ipairs(free) do
      local na = math.min(s.crew[i].level, power, PW.useful(s.comps[a]))
      if na > 0 then
        local s1 = charged(s, a, na)
        local v1 = exchange(rd, p, s1)
        if v1 > bv + 1e-9 then best, bv = { { crew = i, comp = a, amount = na } }, v1 end
        for bi, b in ipairs(open) do
          if bi ~= ai then
            for _, j in ipairs(free) do
              local nb = math.min(s.crew[j].level, power - na, PW.useful(s.comps[b]))
              if j ~= i and nb > 0 then
                local v2 = exchange(rd, p, charged(s1, b, nb))
                if v2 > bv + 1e-9 then
                  best, bv = { { crew = i, comp = a, amount = na }, { crew = j, comp = b, amount = nb } }, v2
                end
              end
            end
          end
        end
      end
    end
  end
  return best
end

-- Deploying -------------------------------------------------------------------------------------

-- Where an enemy could be placed nearest to our ship were it at `at`: the board hexes outside
-- every sector of `at`, free of anomalies and ships, at the least distance from `at` (kept per
-- hex for the call in `cache`).
local function nearest_enemy_spots(ctx, map, occ, at, cache)
  local ck = G.key(at)
  if cache[ck] then return cache[ck] end
  local b = R.board(ctx)
  local mine = {}
  for _, s in ipairs(b.sectors[G.key(at)] or {}) do mine[s] = true end
  local best, out = math.huge, {}
  for _, h in ipairs(b.hexes) do
    local k = G.key(h)
    if not map[k] and not (occ[k] and occ[k].ship) and not G.eq(h, at) then
      local inside = false
      for _, s in ipairs(b.sectors[k] or {}) do if mine[s] then inside = true end end
      if not inside then
        local d = G.distance(h, at)
        if d < best then best, out = d, { h } elseif d == best then out[#out + 1] = h end
      end
    end
  end
  cache[ck] = out
  return out
end

-- What placing ship `p` at `at` facing `f` is worth: with an enemy ship on the board, our
-- first shot (beams at their level) at the section it presents less its first shot at ours;
-- without, the same against an enemy placed where it can be nearest, facing us with its
-- record taken as ours (the worst such spot).
local function deploy_worth(ctx, rd, p, at, f)
  local s = p.values
  local v, any = 0.0, false
  local mine = beams(s, true)
  for _, e in ipairs(rd.foes) do
    local eh, ef = R.hex_of(e), R.facing_of(e)
    local l = rd.line(eh, at)
    if not l.blocked then
      any = true
      v = v + volley(mine, at, f, eh, ef, l.nebulae, e.values)
      v = v - volley(beams(e.values, true), eh, ef, at, f, l.nebulae, s)
    end
  end
  if any or #rd.foes > 0 then return v end
  local worst = nil ---@type number|nil
  for _, eh in ipairs(nearest_enemy_spots(ctx, rd.map, rd.occ, at, rd.spots)) do
    local l = rd.line(eh, at)
    if not l.blocked then
      local ef = 0
      for d = 0, 5 do if G.in_arc(eh, d, at) then ef = d; break end end
      local x = volley(mine, at, f, eh, ef, l.nebulae, s) - volley(mine, eh, ef, at, f, l.nebulae, s)
      if worst == nil or x < worst then worst = x end
    end
  end
  return worst or 0
end

-- The scorer ---------------------------------------------------------------------------------

---The tactical bot's scorer for one bot call: greedy's scores (bot.score) but for facing,
---movement while engaged, power to the hot beam and shield, and placement.
---@return SolarScorer
local function scorer(ctx, side)
  local rd = new_reading(ctx, side)
  local facing_of_ship, plan_of_ship, deploys = {}, {}, nil ---@type table<integer, integer>, table<integer, table>, table|nil
  return function(c, sd, a, foes, way)
    local id = a.id
    if id == "turn" or id == "forward" or id == "slide" or id == "buy_movement" or id == "buy_manoeuvre" then
      local p = R.piece(ctx, a.ship)
      if #rd.foes == 0 or not engaged(rd, p) then return BOT.score(c, sd, a, foes, way) end
      if id ~= "turn" then return -5 end
      local want = facing_of_ship[p.id]
      if want == nil then want = best_facing(ctx, rd, p); facing_of_ship[p.id] = want end
      local f = R.facing_of(p)
      if turns_between(G.turn(f, a.turn), want) < turns_between(f, want) then return 60 end
      return -5
    end
    if id == "transfer" then
      local p = R.piece(ctx, a.ship)
      local plan = plan_of_ship[p.id]
      if plan == nil then plan = power_plan(ctx, rd, p); plan_of_ship[p.id] = plan end
      for k, step in ipairs(plan) do
        if step.crew == a.crew and step.comp == a.comp and step.amount == a.amount then return 300 - k end
      end
      -- Another team into a planned component or a planned team elsewhere waits for the plan.
      for _, step in ipairs(plan) do
        if step.crew == a.crew or step.comp == a.comp then return -5 end
      end
      return BOT.score(c, sd, a, foes, way)
    end
    if id == "deploy" then
      local p = R.piece(ctx, a.ship)
      if deploys == nil then deploys = {} end
      local k = G.key(a.at) .. "/" .. a.facing
      local v = deploys[k]
      if v == nil then
        v = deploy_worth(ctx, rd, p, a.at, a.facing)
        deploys[k] = v
      end
      -- Greedy's score breaks ties (near the enemy or the centre, facing it).
      return 100 + v + BOT.score(c, sd, a, foes, way) / 1000
    end
    return BOT.score(c, sd, a, foes, way)
  end
end

---The tactical bot: `game.bots.tactical = R.readonly(T.tactical)`.
function T.tactical(ctx, side, legal)
  return BOT.choose(ctx, side, legal, scorer(ctx, side))
end

return T
