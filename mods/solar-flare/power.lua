-- Power: charging components, shields' rising costs with partial charges, beam overcharge.
--
-- `charge(comp, power)` mutates one component record with `power` points transferred by one crew
-- team and returns the power actually used (the rest is lost, as the rules say).
--
-- Deliberately absent: crew and pool bookkeeping (main.lua does that). Example: a shield at 0
-- needs `shield_cost(0, 6) == 21` power to reach 6.
local D = require("data")
local M = {}

---Power to raise a shield from charge a to charge b (each new level costs its own number).
---@param a integer
---@param b integer
---@return integer
function M.shield_cost(a, b)
  local total = 0
  for lvl = a + 1, b do total = total + lvl end
  return total
end

---Power to overcharge a full beam by k levels (1, 3, 6, 10, ...).
---@param k integer
---@return integer
function M.overcharge_cost(k) return k * (k + 1) // 2 end

---Highest overcharge one crew team can buy: the largest k whose cost fits the best crew level.
---@return integer
function M.max_overcharge()
  local k = 0
  while M.overcharge_cost(k + 1) <= D.max_level do k = k + 1 end
  return k
end

---Capacity of a component's ordinary charge.
---@param comp { kind: string, level: integer }
---@return integer
function M.capacity(comp)
  if comp.kind == "torpedo" then return D.torpedo.capacity end
  if comp.kind == "generator" then return 0 end
  return comp.level
end

---Transfer `power` into comp (mutated). Returns power used. Shields take partial charges;
---beams at full charge overcharge (no partials); other components fill 1:1.
---@param comp Chargeable
---@param power integer
---@return integer used
function M.charge(comp, power)
  if comp.dead or comp.kind == "generator" then return 0 end
  local used = 0
  if comp.kind == "shield" then
    local p = comp.partial + power
    used = power
    while comp.charge < comp.level and p >= comp.charge + 1 do
      p = p - (comp.charge + 1)
      comp.charge = comp.charge + 1
    end
    if comp.charge >= comp.level then
      used = used - p      -- excess beyond a full shield is lost
      p = 0
    end
    comp.partial = p
    return used
  end
  local cap = M.capacity(comp)
  local fill = math.min(power, cap - comp.charge)
  if fill < 0 then fill = 0 end
  comp.charge = comp.charge + fill
  used = fill
  local rest = power - fill
  if comp.kind == "beam" and rest > 0 and comp.charge >= cap then
    local k = comp.over
    while k < M.max_overcharge() and M.overcharge_cost(k + 1) - M.overcharge_cost(comp.over) <= rest do
      k = k + 1
    end
    used = used + M.overcharge_cost(k) - M.overcharge_cost(comp.over)
    comp.over = k
  end
  return used
end

---The most power a component can usefully take now (for listing sensible amounts).
---@param comp Chargeable
---@return integer
function M.useful(comp)
  if comp.dead or comp.kind == "generator" then return 0 end
  if comp.kind == "shield" then
    return math.max(0, M.shield_cost(comp.charge, comp.level) - comp.partial)
  end
  local n = math.max(0, M.capacity(comp) - comp.charge)
  if comp.kind == "beam" then
    n = n + M.overcharge_cost(M.max_overcharge()) - M.overcharge_cost(comp.over)
  end
  return n
end

return M
