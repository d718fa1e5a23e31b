-- Solar Flare weapons phase: beams (aim, then confirm or cancel), torpedoes (launch, steer,
-- detonate, disarm), and resolving hits on ships and torpedoes (blasts and chain reactions).
-- main.lua requires this file where the weapons phase's actions are declared.
local D = require("data")
local G = require("geom")
local R = require("rules")
local X = require("decl")
local A = require("attack")

local P = R.param
local action, battle, acting = X.action, X.battle, X.acting

local F = {}
local function pending(ctx)
  local p = R.global(ctx, "pending", false)
  if p == false or p == nil or p.side == nil then return nil end
  return p
end
F.pending = pending

---Why no other weapons action may start now (an attack declared, or one waiting for its
---attacker's choice), or nil.
local function busy(ctx)
  if pending(ctx) then return "confirm or cancel the attack already declared" end
  local st = A.resolving(ctx)
  if st then return ("the attack of %s waits for its choice (%s)"):format(st.side, st.ask) end
  return nil
end
F.busy = busy

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
    if not weapons_open(ctx, side) or busy(ctx) then return {} end
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
    if busy(ctx) then return false, busy(ctx) end
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
  -- "beam 2 -> ship #4, section 3, strength 2, 1 nebula hex: 1 die"; on the map "1 die".
  label = function(ctx, a)
    local p, t = R.spots(ctx, P(a, "ship"), P(a, "target"))
    if not (p and t and R.hex_of(p) and R.hex_of(t)) then return nil end
    local _, neb = R.line_of_attack(R.terrain_map(ctx), R.occupancy(ctx), R.hex_of(p), R.hex_of(t), "beam")
    local n = P(a, "strength") or 0 ---@type integer
    local dice = math.max(0, n - neb)
    local where = ""
    if R.type_of(t) == "ship" then
      where = (", section %d"):format(G.section_of_side(R.facing_of(t), P(a, "hexside")))
    end
    local short = dice == 1 and "1 die" or (dice .. " dice")
    return {
      text = ("beam %d -> %s #%d%s, strength %d%s: %s"):format(P(a, "weapon"), R.type_of(t), t.id, where, n,
        neb > 0 and (", " .. neb .. " nebula hex" .. (neb == 1 and "" or "es")) or "", short),
      short = short,
    }
  end,
  apply = function(ctx, a)
    -- Light reads: aiming needs where the two pieces are, not the ship records.
    local p, t = R.spots(ctx, P(a, "ship"), P(a, "target"))
    assert(p and t, "check found the ship and the target")
    local _, neb = R.line_of_attack(R.terrain_map(ctx), R.occupancy(ctx), R.hex_of(p), R.hex_of(t), "beam")
    local n = P(a, "strength") ---@type integer
    local plan = { side = a.side, ship = p.id, weapon = P(a, "weapon"), target = t.id, hexside = P(a, "hexside") or -1, strength = n, nebulae = neb, dice = math.max(0, n - neb) }
    if R.type_of(t) == "ship" then plan.section = G.section_of_side(R.facing_of(t), plan.hexside) end
    ctx:set_global("pending", plan)
    ctx:log(("%s aims beam %d of ship %d at %s %d: strength %d, %d nebula hexes, %d dice%s"):format(
      a.side, plan.weapon, p.id, R.type_of(t), t.id, n, neb, plan.dice,
      plan.section and (", section " .. plan.section) or ""))
  end,
}

-- Cancelling and confirming are offered to the side whose attack is declared, and only then.
---@param ctx Ctx
---@param side string
---@return table
local function declared_choices(ctx, side)
  local pl = pending(ctx)
  if pl and pl.side == side then return { {} } end
  return {}
end

---@param ctx Ctx
---@param a ActionTable
---@return boolean ok
---@return string? why
local function declared_check(ctx, a)
  local pl = pending(ctx)
  if not pl or pl.side ~= a.side then return false, "no attack is declared" end
  return true
end

