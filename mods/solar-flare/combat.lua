-- Damage: dice pools against layered defences (shield, armour, core) and a torpedo's hull.
--
-- `resolve(layers, dice)` is the rule: each layer is `{ defence, integrity }` with defence fixed
-- at the start of the attack. Against each layer in turn, dice below its defence are discarded at
-- once; the remaining dice do one point each until the layer's integrity is 0, and what is left
-- goes on to the next layer. The attacker chooses the order dice are applied: `order`
-- "lowest_first" (the default) passes the highest dice on, so it does the most damage;
-- "highest_first" passes the lowest on, the least. With the document's numbers (armour and core
-- at defence 2) every other order does what one of these two does: only a shield at defence 1
-- keeps a 1, and which die it keeps is all an order decides.
--
-- Deliberately absent: rolling (the caller rolls with the engine's dice) and pieces.
-- Example: `resolve({{defence=2,integrity=2},{defence=2,integrity=4}}, {5,4,3,3,2,1})` gives
-- damage {2, 3} and discards the 1.
local D = require("data")

---A defence layer an attack's dice meet in turn.
---@class Layer
---@field what? "shield"|"armour"|"core"
---@field comp? integer      -- a shield's component index
---@field section? integer   -- the section of armour or core
---@field defence integer
---@field integrity integer

---What resolve did: the damage of every layer (by its index in the layers), the dice discarded
---and the dice left over.
---@class Resolution
---@field damage table<integer, integer>
---@field discarded integer[]
---@field unused integer[]

local M = {}

M.ORDERS = { "lowest_first", "highest_first" }
local function desc(x, y) return x > y end

---Resolve one attack, dice applied in `order` (default "lowest_first"). Returns
---`{ damage = {per layer}, discarded = {dice}, unused = {dice} }`.
---@param layers Layer[]
---@param dice integer[]
---@param order? string
---@return Resolution
function M.resolve(layers, dice, order)
  local pool = {}
  for i, v in ipairs(dice) do pool[i] = v end
  if order == "highest_first" then table.sort(pool, desc) else table.sort(pool) end
  local damage, discarded = {}, {}
  for i, layer in ipairs(layers) do
    damage[i] = 0
    if layer.integrity > 0 and #pool > 0 then
      local keep = {}
      for _, v in ipairs(pool) do
        if v < layer.defence then discarded[#discarded + 1] = v else keep[#keep + 1] = v end
      end
      pool = {}
      for _, v in ipairs(keep) do
        if damage[i] < layer.integrity then damage[i] = damage[i] + 1 else pool[#pool + 1] = v end
      end
    end
  end
  return { damage = damage, discarded = discarded, unused = pool }
end

---The working shield of a section (its component index), or nil.
function M.shield_of(ship, section)
  for i, c in ipairs(ship.comps) do
    if c.kind == "shield" and c.section == section and not c.dead then return i end
  end
  return nil
end

---Defence layers of `ship` hit in outer section `section`: its shield (if charged), its armour
---(if the section still stands), then the core. Returns the layer list with `what` tags.
---@param ship ShipRecord
---@param section integer
---@return Layer[]
function M.ship_layers(ship, section)
  local layers = {}
  local si = M.shield_of(ship, section)
  if si and ship.comps[si].charge > 0 then
    local ch = ship.comps[si].charge
    layers[#layers + 1] = { what = "shield", comp = si, defence = ch, integrity = ch }
  end
  if section ~= D.core and ship.hull[section] > 0 then
    layers[#layers + 1] = { what = "armour", section = section, defence = D.section_defence, integrity = ship.hull[section] }
  end
  layers[#layers + 1] = { what = "core", section = D.core, defence = D.section_defence, integrity = ship.hull[D.core] }
  return layers
end

---Whether the dice orders do different damage to `ship` hit in `section` (then the attacker
---chooses one).
function M.orders_differ(ship, section, dice)
  local layers = M.ship_layers(ship, section)
  local a, b = M.resolve(layers, dice, M.ORDERS[1]), M.resolve(layers, dice, M.ORDERS[2])
  for i = 1, #layers do if a.damage[i] ~= b.damage[i] then return true end end
  return false
end

---What dice in `order` would do to `ship` hit in `section`, as text ("shield -1, section 2 -3").
function M.describe(ship, section, dice, order)
  local layers = M.ship_layers(ship, section)
  local res, parts = M.resolve(layers, dice, order), {}
  for i, l in ipairs(layers) do
    if res.damage[i] > 0 then
      parts[#parts + 1] = ("%s -%d"):format(l.what == "armour" and ("section " .. l.section) or l.what, res.damage[i])
    end
  end
  return (#parts > 0) and table.concat(parts, ", ") or "no damage"
end

---Apply dice to a ship record (mutated) hit in `section`, in `order` (see resolve). Returns a
---summary `{ result = resolve(...), destroyed = bool, text = "...", comps_changed = bool,
---hull_changed = bool }`.
function M.damage_ship(ship, section, dice, order)
  local layers = M.ship_layers(ship, section)
  local res = M.resolve(layers, dice, order)
  local parts = {}
  local section_hurt, comps_changed, hull_changed = false, false, false
  for i, l in ipairs(layers) do
    local d = res.damage[i]
    if d > 0 then
      if l.what == "shield" then
        local c = ship.comps[l.comp]
        c.charge = c.charge - d
        section_hurt = true
        comps_changed = true
      else
        ship.hull[l.section] = ship.hull[l.section] - d
        hull_changed = true
        if l.what == "armour" then section_hurt = true end
        if ship.hull[l.section] <= 0 then
          ship.hull[l.section] = 0
          -- Assumption: a section at 0 integrity loses the components in it.
          for _, c in ipairs(ship.comps) do
            if c.section == l.section then
              c.dead = true; c.charge = 0; c.over = 0; c.partial = 0
              comps_changed = true
            end
          end
        end
      end
      parts[#parts + 1] = ("%s -%d"):format(l.what == "armour" and ("section " .. l.section) or l.what, d)
    end
  end
  -- A damaged shield loses its partial charge (also when the hit gets through it uncharged).
  if section_hurt then
    local si = M.shield_of(ship, section)
    if si and ship.comps[si].partial ~= 0 then
      ship.comps[si].partial = 0
      comps_changed = true
    end
  end
  return {
    result = res,
    destroyed = ship.hull[D.core] <= 0,
    comps_changed = comps_changed, -- whether ship.comps changed (hull_changed: ship.hull)
    hull_changed = hull_changed,
    text = (#parts > 0) and table.concat(parts, ", ") or "no damage",
  }
end

---Apply dice to a torpedo (defence 2, integrity 1). Returns remaining integrity.
function M.damage_torpedo(integrity, dice)
  local res = M.resolve({ { defence = D.torpedo.defence, integrity = integrity } }, dice)
  return integrity - res.damage[1], res
end

return M
