-- Solar Flare (draft rules, CC BY-NC-SA; see LICENSE.md and README.md): capital ships with seven
-- sections, power and crew, shields, beams, torpedoes, anomalies and ship design.
--
-- This file only declares: piece types, terrain, the turn structure, actions (choices, check,
-- apply), setup, hooks and victory. Numbers live in data.lua, designs in designs.lua, the pure
-- rules in geom/sectors/design/combat/power.lua and the ctx-level rules in rules.lua.
-- Deliberately absent: any rule number or randomness outside ctx.
local D = require("data")
local G = require("geom")
local DES = require("design")
local C = require("combat")
local PW = require("power")
local R = require("rules")
local BOT = require("bot")

local P = R.param

-- Every action's choices and check run read-only: their ctx memoises snapshots (R.readonly).
-- Every apply ends by eliminating the sides it left without ships (R.after_apply). Why not an
-- after_action hook: only an apply destroys ships, and a hook is a callback (a ctx built, a
-- light read of every ship) after every one of a game's ~700 actions, end_phase included.
-- The tail call keeps the declaration's own file:line for the engine's messages.
local function action(decl)
  if decl.choices then decl.choices = R.readonly(decl.choices) end
  if decl.check then decl.check = R.readonly(decl.check) end
  local apply = decl.apply
  if apply then
    decl.apply = function(ctx, a)
      local ok, why = apply(ctx, a)
      R.after_apply(ctx)
      return ok, why
    end
  end
  return game.action(decl)
end

game.piece_type { id = "ship", name = "Capital ship", values = { design = "lancer" } }
game.piece_type { id = "torpedo", name = "Torpedo", values = { level = 1, integrity = 1 } }

game.terrain { id = "planet", name = "Planet", color = "#7a5", blocks_movement = true }
game.terrain { id = "moon", name = "Moon", color = "#aaa", blocks_movement = true }
game.terrain { id = "nebula", name = "Nebula", color = "#a6c" }
game.terrain { id = "asteroid", name = "Asteroid field", color = "#864" }

game.turns {
  order = "rolled",
  die = "1d6",
  -- The document rolls once for the play order, then play goes round in that order all game.
  every_round = false,
  teams = true,
  phases = {
    { id = "deploy" },
    { id = "weapons" },
    { id = "movement" },
    { id = "power" },
  },
  turn_limit = D.turn_limit,
}

local function battle(ctx) return R.global(ctx, "battle", false) end
local function acting(ctx, side)
  for _, s in ipairs(ctx.acting or {}) do if s == side then return true end end
  return ctx.active == side
end

---------------------------------------------------------------------------------------------
-- Deploy phase: anomalies one per turn, then ships one per turn; design changes before a ship
-- is placed (standard and advanced setup).
---------------------------------------------------------------------------------------------
local function owes_anomaly(ctx, side)
  if battle(ctx) then return false end
  local s = ctx:side(side)
  return (s.values.anomalies_left or 0) > 0 and (s.values.anomaly_round or 0) ~= ctx.round
end

local function may_deploy_ship(ctx, side)
  if battle(ctx) then return false end
  local s = ctx:side(side)
  if (s.values.ship_round or 0) == ctx.round then return false end
  if #R.reserve_ships(ctx, side) == 0 then return false end
  return R.all_anomalies_placed(ctx)
end

action {
  id = "place_anomaly",
  phases = { "deploy" },
  params = { kind = "string", at = "hex" },
  choices = function(ctx, side)
    if not owes_anomaly(ctx, side) then return {} end
    return R.anomaly_choices(ctx)
  end,
  check = function(ctx, a)
    if not owes_anomaly(ctx, a.side) then return false, "you have no anomaly to place this turn" end
    local at = P(a, "at")
    if type(at) ~= "table" then return false, "where?" end
    return R.anomaly_ok(ctx, R.terrain_map(ctx), R.occupancy(ctx), P(a, "kind"), at)
  end,
  apply = function(ctx, a)
    local kind, at = P(a, "kind"), P(a, "at")
    local map = R.terrain_map(ctx)
    local t = D.anomalies[kind].terrain
    for _, h in ipairs(R.anomaly_hexes(kind, at)) do
      map[G.key(h)] = t
      ctx:set_terrain(h, { t })
    end
    ctx:set_global("terrain", map)
    local used = R.global(ctx, "anomalies_used", {})
    used[kind] = (used[kind] or 0) + 1
    ctx:set_global("anomalies_used", used)
    local s = ctx:side(a.side)
    ctx:set_side(a.side, "anomalies_left", (s.values.anomalies_left or 0) - 1)
    ctx:set_side(a.side, "anomaly_round", ctx.round)
    ctx:log(("%s places a %s at %s"):format(a.side, kind, G.key(at)))
  end,
}