action {
  id = "cancel",
  phases = { "weapons" },
  params = {},
  choices = declared_choices,
  check = declared_check,
  apply = function(ctx, a)
    ctx:set_global("pending", false)
    ctx:log(a.side .. " cancels the attack")
  end,
}

action {
  id = "confirm",
  phases = { "weapons" },
  params = {},
  choices = declared_choices,
  check = declared_check,
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
    -- The dice are rolled, ordered (the attacker's choice when it matters) and applied in attack.lua.
    A.start(ctx, a.side, { { target = pl.target, n = pl.dice, what = "beam", section = pl.section } })
  end,
}

---@return integer mp
---@return integer turns
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
  if busy(ctx) then return false, busy(ctx) end
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
    if not weapons_open(ctx, side) or busy(ctx) then return out end
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
    if not weapons_open(ctx, side) or busy(ctx) then return out end
    local map = R.terrain_map(ctx)
    for _, t in ipairs(R.torpedoes(ctx, side)) do
      local mp = torpedo_points(ctx, t)
      local nh = G.neighbor(R.hex_of(t), R.facing_of(t))
      if mp >= 1 and R.torpedo_can_enter(ctx, map, nh) then
        local maxe = R.is_asteroid(map, nh) and math.min(D.torpedo.asteroid_attacks, mp - 1) or 0
        for e = 0, maxe do out[#out + 1] = { torpedo = t.id, evade = e } end
      end
    end
    return out
  end,
  check = function(ctx, a)
    if not battle(ctx) then return false, "the battle has not begun" end
    if busy(ctx) then return false, busy(ctx) end
    local t, why = R.own_torpedo(ctx, a.side, P(a, "torpedo"))
    if not t then return false, why end
    local mp = torpedo_points(ctx, t)
    local e = P(a, "evade") or 0
    if mp < 1 + e then return false, "the torpedo has no movement points left" end
    local map = R.terrain_map(ctx)
    local nh = G.neighbor(R.hex_of(t), R.facing_of(t))
    local open, blocked = R.torpedo_can_enter(ctx, map, nh)
    if not open then return false, blocked end
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
      if n > 0 then A.start(ctx, a.side, { { target = t.id, n = n, what = "asteroids" } }) end
    end
  end,
}

action {
  id = "torpedo_turn",
  phases = { "weapons" },
  params = { torpedo = "piece", turn = "integer" },
  choices = function(ctx, side)
    local out = {}
    if not weapons_open(ctx, side) or busy(ctx) then return out end
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
    if busy(ctx) then return false, busy(ctx) end
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
  if busy(ctx) then return nil, busy(ctx) end
  return R.own_torpedo(ctx, a.side, P(a, "torpedo"))
end

-- Detonating and disarming are offered for each of the side's torpedoes while its weapons
-- phase is open and no attack waits.
---@param ctx Ctx
---@param side string
---@return table
local function torpedo_choices(ctx, side)
  local out = {}
  if not weapons_open(ctx, side) or busy(ctx) then return out end
  for _, t in ipairs(R.torpedoes(ctx, side)) do out[#out + 1] = { torpedo = t.id } end
  return out
end

---@param ctx Ctx
---@param a ActionTable
---@return boolean ok
---@return string? why
local function torpedo_check(ctx, a)
  local t, why = own_torpedo_now(ctx, a)
  if not t then return false, why end
  return true
end

action {
  id = "detonate",
  phases = { "weapons" },
  params = { torpedo = "piece" },
  choices = torpedo_choices,
  check = torpedo_check,
  apply = function(ctx, a) A.detonate(ctx, a.side, P(a, "torpedo")) end,
}

action {
  id = "disarm",
  phases = { "weapons" },
  params = { torpedo = "piece" },
  choices = torpedo_choices,
  check = torpedo_check,
  apply = function(ctx, a)
    ctx:destroy(P(a, "torpedo"))
    ctx:log(("torpedo %d is disarmed"):format(P(a, "torpedo")))
  end,
}


F.hit_ship = A.hit_ship

return F
