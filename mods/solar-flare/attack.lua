-- Solar Flare: resolving attacks (beam hits, torpedo blasts and their chain reactions, asteroid
-- hits on torpedoes) with the attacker's choices made by the attacking player:
-- - `choose_section`: where a blast's line of attack meets a ship at a vertex, the section hit
--   (asked before that ship's dice are rolled);
-- - `dice_order`: after a ship's dice are rolled, the order they are applied in
--   ("lowest_first" or "highest_first", see combat.lua), asked only when the two differ.
--
-- An attack is a list of hits worked through in order (`hits`), then the torpedoes its hits
-- destroyed detonate in turn (`queue`), each adding the hits of its blast. When a choice is
-- needed the whole state waits in the `resolving` global until the attacker answers; meanwhile
-- nobody else acts in the weapons phase and the attacker can not end it. The attacker is the
-- player whose action set the attack off (the one detonating, firing or steering), also for the
-- chain reactions it causes. An attacker left without ships is not asked: its choices are made
-- for it as the greedy bot would (best for the attacker).
--
-- Deliberately absent: who may start an attack (fire.lua checks that). Example:
-- `A.start(ctx, side, { { target = id, n = 4, what = "beam", section = 1 } })`.
local D = require("data")
local G = require("geom")
local C = require("combat")
local R = require("rules")
local X = require("decl")

local P = R.param
local action = X.action

local A = {}

---The attack waiting for its attacker's choice: `{ side, ask = "section" | "order", hits, queue }`
---(hits[1] is the hit asked about), or nil.
function A.resolving(ctx)
  local st = R.global(ctx, "resolving", false)
  if not st or st.side == nil then return nil end
  return st
end

---Resolve dice on a ship piece hit in a section, in `order`; destroys it at core 0. `p` is the
---ship's snapshot when the caller has just read it (else it is read here).
function A.hit_ship(ctx, id, section, dice, what, p, order)
  p = p or ctx:piece(id)
  if not p then return end
  local s = p.values
  local out = C.damage_ship(s, section, dice, order)
  -- Why not always both: each ctx:set of a list converts the whole list; what did not change
  -- (or a ship about to be destroyed) needs no write.
  if not out.destroyed then
    local saved = R.SAVE_NOTHING
    if out.comps_changed then saved = R.SAVE_DAMAGE elseif out.hull_changed then saved = R.SAVE_HULL end
    R.save_ship(ctx, id, s, saved)
  end
  ctx:log(("%s hits ship %d in section %d: dice %s%s -> %s"):format(what, id, section, table.concat(dice, " "),
    order == "highest_first" and " (highest first)" or "", out.text))
  if out.destroyed then
    R.destroy_ship(ctx, id)
    ctx:log(("ship %d is destroyed"):format(id))
  end
end

---Resolve dice on a torpedo; returns true when it is left at 0 integrity (it then detonates).
local function hit_torpedo(ctx, id, dice, what)
  local t = ctx:piece(id)
  if not t then return false end
  local left = C.damage_torpedo(t.values.integrity or D.torpedo.integrity, dice)
  ctx:log(("%s hits torpedo %d: dice %s"):format(what, id, table.concat(dice, " ")))
  if left <= 0 then
    ctx:set(id, "integrity", 0)
    return true
  end
  return false
end

---Detonates torpedo `tid` (destroyed now) and returns the hits of its blast, by victim id: a
---ship in its hex is hit in the section it entered from; one further off in the section its
---line of attack enters, or either of two at a vertex (`sections`, the attacker's choice).
local function blast(ctx, tid)
  local t = ctx:piece(tid)
  if not t then return {} end
  local centre, level, from = R.hex_of(t), t.values.level, t.values.from
  ctx:destroy(tid)
  ctx:log(("torpedo %d detonates at %s with strength %d"):format(tid, G.key(centre), level))
  local map = R.terrain_map(ctx)
  local victims = {}
  for _, v in ipairs(ctx:pieces { fields = { "id", "type", "hex", "facing" } }) do
    local vh = R.hex_of(v)
    if vh then
      local dist = G.distance(centre, vh)
      if level - dist > 0 and (dist == 0 or not R.line_of_attack(map, {}, centre, vh, "blast")) then
        victims[#victims + 1] = { v = v, dist = dist, hex = vh }
      end
    end
  end
  table.sort(victims, function(x, y) return x.v.id < y.v.id end)
  local hits = {}
  for _, x in ipairs(victims) do
    local h = { target = x.v.id, n = level - x.dist, what = "blast", torpedo = tid }
    if R.type_of(x.v) == "ship" then
      local f = R.facing_of(x.v)
      if x.dist == 0 then
        h.section = G.section_of_side(f, from or 0)
      else
        local secs = {}
        for _, hs in ipairs(G.entry_sides(centre, x.hex)) do secs[#secs + 1] = G.section_of_side(f, hs) end
        if #secs == 1 then h.section = secs[1] else h.sections = secs end
      end
    end
    hits[#hits + 1] = h
  end
  return hits
end

-- The attacker's best choices (the greedy bot's, also made for an attacker without ships) -------
local VALUE = { shield = 1, armour = 1.5, core = 3 }

---What damage `dice` in `order` do to ship record `s` hit in `section`, weighted by layer.
local function damage_value(s, section, dice, order)
  local layers = C.ship_layers(s, section)
  local res = C.resolve(layers, dice, order)
  local v = 0 ---@type number
  for i, l in ipairs(layers) do v = v + res.damage[i] * VALUE[l.what] end
  return v
end

---What `dice` in `order` on ship `p` hit in `section` are worth to `side`: the weighted damage
---to an enemy, less that to a ship of its own side.
function A.order_value(ctx, side, p, section, dice, order)
  local v = damage_value(p.values, section, dice, order)
  if R.enemies(ctx, side, p.owner) then return v end
  return -v
end

---The order best for `side` against ship `p` (and its worth): the most damage to an enemy, the
---least to its own side's ships. Nil only if C.ORDERS were empty.
---@return string|nil order
---@return number|nil value
function A.best_order(ctx, side, p, section, dice)
  local best, bv = nil, nil
  for _, o in ipairs(C.ORDERS) do
    local v = A.order_value(ctx, side, p, section, dice, o)
    if bv == nil or v > bv then best, bv = o, v end
  end
  return best, bv
end

-- Multisets of n d6 with their probabilities (n -> list of { dice, p }), made once per n.
local ROLLS = {}
local function rolls_of(n)
  if ROLLS[n] then return ROLLS[n] end
  local out = {}
  ---@type table<integer, integer> i -> i!
  local fact = { [0] = 1 }
  for i = 1, n do fact[i] = fact[i - 1] * i end
  local total = D.die_sides ^ n
  local dice = {}
  local function walk(face, left, ways)
    if face > D.die_sides then
      if left == 0 then
        local copy = {}
        for i, d in ipairs(dice) do copy[i] = d end
        out[#out + 1] = { dice = copy, p = ways / total }
      end
      return
    end
    for k = 0, left do
      for _ = 1, k do dice[#dice + 1] = face end
      walk(face + 1, left - k, ways / fact[k])
      for _ = 1, k do dice[#dice] = nil end
    end
  end
  walk(1, n, fact[n])
  ROLLS[n] = out
  return out
end

---The expected worth to `side` of `n` dice on ship `p` in `section`, the order then chosen well.
function A.section_value(ctx, side, p, section, n)
  local v = 0 ---@type number
  for _, r in ipairs(rolls_of(math.min(n, 8))) do
    local _, best = A.best_order(ctx, side, p, section, r.dice)
    v = v + r.p * assert(best, "C.ORDERS lists the dice orders")
  end
  return v
end

function A.best_section(ctx, side, p, sections, n)
  local best, bv = nil, nil
  for _, sec in ipairs(sections) do
    local v = A.section_value(ctx, side, p, sec, n)
    if bv == nil or v > bv then best, bv = sec, v end
  end
  return best
end

-- Working through an attack ----------------------------------------------------------------------
---Whether the attacker of `st` can still answer: it has a ship in the game.
local function can_ask(ctx, st)
  return not st.auto and R.sides_with_ships(ctx)[st.side] == true
end

local function wait(ctx, st, ask, text)
  st.ask = ask
  ctx:set_global("resolving", st)
  ctx:log(text)
end

---Works through the attack `st` until it is done or needs the attacker's choice.
local function run(ctx, st)
  for _ = 1, 100000 do
    local h = st.hits[1]
    if h then
      local p = ctx:piece(h.target)
      if not p then
        table.remove(st.hits, 1)
      elseif R.type_of(p) == "ship" then
        if h.section == nil then
          if can_ask(ctx, st) then
            return wait(ctx, st, "section", ("the blast of torpedo %d meets ship %d at a vertex: %s chooses section %s"):format(
              h.torpedo, p.id, st.side, table.concat(h.sections, " or ")))
          end
          h.section = A.best_section(ctx, st.side, p, h.sections, h.n)
        end
        if h.dice == nil then h.dice = ctx:pool(h.n, D.die_sides, h.what .. " damage") end
        if h.order == nil then
          if C.orders_differ(p.values, h.section, h.dice) then
            if can_ask(ctx, st) then
              return wait(ctx, st, "order", ("%s dice %s on ship %d, section %d: lowest first does %s, highest first %s; %s chooses"):format(
                h.what, table.concat(h.dice, " "), p.id, h.section,
                C.describe(p.values, h.section, h.dice, "lowest_first"),
                C.describe(p.values, h.section, h.dice, "highest_first"), st.side))
            end
            h.order = A.best_order(ctx, st.side, p, h.section, h.dice)
          else
            h.order = "lowest_first"
          end
        end
        table.remove(st.hits, 1)
        A.hit_ship(ctx, p.id, h.section, h.dice, h.what, p, h.order)
      else
        table.remove(st.hits, 1)
        local dice = h.dice or ctx:pool(h.n, D.die_sides, h.what .. " damage")
        if hit_torpedo(ctx, p.id, dice, h.what) then st.queue[#st.queue + 1] = p.id end
      end
    elseif #st.queue > 0 then
      st.hits = blast(ctx, table.remove(st.queue, 1))
    else
      ctx:set_global("resolving", false)
      return
    end
  end
  error("an attack that never ends")
end

---Starts an attack of `side`: `hits` is a list of `{ target, n (dice), what, section =,
---sections = }`; `queue` torpedoes to detonate after them.
function A.start(ctx, side, hits, queue)
  run(ctx, { side = side, hits = hits or {}, queue = queue or {} })
end

---Detonates torpedo `id` as an attack of `side` (with its chain reactions).
function A.detonate(ctx, side, id)
  A.start(ctx, side, {}, { id })
end

---Finishes a waiting attack with the choices made for the attacker (the weapons phase ended
---without them: a safety net, since the attacker can not end the phase while asked).
function A.finish(ctx)
  local st = A.resolving(ctx)
  if not st then return end
  local h = st.hits[1]
  local p = h and ctx:piece(h.target)
  if p and st.ask == "section" then h.section = A.best_section(ctx, st.side, p, h.sections, h.n) end
  if p and st.ask == "order" then h.order = A.best_order(ctx, st.side, p, h.section, h.dice) end
  st.ask = nil
  st.auto = true -- nobody is asked again: the hits left get the choices made for the attacker
  run(ctx, st)
end

-- The attacker's answers ---------------------------------------------------------------------------
local function asked(ctx, side, what)
  local st = A.resolving(ctx)
  if not st or st.side ~= side or st.ask ~= what then return nil end
  return st, st.hits[1]
end

action {
  id = "choose_section",
  phases = { "weapons" },
  params = { section = "integer" },
  choices = function(ctx, side)
    local _, h = asked(ctx, side, "section")
    local out = {}
    if h then for _, sec in ipairs(h.sections) do out[#out + 1] = { section = sec } end end
    return out
  end,
  check = function(ctx, a)
    local _, h = asked(ctx, a.side, "section")
    if not h then return false, "no blast waits for you to choose a section" end
    local sec = P(a, "section")
    for _, x in ipairs(h.sections) do if x == sec then return true end end
    return false, "the blast can hit only section " .. table.concat(h.sections, " or ")
  end,
  apply = function(ctx, a)
    local st, h = asked(ctx, a.side, "section")
    h.section = P(a, "section")
    st.ask = nil
    ctx:log(("%s chooses section %d of ship %d"):format(a.side, h.section, h.target))
    run(ctx, st)
  end,
}

action {
  id = "dice_order",
  phases = { "weapons" },
  params = { order = "string" },
  choices = function(ctx, side)
    local _, h = asked(ctx, side, "order")
    local out = {}
    if h then for _, o in ipairs(C.ORDERS) do out[#out + 1] = { order = o } end end
    return out
  end,
  check = function(ctx, a)
    local _, h = asked(ctx, a.side, "order")
    if not h then return false, "no dice wait for you to order them" end
    local o = P(a, "order")
    for _, x in ipairs(C.ORDERS) do if x == o then return true end end
    return false, "the order is " .. table.concat(C.ORDERS, " or ")
  end,
  apply = function(ctx, a)
    local st, h = asked(ctx, a.side, "order")
    h.order = P(a, "order")
    st.ask = nil
    run(ctx, st)
  end,
}

return A