-- Deploy choices made once: ship id -> board hex -> its six choices (see TRANSFERS).
local DEPLOYS = {}

action {
  id = "deploy",
  phases = { "deploy" },
  params = { ship = "piece", at = "hex", facing = "direction" },
  choices = function(ctx, side)
    if not may_deploy_ship(ctx, side) then return {} end
    local p = R.reserve_ships(ctx, side)[1]
    local map, occ, out = R.terrain_map(ctx), R.occupancy(ctx), {}
    local ships = R.ship_spots(ctx)
    -- Choices made once (see TRANSFERS): ship -> board hex (the board's own table) -> list.
    local made = DEPLOYS[p.id]
    if not made then made = setmetatable({}, { __mode = "k" }); DEPLOYS[p.id] = made end
    for _, h in ipairs(R.board(ctx).hexes) do
      if R.deploy_ok(ctx, side, map, occ, h, ships) then
        local six = made[h]
        if not six then
          six = {}
          for f = 0, 5 do six[f + 1] = { ship = p.id, at = h, facing = f } end
          made[h] = six
        end
        for f = 1, 6 do out[#out + 1] = six[f] end
      end
    end
    return out
  end,
  check = function(ctx, a)
    local p, why = R.own_ship(ctx, a.side, P(a, "ship"))
    if not p then return false, why end
    if R.on_board(p) then return false, "ship " .. p.id .. " is already on the board" end
    if not may_deploy_ship(ctx, a.side) then return false, "you can not place a ship now" end
    local f = R.dir(P(a, "facing"))
    if type(f) ~= "number" or f < 0 or f > 5 then return false, "facing must be one of the six directions" end
    local at = P(a, "at")
    if type(at) ~= "table" then return false, "where?" end
    return R.deploy_ok(ctx, a.side, R.terrain_map(ctx), R.occupancy(ctx), at)
  end,
  apply = function(ctx, a)
    local id, at, f = P(a, "ship"), P(a, "at"), R.dir(P(a, "facing"))
    ctx:place(id, { q = at.q, r = at.r })
    ctx:move(id, { q = at.q, r = at.r }, f)
    ctx:set_side(a.side, "ship_round", ctx.round)
    ctx:log(("%s places ship %d at %s facing %s"):format(a.side, id, G.key(at), G.NAMES[f]))
  end,
}

-- Design changes (standard: levels +-1 of existing systems; advanced: also install/remove).
local function setup_mode(ctx) return (ctx.options or {}).setup or "quick" end

local function design_ship(ctx, side, id)
  if battle(ctx) then return nil, "the battle has begun" end
  local mode = setup_mode(ctx)
  if mode == "quick" then return nil, "the quick setup uses the designs as they are" end
  local p, why = R.own_ship(ctx, side, id)
  if not p then return nil, why end
  if R.on_board(p) then return nil, "ship " .. p.id .. " is already placed" end
  return p
end

local function try_level(s, what, index, delta)
  local d = DES.of_ship(s)
  local list = (what == "crew") and d.crew or d.components
  local item = list[index]
  if item == nil then return false, "no such " .. what end
  if what == "crew" then
    if list[index] + delta < 1 then return false, "a system can not go below level 1" end
    if list[index] + delta > D.max_level then return false, "level " .. D.max_level .. " is the highest" end
    list[index] = list[index] + delta
  else
    if item.level + delta < 1 then return false, "a system can not go below level 1" end
    if item.level + delta > D.max_level then return false, "level " .. D.max_level .. " is the highest" end
    item.level = item.level + delta
  end
  local ok, problems = DES.validate(d)
  if not ok then return false, problems[1] end
  return true
end

action {
  id = "adjust",
  phases = { "deploy" },
  params = { ship = "piece", what = "string", index = "integer", delta = "integer" },
  choices = function(ctx, side)
    local out = {}
    if battle(ctx) or setup_mode(ctx) == "quick" then return out end
    for _, p in ipairs(R.reserve_ships(ctx, side)) do
      local s = p.values
      for _, what in ipairs({ "component", "crew" }) do
        local list = (what == "crew") and s.crew or s.comps
        for i = 1, #list do
          for _, delta in ipairs({ 1, -1 }) do
            if try_level(s, what, i, delta) then out[#out + 1] = { ship = p.id, what = what, index = i, delta = delta } end
          end
        end
      end
    end
    return out
  end,
  check = function(ctx, a)
    local p, why = design_ship(ctx, a.side, P(a, "ship"))
    if not p then return false, why end
    local delta = P(a, "delta")
    if delta ~= 1 and delta ~= -1 then return false, "levels change one at a time" end
    return try_level(p.values, P(a, "what"), P(a, "index"), delta)
  end,
  apply = function(ctx, a)
    local p = ctx:piece(P(a, "ship"))
    local s = p.values
    local what, i, delta = P(a, "what"), P(a, "index"), P(a, "delta")
    local item = (what == "crew") and s.crew[i] or s.comps[i]
    item.level = item.level + delta
    if what ~= "crew" then item.charge = PW.capacity(item); item.partial = 0 end
    R.save_ship(ctx, p.id, s)
  end,
}

action {
  id = "install",
  phases = { "deploy" },
  params = { ship = "piece", kind = "string", section = "integer" },
  choices = function(ctx, side)
    local out = {}
    if battle(ctx) or setup_mode(ctx) ~= "advanced" then return out end
    for _, p in ipairs(R.reserve_ships(ctx, side)) do
      local d = DES.of_ship(p.values)
      for _, kind in ipairs(D.component_kinds) do
        for sec = 1, D.sections do
          d.components[#d.components + 1] = { kind = kind, section = sec, level = 1 }
          if DES.validate(d) then out[#out + 1] = { ship = p.id, kind = kind, section = sec } end
          d.components[#d.components] = nil
        end
      end
      d.crew[#d.crew + 1] = 1
      if DES.validate(d) then out[#out + 1] = { ship = p.id, kind = "crew", section = 0 } end
    end
    return out
  end,
  check = function(ctx, a)
    if setup_mode(ctx) ~= "advanced" then return false, "only the advanced setup designs ships from scratch" end
    local p, why = design_ship(ctx, a.side, P(a, "ship"))
    if not p then return false, why end
    local d = DES.of_ship(p.values)
    local kind = P(a, "kind")
    if kind == "crew" then d.crew[#d.crew + 1] = 1
    else d.components[#d.components + 1] = { kind = kind, section = P(a, "section"), level = 1 } end
    local ok, problems = DES.validate(d)
    if not ok then return false, problems[1] end
    return true
  end,
  apply = function(ctx, a)
    local p = ctx:piece(P(a, "ship"))
    local s = p.values
    local kind = P(a, "kind")
    if kind == "crew" then s.crew[#s.crew + 1] = { level = 1, used_round = 0 }
    else
      local comp = { kind = kind, section = P(a, "section"), level = 1, charge = 0, partial = 0, over = 0, over_round = 0, fired_round = 0, charged_round = 0, dead = false }
      comp.charge = PW.capacity(comp)
      s.comps[#s.comps + 1] = comp
    end
    R.save_ship(ctx, p.id, s)
  end,
}

action {
  id = "remove",
  phases = { "deploy" },
  params = { ship = "piece", what = "string", index = "integer" },
  choices = function(ctx, side)
    local out = {}
    if battle(ctx) or setup_mode(ctx) ~= "advanced" then return out end
    for _, p in ipairs(R.reserve_ships(ctx, side)) do
      for i = 1, #p.values.comps do out[#out + 1] = { ship = p.id, what = "component", index = i } end
      for i = 1, #p.values.crew do out[#out + 1] = { ship = p.id, what = "crew", index = i } end
    end
    return out
  end,
  check = function(ctx, a)
    if setup_mode(ctx) ~= "advanced" then return false, "only the advanced setup removes systems" end
    local p, why = design_ship(ctx, a.side, P(a, "ship"))
    if not p then return false, why end
    local list = (P(a, "what") == "crew") and p.values.crew or p.values.comps
    if list[P(a, "index")] == nil then return false, "nothing to remove there" end
    return true
  end,
  apply = function(ctx, a)
    local p = ctx:piece(P(a, "ship"))
    local s = p.values
    local list = (P(a, "what") == "crew") and s.crew or s.comps
    table.remove(list, P(a, "index"))
    R.save_ship(ctx, p.id, s)
  end,
}

---------------------------------------------------------------------------------------------
-- Weapons phase: beams (aim, then confirm or cancel), torpedoes (launch, steer, detonate, disarm).
---------------------------------------------------------------------------------------------
local function pending(ctx)
  local p = R.global(ctx, "pending", false)
  if p == false or p == nil or p.side == nil then return nil end
  return p
end

---Every legal aim for a ship: beam, target, hit hexside and strength.
local function beam_aims(ctx, p, map, occ, only)
  local out = {}
  local s = p.values
  local h, f = R.hex_of(p), R.facing_of(p)
  if not h then return out end
  local targets = {}
  for _, t in ipairs(R.board_pieces(ctx)) do
    if t.id ~= p.id and not (R.type_of(t) == "ship" and not R.enemies(ctx, p.owner, t.owner)) then
      targets[#targets + 1] = t
    end
  end
  for wi, c in ipairs(s.comps) do
    if c.kind == "beam" and not c.dead and c.charge + c.over > 0 and c.fired_round ~= ctx.round and (only == nil or only == wi) then
      local side_dir = G.side_of_section(f, c.section)
      for _, t in ipairs(targets) do
        local th = R.hex_of(t)
        if G.in_arc(h, side_dir, th) then
          local blocked, neb = R.line_of_attack(map, occ, h, th, "beam")
          if not blocked then
            local sides = (R.type_of(t) == "ship") and G.entry_sides(h, th) or { -1 }
            for _, hs in ipairs(sides) do
              for n = 1, c.charge + c.over do
                out[#out + 1] = { ship = p.id, weapon = wi, target = t.id, hexside = hs, strength = n, nebulae = neb }
              end
            end
          end
        end
      end
    end
  end
  return out
end

local function weapons_open(ctx, side)
  return battle(ctx) and acting(ctx, side)
end

action {
  id = "aim",
  phases = { "weapons" },
  params = { ship = "piece", weapon = "integer", target = "piece", hexside = "integer", strength = "integer" },
  choices = function(ctx, side)
    if not weapons_open(ctx, side) or pending(ctx) then return {} end
    local map, occ, out = R.terrain_map(ctx), R.occupancy(ctx), {}
    for _, p in ipairs(R.ships(ctx, side)) do
      for _, c in ipairs(beam_aims(ctx, p, map, occ)) do
        c.nebulae = nil
        out[#out + 1] = c
      end
    end
    return out
  end,
  check = function(ctx, a)
    if not battle(ctx) then return false, "the battle has not begun" end
    if pending(ctx) then return false, "confirm or cancel the attack already declared" end
    local p, why = R.own_ship(ctx, a.side, P(a, "ship"))
    if not p then return false, why end
    if not R.on_board(p) then return false, "ship " .. p.id .. " is not on the board" end
    local wi = P(a, "weapon")
    local c = p.values.comps[wi]
    if not c or c.kind ~= "beam" then return false, "weapon " .. tostring(wi) .. " is not a beam weapon" end
    if c.dead then return false, "that beam weapon is destroyed" end
    if c.fired_round == ctx.round then return false, "that beam weapon has already fired this round" end
    local n = P(a, "strength")
    if type(n) ~= "number" or n < 1 then return false, "an attack uses at least 1 charge" end
    if n > c.charge + c.over then return false, ("the beam holds only %d charges"):format(c.charge + c.over) end
    local t = ctx:piece(P(a, "target"))
    if not t or not R.on_board(t) then return false, "no such target" end
    if R.type_of(t) == "ship" and not R.enemies(ctx, a.side, t.owner) then return false, "that ship is not an enemy" end
    local h, th = R.hex_of(p), R.hex_of(t)
    if not G.in_arc(h, G.side_of_section(R.facing_of(p), c.section), th) then
      return false, "the target is outside the weapon's arc of fire"
    end
    local blocked = R.line_of_attack(R.terrain_map(ctx), R.occupancy(ctx), h, th, "beam")
    if blocked then return false, "the line of attack is blocked" end
    if R.type_of(t) == "ship" then
      local hs, okside = P(a, "hexside"), false
      for _, x in ipairs(G.entry_sides(h, th)) do if x == hs then okside = true end end
      if not okside then return false, "the line of attack does not enter the target through that hexside" end
    end
    return true
  end,
  apply = function(ctx, a)
    -- Light reads: aiming needs where the two pieces are, not the ship records.
    local p, t = R.spots(ctx, P(a, "ship"), P(a, "target"))
    local _, neb = R.line_of_attack(R.terrain_map(ctx), R.occupancy(ctx), R.hex_of(p), R.hex_of(t), "beam")
    local n = P(a, "strength")
    local plan = { side = a.side, ship = p.id, weapon = P(a, "weapon"), target = t.id, hexside = P(a, "hexside") or -1, strength = n, nebulae = neb, dice = math.max(0, n - neb) }
    if R.type_of(t) == "ship" then plan.section = G.section_of_side(R.facing_of(t), plan.hexside) end
    ctx:set_global("pending", plan)
    ctx:log(("%s aims beam %d of ship %d at %s %d: strength %d, %d nebula hexes, %d dice%s"):format(
      a.side, plan.weapon, p.id, R.type_of(t), t.id, n, neb, plan.dice,
      plan.section and (", section " .. plan.section) or ""))
  end,
}

action {
  id = "cancel",
  phases = { "weapons" },
  params = {},
  choices = function(ctx, side)
    local pl = pending(ctx)
    if pl and pl.side == side then return { {} } end
    return {}
  end,
  check = function(ctx, a)
    local pl = pending(ctx)
    if not pl or pl.side ~= a.side then return false, "no attack is declared" end
    return true
  end,
  apply = function(ctx, a)
    ctx:set_global("pending", false)
    ctx:log(a.side .. " cancels the attack")
  end,
}

local detonate -- forward declaration

---Resolve dice on a ship piece hit in a section; destroys it at core 0. `p` is the ship's
---snapshot when the caller has just read it (else it is read here).
local function hit_ship(ctx, id, section, dice, what, p)
  p = p or ctx:piece(id)
  if not p then return end
  local s = p.values
  local out = C.damage_ship(s, section, dice)
  -- Why not always both: each ctx:set of a list converts the whole list; what did not change
  -- (or a ship about to be destroyed) needs no write.
  if not out.destroyed then
    local what = R.SAVE_NOTHING
    if out.comps_changed then what = R.SAVE_DAMAGE elseif out.hull_changed then what = R.SAVE_HULL end
    R.save_ship(ctx, id, s, what)
  end
  ctx:log(("%s hits ship %d in section %d: dice %s -> %s"):format(what, id, section, table.concat(dice, " "), out.text))
  if out.destroyed then
    R.destroy_ship(ctx, id)
    ctx:log(("ship %d is destroyed"):format(id))
  end
end

---Resolve dice on a torpedo; at 0 integrity it detonates.
local function hit_torpedo(ctx, id, dice, what, queue)
  local t = ctx:piece(id)
  if not t then return end
  local left = C.damage_torpedo(t.values.integrity or D.torpedo.integrity, dice)
  ctx:log(("%s hits torpedo %d: dice %s"):format(what, id, table.concat(dice, " ")))
  if left <= 0 then
    ctx:set(id, "integrity", 0)
    if queue then queue[#queue + 1] = id else detonate(ctx, id) end
  end
end

action {
  id = "confirm",
  phases = { "weapons" },
  params = {},
  choices = function(ctx, side)
    local pl = pending(ctx)
    if pl and pl.side == side then return { {} } end
    return {}
  end,
  check = function(ctx, a)
    local pl = pending(ctx)
    if not pl or pl.side ~= a.side then return false, "no attack is declared" end
    return true
  end,
  apply = function(ctx, a)
    local pl = pending(ctx)
    ctx:set_global("pending", false)
    local p = ctx:piece(pl.ship)
    local s = p.values
    local c = s.comps[pl.weapon]
    local from_over = math.min(c.over, pl.strength)
    c.over = c.over - from_over
    c.charge = c.charge - (pl.strength - from_over)
    c.fired_round = ctx.round
    R.save_ship(ctx, p.id, s, R.SAVE_COMPS)
    if pl.dice <= 0 then
      ctx:log("the nebulae absorb the whole beam")
      return
    end
    local dice = ctx:pool(pl.dice, D.die_sides, "beam damage")
    local t = ctx:piece(pl.target)
    if R.type_of(t) == "ship" then hit_ship(ctx, t.id, pl.section, dice, "beam", t)
    else hit_torpedo(ctx, t.id, dice, "beam") end
  end,
}

---Detonate torpedo `id` and every torpedo its blast (or a chain of blasts) destroys.
detonate = function(ctx, id)
  local queue, done = { id }, {}
  local qi = 1
  while qi <= #queue do
    local tid = queue[qi]
    qi = qi + 1
    local t = ctx:piece(tid)
    if t and not done[tid] then
      done[tid] = true
      local centre, level = R.hex_of(t), t.values.level
      local from = t.values.from
      ctx:destroy(tid)
      ctx:log(("torpedo %d detonates at %s with strength %d"):format(tid, G.key(centre), level))
      local map = R.terrain_map(ctx)
      local victims = {}
      for _, v in ipairs(ctx:pieces { fields = { "id", "hex" } }) do
        local vh = R.hex_of(v)
        if vh and not done[v.id] then
          local dist = G.distance(centre, vh)
          if level - dist > 0 then victims[#victims + 1] = { id = v.id, dist = dist, hex = vh } end
        end
      end
      table.sort(victims, function(x, y) return x.id < y.id end)
      for _, v in ipairs(victims) do
        local vp = ctx:piece(v.id)
        if vp and (v.dist == 0 or not R.line_of_attack(map, {}, centre, v.hex, "blast")) then
          local dice = ctx:pool(level - v.dist, D.die_sides, "blast damage")
          if R.type_of(vp) == "ship" then
            local section
            if v.dist == 0 then
              section = G.section_of_side(R.facing_of(vp), from or 0)
            else
              -- At a vertex the attacker picks: the section with the weakest first defence.
              local best, score = nil, nil
              for _, hs in ipairs(G.entry_sides(centre, v.hex)) do
                local sec = G.section_of_side(R.facing_of(vp), hs)
                local l = C.ship_layers(vp.values, sec)[1]
                local sc = l.defence * 100 + l.integrity
                if score == nil or sc < score then best, score = sec, sc end
              end
              section = best
            end
            hit_ship(ctx, v.id, section, dice, "blast", vp)
          else
            hit_torpedo(ctx, v.id, dice, "blast", queue)
          end
        end
      end
    end
  end
end

local function torpedo_points(ctx, t)
  local v = t.values
  if v.mp_round ~= ctx.round then return D.torpedo.movement, D.torpedo.max_turns end
  return v.mp, v.turns
end

local function launch_hex(p, c)
  return G.neighbor(R.hex_of(p), G.side_of_section(R.facing_of(p), c.section)), G.side_of_section(R.facing_of(p), c.section)
end

local function launch_check(ctx, a)
  if not battle(ctx) then return false, "the battle has not begun" end
  if pending(ctx) then return false, "confirm or cancel the attack already declared" end
  local p, why = R.own_ship(ctx, a.side, P(a, "ship"))
  if not p then return false, why end
  if not R.on_board(p) then return false, "ship " .. p.id .. " is not on the board" end
  local c = p.values.comps[P(a, "weapon")]
  if not c or c.kind ~= "torpedo" then return false, "that is not a torpedo weapon" end
  if c.dead then return false, "that torpedo weapon is destroyed" end
  if c.charge < D.torpedo.charges_to_fire then
    return false, ("a torpedo needs %d charges to fire"):format(D.torpedo.charges_to_fire)
  end
  local h = launch_hex(p, c)
  if not R.board(ctx).play[G.key(h)] then return false, "the launch hex is off the board" end
  if R.is_solid(R.terrain_map(ctx), h) then return false, "a planet or moon fills the launch hex" end
  return true
end

action {
  id = "launch",
  phases = { "weapons" },
  params = { ship = "piece", weapon = "integer" },
  choices = function(ctx, side)
    local out = {}
    if not weapons_open(ctx, side) or pending(ctx) then return out end
    for _, p in ipairs(R.ships(ctx, side)) do
      if R.on_board(p) then
        for wi, c in ipairs(p.values.comps) do
          -- The action's own check, called directly (ctx:legal would start a nested callback).
          if c.kind == "torpedo" and launch_check(ctx, { side = side, ship = p.id, weapon = wi }) then
            out[#out + 1] = { ship = p.id, weapon = wi }
          end
        end
      end
    end
    return out
  end,
  check = function(ctx, a) return launch_check(ctx, a) end,
  apply = function(ctx, a)
    local p = ctx:piece(P(a, "ship"))
    local s = p.values
    local c = s.comps[P(a, "weapon")]
    c.charge = c.charge - D.torpedo.charges_to_fire
    R.save_ship(ctx, p.id, s, R.SAVE_COMPS)
    local h, dir = launch_hex(p, c)
    local id = ctx:create { type = "torpedo", owner = a.side, hex = h, facing = dir, values = {
      level = c.level, integrity = D.torpedo.integrity, launched_round = ctx.round,
      mp_round = ctx.round, mp = D.torpedo.movement, turns = D.torpedo.max_turns,
      from = G.opposite(dir), ship = p.id } }
    ctx:log(("ship %d launches torpedo %d (strength %d) into %s"):format(p.id, id, c.level, G.key(h)))
  end,
}

action {
  id = "torpedo_move",
  phases = { "weapons" },
  params = { torpedo = "piece", evade = "integer" },
  choices = function(ctx, side)
    local out = {}
    if not weapons_open(ctx, side) or pending(ctx) then return out end
    local map = R.terrain_map(ctx)
    for _, t in ipairs(R.torpedoes(ctx, side)) do
      local mp = torpedo_points(ctx, t)
      local nh = G.neighbor(R.hex_of(t), R.facing_of(t))
      if mp >= 1 and R.board(ctx).play[G.key(nh)] and not R.is_solid(map, nh) then
        local maxe = R.is_asteroid(map, nh) and math.min(D.torpedo.asteroid_attacks, mp - 1) or 0
        for e = 0, maxe do out[#out + 1] = { torpedo = t.id, evade = e } end
      end
    end
    return out
  end,
  check = function(ctx, a)
    if not battle(ctx) then return false, "the battle has not begun" end
    if pending(ctx) then return false, "confirm or cancel the attack already declared" end
    local t, why = R.own_torpedo(ctx, a.side, P(a, "torpedo"))
    if not t then return false, why end
    local mp = torpedo_points(ctx, t)
    local e = P(a, "evade") or 0
    if mp < 1 + e then return false, "the torpedo has no movement points left" end
    local map = R.terrain_map(ctx)
    local nh = G.neighbor(R.hex_of(t), R.facing_of(t))
    if not R.board(ctx).play[G.key(nh)] then return false, "off the board" end
    if R.is_solid(map, nh) then return false, "a planet or moon blocks the way" end
    if e < 0 or (e > 0 and not R.is_asteroid(map, nh)) or e > D.torpedo.asteroid_attacks then
      return false, "evasion is only for asteroid fields"
    end
    return true
  end,
  apply = function(ctx, a)
    local t = ctx:piece(P(a, "torpedo"))
    local mp, turns = torpedo_points(ctx, t)
    local e = P(a, "evade") or 0
    local f = R.facing_of(t)
    local nh = G.neighbor(R.hex_of(t), f)
    ctx:move(t.id, nh, f)
    ctx:set(t.id, "mp_round", ctx.round)
    ctx:set(t.id, "mp", mp - 1 - e)
    ctx:set(t.id, "turns", turns)
    ctx:set(t.id, "from", G.opposite(f))
    if R.is_asteroid(R.terrain_map(ctx), nh) then
      local n = D.torpedo.asteroid_attacks - e
      if n > 0 then hit_torpedo(ctx, t.id, ctx:pool(n, D.die_sides, "asteroids"), "asteroids") end
    end
  end,
}

action {
  id = "torpedo_turn",
  phases = { "weapons" },
  params = { torpedo = "piece", turn = "integer" },
  choices = function(ctx, side)
    local out = {}
    if not weapons_open(ctx, side) or pending(ctx) then return out end
    for _, t in ipairs(R.torpedoes(ctx, side)) do
      local mp, turns = torpedo_points(ctx, t)
      if mp >= 1 and turns >= 1 then
        out[#out + 1] = { torpedo = t.id, turn = -1 }
        out[#out + 1] = { torpedo = t.id, turn = 1 }
      end
    end
    return out
  end,
  check = function(ctx, a)
    if not battle(ctx) then return false, "the battle has not begun" end
    if pending(ctx) then return false, "confirm or cancel the attack already declared" end
    local t, why = R.own_torpedo(ctx, a.side, P(a, "torpedo"))
    if not t then return false, why end
    local turn = P(a, "turn")
    if turn ~= 1 and turn ~= -1 then return false, "a turn is one hexside left (-1) or right (1)" end
    local mp, turns = torpedo_points(ctx, t)
    if mp < 1 then return false, "the torpedo has no movement points left" end
    if turns < 1 then return false, ("a torpedo turns at most %d hexsides a round"):format(D.torpedo.max_turns) end
    return true
  end,
  apply = function(ctx, a)
    local t = ctx:piece(P(a, "torpedo"))
    local mp, turns = torpedo_points(ctx, t)
    ctx:move(t.id, R.hex_of(t), G.turn(R.facing_of(t), P(a, "turn")))
    ctx:set(t.id, "mp_round", ctx.round)
    ctx:set(t.id, "mp", mp - 1)
    ctx:set(t.id, "turns", turns - 1)
  end,
}

local function own_torpedo_now(ctx, a)
  if not battle(ctx) then return nil, "the battle has not begun" end
  if pending(ctx) then return nil, "confirm or cancel the attack already declared" end
  return R.own_torpedo(ctx, a.side, P(a, "torpedo"))
end

action {
  id = "detonate",
  phases = { "weapons" },
  params = { torpedo = "piece" },
  choices = function(ctx, side)
    local out = {}
    if not weapons_open(ctx, side) or pending(ctx) then return out end
    for _, t in ipairs(R.torpedoes(ctx, side)) do out[#out + 1] = { torpedo = t.id } end
    return out
  end,
  check = function(ctx, a)
    local t, why = own_torpedo_now(ctx, a)
    if not t then return false, why end
    return true
  end,
  apply = function(ctx, a) detonate(ctx, P(a, "torpedo")) end,
}

action {
  id = "disarm",
  phases = { "weapons" },
  params = { torpedo = "piece" },
  choices = function(ctx, side)
    local out = {}
    if not weapons_open(ctx, side) or pending(ctx) then return out end
    for _, t in ipairs(R.torpedoes(ctx, side)) do out[#out + 1] = { torpedo = t.id } end
    return out
  end,
  check = function(ctx, a)
    local t, why = own_torpedo_now(ctx, a)
    if not t then return false, why end
    return true
  end,
  apply = function(ctx, a)
    ctx:destroy(P(a, "torpedo"))
    ctx:log(("torpedo %d is disarmed"):format(P(a, "torpedo")))
  end,
}

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
    local d = R.dir(P(a, "direction"))
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

action {
  id = "transfer",
  phases = { "power" },
  params = { ship = "piece", crew = "integer", comp = "integer", amount = "integer" },
  choices = function(ctx, side)
    local out = {}
    if not battle(ctx) then return out end
    for _, p in ipairs(R.ships(ctx, side)) do
      if R.on_board(p) then
        local s = p.values
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
    return true
  end,
  apply = function(ctx, a)
    local p = ctx:piece(P(a, "ship"))
    local s = p.values
    local ci, ki, n = P(a, "crew"), P(a, "comp"), P(a, "amount")
    local cr, comp = s.crew[ci], s.comps[ki]
    R.open_pool(ctx, s)
    local from_pool = math.min(s.pool, n)
    s.pool = s.pool - from_pool
    local from_bat = n - from_pool
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
      p.id, P(a, "crew"), n, from_bat, comp.kind, P(a, "comp"), n - used))
  end,
}

---------------------------------------------------------------------------------------------
-- Phase ends, hooks, setup, victory.
---------------------------------------------------------------------------------------------
action {
  id = "end_phase",
  -- Why the phases: only these two ever refuse the end of a phase; elsewhere the engine allows
  -- it without calling the check (a ctx and a callback saved on every step of a game).
  phases = { "deploy", "weapons" },
  check = function(ctx, a)
    local side = a.side
    if ctx.phase == "deploy" then
      if owes_anomaly(ctx, side) and #R.anomaly_choices(ctx, true) > 0 then
        return false, "place an anomaly first"
      end
      if may_deploy_ship(ctx, side) then return false, "place a ship first" end
    elseif ctx.phase == "weapons" then
      local pl = pending(ctx)
      if pl and pl.side == side then return false, "confirm or cancel the declared attack first" end
      for _, t in ipairs(R.torpedoes(ctx, side)) do
        if (t.values.launched_round or ctx.round) < ctx.round then
          return false, ("torpedo %d was fired last round: detonate or disarm it"):format(t.id)
        end
      end
    end
    return true
  end,
}

-- Unused overcharge is lost after the owner's next weapons phase, and the beam loses a level.
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
game.on("phase_end", { phases = { "weapons" } }, function(ctx, ev)
  local pl = pending(ctx)
  if pl then ctx:set_global("pending", false) end
  R.expire_torpedoes(ctx, (ctx.acting and #ctx.acting > 0) and ctx.acting or { ctx.active })
  if ctx.phase == "movement" then burn_overcharge(ctx) end
end)

game.on("round_start", function(ctx)
  if battle(ctx) then return end
  for _, s in ipairs(ctx:sides()) do
    if #R.reserve_ships(ctx, s.id) > 0 then return end
  end
  if not R.all_anomalies_placed(ctx) then return end
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
  for _, p in ipairs(R.ships(ctx)) do
    if p.values.comps == nil or next(p.values.comps) == nil and (ctx.options or {}).setup ~= "advanced" then
      local rec = R.record_for(ctx, p.values.design)
      for k, v in pairs(rec) do ctx:set(p.id, k, v) end
    end
  end
  local opts = ctx.options or {}
  if opts.anomalies ~= false then
    local n = ctx:roll(D.anomaly_count_die, "anomalies per player")
    ctx:set_global("anomaly_count", n)
    for _, s in ipairs(ctx:sides()) do ctx:set_side(s.id, "anomalies_left", n) end
    ctx:log(("each player places %d anomalies"):format(n))
  end
  local ready = R.all_anomalies_placed(ctx)
  for _, s in ipairs(ctx:sides()) do
    if #R.reserve_ships(ctx, s.id) > 0 then ready = false end
  end
  ctx:set_global("battle", ready)
end)

game.victory(R.readonly(function(ctx)
  local teams, order = alive_teams(ctx)
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

-- Bots: `hexforge play mods/solar-flare --bots blue=greedy,red=random` (see bot.lua).
game.bots.greedy = R.readonly(BOT.greedy)
