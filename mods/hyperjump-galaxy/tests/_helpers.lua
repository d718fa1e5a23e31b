-- Shared helpers for the bot tests (plain functions over the test harness's game handle `g`);
-- a file whose name starts with `_` is a module the tests require, not a test file.
local R = require("rules")

local H = {}

---The frontier scenario at `seed` (default 1).
function H.game(t, seed) return t:game { scenario = "frontier", seed = seed or 1 } end

---Put a piece in a box, off any ship.
function H.put(g, id, loc, slot)
  g:edit(function(ctx)
    ctx:place(id, { location = loc, slot = slot })
    ctx:set(id, "aboard", 0)
    ctx:set(id, "stack", "military")
  end)
end

---Move a transport (and what is aboard) to a planet's orbit box.
function H.fly(g, id, planet)
  g:edit(function(ctx) R.relocate(ctx, ctx:piece(id), planet, "orbit") end)
end

---End segments (nobody acting otherwise) until `side`'s `phase` of round `round`.
function H.skip_to(g, round, side, phase)
  for _ = 1, 200 do
    local c = g:clock()
    if c.round == round and c.active == side and c.phase == phase then return end
    g:end_phase(assert(c.acting[1], "a side acts"))
  end
  error("never reached round " .. round)
end

---The action bot `name` picks for `side`.
function H.pick(g, name, side) return assert(g:bot(name, side), side .. " has legal actions") end

return H
