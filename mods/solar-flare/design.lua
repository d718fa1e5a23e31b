-- Ship design: point cost, the placement restrictions and building a ship's record from a design.
--
-- A design is plain data: `{ name=, components = { {kind=, section=, level=}, ... },
-- crew = { level, ... } }` with sections 1..6 (outer) and 7 (core). `build` turns it into the
-- ship record kept in the piece's values (every system fully charged, as the quick setup says).
--
-- Deliberately absent: the board and the turn. Example: `design.cost(designs.lancer) <= 80`.
local D = require("data")

---A system of a design: its kind, the section it sits in (1..7) and its level (1..6).
---@class DesignComponent
---@field kind string
---@field section integer
---@field level integer

---A design: the systems bought and the level of each crew team.
---@class Design
---@field id? string
---@field name? string
---@field components DesignComponent[]
---@field crew integer[]

---What charging a component reads and changes (power.lua; tests make bare ones).
---@class Chargeable
---@field kind string
---@field level integer
---@field charge integer
---@field partial integer       -- a shield's power towards its next charge
---@field over integer          -- a beam's overcharge levels
---@field dead? boolean

---A component of a ship record (see M.build): its design entry plus its charge and history.
---@class Component: DesignComponent, Chargeable
---@field over_round integer
---@field fired_round integer
---@field charged_round integer
---@field dead boolean

---A crew team of a ship record.
---@class CrewTeam
---@field level integer
---@field used_round integer

---A ship record: the values of a ship piece (see M.build).
---@class ShipRecord
---@field design string
---@field design_final? boolean
---@field comps Component[]
---@field crew CrewTeam[]
---@field hull integer[]        -- integrity by section 1..7
---@field bank_round integer
---@field bank_mv integer
---@field bank_mn integer
---@field pool_round integer
---@field pool integer

local M = {}

---Points a system of `kind` costs at `level` (nil if the level is outside 1..6).
---@param kind string
---@param level integer
---@return integer|nil
function M.level_cost(kind, level)
  local row = D.cost[kind]
  return row and row[level]
end

---Total point cost of a design (components and crew).
---@param design Design
---@return integer
function M.cost(design)
  local total = 0
  for _, c in ipairs(design.components or {}) do
    total = total + (M.level_cost(c.kind, c.level) or 0)
  end
  for _, lvl in ipairs(design.crew or {}) do
    total = total + (M.level_cost("crew", lvl) or 0)
  end
  return total
end

---Whether a component of `kind` may go into `section`, given the components already there
---(list of kinds). Returns true or false, reason.
---@param kind string
---@param section integer
---@param kinds_in_section string[]
---@return boolean ok
---@return string|nil why
---@return_overload true
---@return_overload false, string
function M.can_place(kind, section, kinds_in_section)
  if not D.cost[kind] or kind == "crew" then return false, "unknown component kind " .. tostring(kind) end
  if type(section) ~= "number" or section < 1 or section > D.sections then
    return false, "no section " .. tostring(section)
  end
  local allowed = D.allowed_sections[kind]
  if allowed then
    local ok = false
    for _, s in ipairs(allowed) do if s == section then ok = true end end
    if not ok then
      return false, kind .. " must be placed in section " .. table.concat(allowed, ", ")
    end
  end
  if section == D.core and D.not_in_core[kind] then
    return false, kind .. " can not be placed in the core section"
  end
  if #kinds_in_section >= D.slots_per_section then
    return false, "section " .. section .. " has no free slot"
  end
  local limit = D.max_per_section[kind]
  if limit then
    local n = 0
    for _, k in ipairs(kinds_in_section) do if k == kind then n = n + 1 end end
    if n >= limit then return false, "at most " .. limit .. " " .. kind .. " per section" end
  end
  return true
end

---Validate a whole design against the slot and placement rules and the point budget.
---Returns true, or false and the list of every problem.
---@param design Design
---@param budget? integer default D.design_points
---@return boolean ok
---@return string[]|nil problems
---@return_overload true
---@return_overload false, string[]
function M.validate(design, budget)
  budget = budget or D.design_points
  local problems = {}
  local per = {}
  for s = 1, D.sections do per[s] = {} end
  for i, c in ipairs(design.components or {}) do
    if not M.level_cost(c.kind, c.level) or c.kind == "crew" then
      problems[#problems + 1] = ("component %d: %s at level %s is not buyable"):format(i, tostring(c.kind), tostring(c.level))
    else
      local ok, why = M.can_place(c.kind, c.section, per[c.section] or {})
      if not ok then
        problems[#problems + 1] = ("component %d: %s"):format(i, why)
      else
        table.insert(per[c.section], c.kind)
      end
    end
  end
  for i, lvl in ipairs(design.crew or {}) do
    if not M.level_cost("crew", lvl) then
      problems[#problems + 1] = ("crew team %d: level %s is not buyable"):format(i, tostring(lvl))
    end
  end
  local cost = M.cost(design)
  if cost > budget then
    problems[#problems + 1] = ("the design costs %d points, more than %d"):format(cost, budget)
  end
  if #problems > 0 then return false, problems end
  return true
end

---Charge capacity of a component (what "fully charged" means).
---@param comp DesignComponent
---@return integer
function M.capacity(comp)
  if comp.kind == "torpedo" then return D.torpedo.capacity end
  if comp.kind == "generator" then return 0 end
  return comp.level
end

---A ship record (piece values) built from a design, all systems fully charged.
---@param design Design
---@param id? string the design's name in the record (default design.id or "custom")
---@return ShipRecord
function M.build(design, id)
  local comps = {}
  for _, c in ipairs(design.components or {}) do
    local comp = { kind = c.kind, section = c.section, level = c.level, charge = 0, partial = 0, over = 0, over_round = 0, fired_round = 0, charged_round = 0, dead = false }
    comp.charge = M.capacity(comp)
    comps[#comps + 1] = comp
  end
  local crew = {}
  for _, lvl in ipairs(design.crew or {}) do crew[#crew + 1] = { level = lvl, used_round = 0 } end
  local hull = {}
  for s = 1, D.sections do hull[s] = D.section_integrity end
  return {
    design = id or design.id or "custom",
    comps = comps,
    crew = crew,
    hull = hull,
    bank_round = 0, bank_mv = 0, bank_mn = 0,
    pool_round = 0, pool = 0,
  }
end

---The design currently described by a ship record (for re-validation after changes).
---@param ship ShipRecord
---@return Design
function M.of_ship(ship)
  local d = { components = {}, crew = {} }
  for _, c in ipairs(ship.comps) do
    d.components[#d.components + 1] = { kind = c.kind, section = c.section, level = c.level }
  end
  for _, c in ipairs(ship.crew) do d.crew[#d.crew + 1] = c.level end
  return d
end

return M
