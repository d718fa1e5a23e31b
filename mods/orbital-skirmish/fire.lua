-- fire.lua: the fire phases. Which weapon may fire at which ship from where (arcs, range,
-- line of fire, the forward band), the shot itself, and the interceptors the target's side
-- declares against one rocket or torpedo before it is rolled.
--
-- What it deliberately does not do: line-of-fire geometry (combat.lua, pure and tested on its
-- own) or movement.

local mv = require("movement")
local C = require("combat")
local R = require("reading")
local rule, weapon, total, facing_of, SHARED, own_ship, move_env, listed_pieces, listed_env =
  R.rule, R.weapon, R.total, R.facing_of, R.SHARED, R.own_ship, R.move_env, R.listed_pieces, R.listed_env
---------------------------------------------------------------------------------------------
-- Fire
---------------------------------------------------------------------------------------------

---A shot fire_reason allows.
---@class Shot
---@field weapon Weapon
---@field slot integer
---@field target Ship
---@field at Hex the hex fired at (on the target's path in defensive fire)
---@field range integer
---@field bonus integer

---A declared shot waiting for the target's interceptors (the global "pending_shot").
---@class PendingShot
---@field piece integer
---@field weapon string
---@field target integer
---@field defender string
---@field range integer
---@field chance integer before interceptors
---@field range_loss integer
---@field penalty integer per interceptor
---@field damage string dice

-- Which fire phase this is: `fired` maps a weapon slot to the phase it last fired in, so a
-- weapon fires once per fire phase without a sweep clearing every ship's record as each fire
-- phase starts (a hook call, a read and two writes per ship, twice a turn).
-- Made once per ctx (a listing asks for every weapon and target).
---@type table<Ctx, string>
local FIRE_PHASE = setmetatable({}, { __mode = "k" })
---@param ctx Ctx
---@return string
local function fire_phase(ctx)
  local s = FIRE_PHASE[ctx]
  if s == nil then
    s = ("%d/%s/%s"):format(ctx.round, ctx.active or "", ctx.phase or "")
    FIRE_PHASE[ctx] = s
  end
  return s
end

-- Why `a` (piece, weapon slot, target) cannot fire whatever hex it aims at, or nil and the
-- weapon, slot and target. `t` is the target's snapshot when the caller has it already.
---@param ctx Ctx
---@param a table the action: side, piece, weapon (slot), target
---@param p Ship the firer
---@param t? Ship
---@return string|nil why
---@return Weapon|nil w
---@return integer|nil slot
---@return Ship|nil t
---@return_overload string
---@return_overload nil, Weapon, integer, Ship
local function fire_base(ctx, a, p, t)
  local slot = math.tointeger(a.weapon)
  local wid = slot and p.stats.weapons[slot]
  if not wid then return ("ship %d has no weapon %s"):format(p.id, tostring(a.weapon)) end
  local w = weapon(ctx, wid)
  if (p.values.fired or {})[tostring(slot)] == fire_phase(ctx) then
    return ("weapon %d (%s) has already fired this phase"):format(slot, wid)
  end
  if w.fire == "offensive" and ctx.phase ~= "offensive_fire" then
    return ("a %s fires only in its own offensive fire"):format(wid)
  end
  if w.limited == "yes" and ((p.values.ammo or {})[wid] or 0) <= 0 then
    return ("no %s ammunition left"):format(wid)
  end
  t = t or ctx:piece(a.target, SHARED)
  if not t or not t.hex then return "the target is not on the map" end
  if t.owner == a.side then return "the target must be an enemy ship" end
  if ctx.phase == "defensive_fire" and t.owner ~= ctx.active then
    return "defensive fire targets the ships that moved this turn"
  end
  return nil, w, slot, t
end

-- The hex a path entered `at` from (the one before `at`), or nil.
---@param path Hex[]|nil
---@param at Hex
---@return Hex|nil
local function entered_from(path, at)
  if path == nil then return nil end
  for i = 2, #path do
    if mv.eq(path[i], at) then return path[i - 1] end
  end
  return nil
end

-- Why weapon `w` of `p` cannot reach hex `at` of target `t`, or nil, the range and the bonus
-- (head-on: a forward-firing weapon at the centre row of its band, or at the hex the firer
-- entered this turn).
---@param ctx Ctx
---@param p Ship the firer
---@param w Weapon
---@param at Hex
---@param env GameMoveEnv
---@param t Ship the target
---@return string|nil why
---@return integer|nil range
---@return integer|nil bonus
---@return_overload string
---@return_overload nil, integer, integer
local function fire_geometry(ctx, p, w, at, env, t)
  local range = mv.distance(p.hex, at)
  if range > w.range then return ("out of range: %d hexes, the %s reaches %d"):format(range, w.id, w.range) end
  local bonus = 0
  if w.arc == "forward" then
    local band = C.forward_band(p.hex, facing_of(p), at)
    if not band then return ("the %s fires only into the band straight ahead"):format(w.id) end
    if band == "own" and ctx.phase == "defensive_fire" then
      -- A mover in the firer's hex: only if it came in from the firer's forward band.
      local from = entered_from(t.values.path, at)
      if from and not C.in_forward_band(p.hex, facing_of(p), from) then
        return ("the %s fires at a ship that entered its hex only if it came from the band ahead"):format(w.id)
      end
    end
    local entered = band == "own" and ctx.phase == "offensive_fire" and #(p.values.path or {}) > 1
    if band == "centre" or entered then bonus = rule(ctx, "head_on_bonus") end
  end
  if C.los_blocked(p.hex, at, env.planets, env.blocked) then return "a planet blocks the line of fire" end
  return nil, range, bonus
end

-- Why `a` (piece, weapon slot, target, at) cannot fire, or nil and the shot's details.
-- `t` is the target's snapshot when the caller has it already (saves a ctx:piece per hex).
---@param ctx Ctx
---@param a table the action: side, piece, weapon (slot), target, at
---@param p Ship the firer
---@param env GameMoveEnv
---@param t? Ship
---@return string|nil why
---@return Shot|nil shot
---@return_overload string
---@return_overload nil, Shot
local function fire_reason(ctx, a, p, env, t)
  local why, w, slot
  why, w, slot, t = fire_base(ctx, a, p, t)
  if why then return why end
  local at = t.hex
  if ctx.phase == "defensive_fire" then
    if a.at ~= nil then
      local found = false
      for _, h in ipairs(t.values.path or {}) do
        if mv.eq(h, a.at) then found = true end
      end
      if not found then return ("%s is not on the target's path this turn"):format(mv.show(a.at)) end
      at = a.at
    end
  elseif a.at ~= nil and not mv.eq(a.at, t.hex) then
    return "offensive fire targets the ship where it is"
  end
  local range, bonus
  why, range, bonus = fire_geometry(ctx, p, w, at, env, t)
  if why then return why end
  return nil, { weapon = w, slot = slot, target = t, at = at, range = range, bonus = bonus }
end

-- The best hex of a mover's path to fire at (highest chance, then earliest), or nil.
-- Why fire_base once and fire_geometry per hex: everything but the geometry is the same for
-- every hex of the path (and each hex comes from the path, so it is on it).
---@param ctx Ctx
---@param a table the action: side, piece, weapon (slot), target
---@param p Ship the firer
---@param t Ship the target
---@param env GameMoveEnv
---@return Hex|nil
local function best_at(ctx, a, p, t, env)
  local why, w = fire_base(ctx, a, p, t)
  if why then return nil end
  local best, best_chance
  local hexes = { t.hex }
  if ctx.phase == "defensive_fire" then hexes = t.values.path or { t.hex } end
  for _, h in ipairs(hexes) do
    local no, range, bonus = fire_geometry(ctx, p, w, h, env, t)
    if not no then
      local c = C.chance(w.chance + bonus, w.range_loss, range, 0, 0)
      if best_chance == nil or c > best_chance then best, best_chance = h, c end
    end
  end
  return best
end

-- The most interceptors the target of `shot` may fire at it.
---@param ctx Ctx
---@param shot PendingShot
---@return number
local function most_interceptors(ctx, shot)
  local t = ctx:piece(shot.target, SHARED)
  return math.min(rule(ctx, "max_interceptors_per_attack"), t and t.values.icm or 0)
end

-- Rolls a declared shot (`pending`: shooter, weapon, target and the chance before
-- interceptors) with `icm` interceptor missiles fired at it.
---@param ctx Ctx
---@param pending PendingShot
---@param icm integer
local function resolve(ctx, pending, icm)
  local t = assert(ctx:piece(pending.target, SHARED), "the target of a declared shot is in the game")
  local chance = C.chance(pending.chance, pending.range_loss, pending.range, pending.penalty, icm)
  local roll = total(ctx:roll(rule(ctx, "to_hit_die"), "to hit"))
  local what = ("ship %d %s at ship %d, range %d: %d%%, rolled %d"):format(
    pending.piece, pending.weapon, t.id, pending.range, chance, roll)
  if roll > chance then
    ctx:log(what .. ", miss")
    return
  end
  local dmg = total(ctx:roll(pending.damage, "damage"))
  local damage = (t.values.damage or 0) + dmg
  ctx:log(("%s, hit for %d"):format(what, dmg))
  if damage >= t.stats.hull then
    ctx:log(("ship %d is destroyed"):format(t.id))
    ctx:destroy(t.id)
  else
    ctx:set(t.id, "damage", damage)
  end
end

game.action {
  id = "fire",
  phases = { "defensive_fire", "offensive_fire" },
  params = { piece = "piece", weapon = "integer", target = "piece", at = "hex" },
  choices = function(ctx, side)
    local out = {}
    local env = listed_env(ctx)
    local own, targets = {}, {}
    for _, p in ipairs(listed_pieces(ctx)) do
      if p.owner == side then own[#own + 1] = p else targets[#targets + 1] = p end
    end
    for _, p in ipairs(own) do
      for slot = 1, #p.stats.weapons do
        for _, t in ipairs(targets) do
          local a = { side = side, piece = p.id, weapon = slot, target = t.id }
          local at = best_at(ctx, a, p, t, env)
          if at then out[#out + 1] = { piece = p.id, weapon = slot, target = t.id, at = at } end
        end
      end
    end
    return out
  end,
  check = function(ctx, a)
    local p, why = own_ship(ctx, a.side, a.piece)
    if not p then return false, why end
    why = fire_reason(ctx, a, p, move_env(ctx))
    if why then return false, why end
    return true
  end,
  apply = function(ctx, a)
    -- A private copy: the fired weapons and the ammunition are changed on it, then written.
    local p = assert(ctx:piece(a.piece), "check found the ship") --[[@as Ship]]
    local why, shot = fire_reason(ctx, a, p, move_env(ctx))
    assert(shot, why)
    local w, t = shot.weapon, shot.target
    local fired = p.values.fired or {}
    fired[tostring(shot.slot)] = fire_phase(ctx)
    ctx:set(p.id, "fired", fired)
    if w.limited == "yes" then
      local ammo = p.values.ammo
      ammo[w.id] = ammo[w.id] - 1
      ctx:set(p.id, "ammo", ammo)
    end
    local pending = {
      piece = p.id, weapon = w.id, target = t.id, defender = t.owner, range = shot.range,
      chance = w.chance + shot.bonus, range_loss = w.range_loss, penalty = w.icm_penalty,
      damage = w.damage,
    }
    -- A rocket or torpedo at a ship with interceptors left: its side answers first.
    if w.icm_penalty > 0 and (t.values.icm or 0) > 0 then
      ctx:set_global("pending_shot", pending)
      ctx:log(("ship %d fires its %s at ship %d, range %d: ship %d may fire interceptors"):format(
        p.id, w.id, t.id, shot.range, t.id))
      ctx:ask(t.owner)
      return
    end
    resolve(ctx, pending, 0)
  end,
  -- How the editor names a shot: the weapon, the target, the range and the chance before any
  -- interceptors ("laser cannon -> frigate #2, range 3: 45%"; the map shows "45%").
  label = function(ctx, a)
    local p = ctx:piece(a.piece)
    if not p then return nil end
    local _, shot = fire_reason(ctx, a, p --[[@as Ship]], move_env(ctx))
    if not shot then return nil end
    local w, t = shot.weapon, shot.target
    local chance = C.chance(w.chance + shot.bonus, w.range_loss, shot.range, 0, 0)
    local name = w.id:gsub("_", " ")
    return {
      text = ("%s -> %s #%d, range %d: %d%%"):format(name, t.type, t.id, shot.range, chance),
      short = chance .. "%",
    }
  end,
}

-- The target's side declares interceptors against the one shot waiting for them (0 to the
-- rules' cap, no more than the ship has left); the shot is then rolled.
game.action {
  id = "intercept",
  phases = { "defensive_fire", "offensive_fire" },
  params = { count = "integer" },
  answer = true,
  choices = function(ctx, side)
    local shot = ctx:global("pending_shot")
    if not shot or shot.defender ~= side then return {} end
    local out = {}
    for n = 0, most_interceptors(ctx, shot) do out[#out + 1] = { count = n } end
    return out
  end,
  check = function(ctx, a)
    local shot = ctx:global("pending_shot")
    if not shot then return false, "no rocket or torpedo is waiting for interceptors" end
    if shot.defender ~= a.side then return false, ("ship %d is not yours"):format(shot.target) end
    local n, most = math.tointeger(a.count), most_interceptors(ctx, shot)
    if n == nil or n < 0 or n > most then
      return false, ("ship %d may fire 0 to %d interceptors at this %s"):format(shot.target, most, shot.weapon)
    end
    return true
  end,
  apply = function(ctx, a)
    local shot = ctx:global("pending_shot") ---@type PendingShot
    local n = assert(math.tointeger(a.count), "check took a whole count")
    if n > 0 then
      local t = assert(ctx:piece(shot.target, SHARED), "the target of a declared shot is in the game")
      ctx:set(t.id, "icm", t.values.icm - n)
      ctx:log(("ship %d fires %d interceptor missile(s)"):format(t.id, n))
    end
    ctx:set_global("pending_shot", nil)
    ctx:answered()
    resolve(ctx, shot, n)
  end,
}
