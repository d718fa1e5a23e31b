-- testkit.lua: small helpers shared by tests/*.lua (not used by the rules).
local R = require("rules")

local K = {}

-- A fresh game on the test lab (round 1, blue, north to act).
function K.lab(t, seed)
  return t:game { scenario = "test-lab", seed = seed or 1 }
end

-- Put a piece on the board outside the rules; returns its id.
---@param g TestGame
---@param kind string
---@param owner string
---@param hex Hex
---@param facing? integer
---@param values? table
---@return integer
function K.spawn(g, kind, owner, hex, facing, values)
  local id ---@type integer
  g:edit(function(ctx)
    id = ctx:create { type = kind, owner = owner, hex = hex, facing = facing or 0, values = values }
  end)
  return id
end

---@param g TestGame
---@param id integer
---@param key string
---@param value any
function K.set(g, id, key, value)
  g:edit(function(ctx) ctx:set(id, key, value) end)
end

-- End both goes of the current turn (north then south).
---@param g TestGame
function K.next_turn(g)
  g:end_phase("north")
  g:end_phase("south")
end

function K.facing(p) return R.dir(p.facing) end

function K.hex(p) return p.hex and { q = p.hex.q, r = p.hex.r } or nil end

-- Tries seeds 1..80: `build(g)` sets the game up and returns the action to take; returns the
-- first game whose first roll of that action is a hit (`want` true: roll >= need) or a miss.
function K.seek(t, build, need, want)
  for seed = 1, 80 do
    local g = K.lab(t, seed)
    local action = build(g)
    g:act(action)
    local roll = g:rolls()[1].total
    if (roll >= need) == want then return g, roll end
  end
  t:fail("no seed gave the wanted roll")
end

return K
