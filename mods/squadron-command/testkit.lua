-- squadron-command test helpers (used only by tests/*.lua): build a position, then drive a turn.
--
-- Not part of the rules: nothing in main.lua requires it.
--
-- Example:
--   local k = require("testkit")
--   local g = t:game { scenario = "skirmish", seed = 1 }
--   local ids = k.arrange(g, { { "battleship", "blue", 4, 4 }, { "fighter", "red", -4, 8 } })
--   k.to_move(g, "blue", "capital", { ids[1] })   -- command, order, end the order phase

local K = {}

-- Removes every unit and places the listed ones: { type, owner, q, r [, values] }.
-- Returns their new piece ids, in list order.
function K.arrange(g, list)
  local ids = {}
  g:edit(function(ctx)
    for _, p in ipairs(ctx:pieces {}) do
      ctx:destroy(p.id)
    end
    for i, u in ipairs(list) do
      ids[i] = ctx:create { type = u[1], owner = u[2], hex = { q = u[3], r = u[4] }, values = u[5] }
    end
  end)
  return ids
end

-- The active side gives command `by`, orders `ids` and ends the order phase.
function K.to_move(g, side, by, ids)
  g:act { id = "command", side = side, by = by }
  for _, id in ipairs(ids) do
    g:act { id = "order", side = side, piece = id }
  end
  g:end_phase(side)
end

-- As to_move, then ends the move phase too.
function K.to_fight(g, side, by, ids)
  K.to_move(g, side, by, ids)
  g:end_phase(side)
end

function K.move(g, side, piece, q, r, warp, impulse)
  return g:try { id = "move", side = side, piece = piece, to = { q = q, r = r }, warp = warp or false, impulse = impulse or false }
end

-- The legal actions of `side` with action id `id`.
function K.legal_of(g, side, id)
  local out = {}
  for _, a in ipairs(g:legal(side)) do
    if a.id == id then
      out[#out + 1] = a
    end
  end
  return out
end

-- Side `id` of the game (the test fails here if there is none).
---@param g TestGame
---@param id string
---@return Side
function K.side(g, id)
  local s = assert(g:side(id), "no side " .. id)
  return s
end

-- How the game ended (the test fails here while it goes on).
---@param g TestGame
---@return { winners: string[], reason: string }
function K.outcome(g)
  local o = assert(g:outcome(), "the game is not over")
  return o
end

-- If an alert left a unit more than one way back, its owner takes the first (the way the
-- directions in data.retire_dirs come). Returns the ways that were open, or nil.
function K.retire_first(g)
  local pending = g:global("pending_retire")
  if not pending then
    return nil
  end
  local owner = g:piece(pending.unit).owner
  local ways = K.legal_of(g, owner, "retire")
  g:act { id = "retire", side = owner, path = ways[1].path }
  return ways
end

return K
