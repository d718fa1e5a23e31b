-- Hyperspace: who may enter, the clear corridor, staying, no fire on entry or exit.
-- Lab map: radius 8; asteroid wall (-5,-2) (-4,-2) (-3,-2); blue planetoid (4,-2) in turn 1;
-- red planetoid (-4,3) in turn 2.
local K = require("testkit")

test("H1 bases never enter hyperspace; damaged ships neither", function(t)
  local g = K.lab(t)
  local b = K.spawn(g, "mobile_base", "north", { q = -1, r = 3 })
  local ok, why = g:try { id = "hyperspace_in", side = "north", piece = b, dir = 0 }
  t:falsy(ok)
  t:eq(why, "bases cannot enter hyperspace")
  local c = K.spawn(g, "cruiser", "north", { q = 2, r = 4 }, 0, { damage = 1 })
  ok, why = g:try { id = "hyperspace_in", side = "north", piece = c, dir = 0 }
  t:falsy(ok)
  t:eq(why, "only undamaged ships enter hyperspace")
end)

test("H2 a cruiser needs 9 clear hexes straight ahead of its bow", function(t)
  local g = K.lab(t)
  local c = K.spawn(g, "cruiser", "north", { q = -1, r = 5 }, 0)  -- corridor (-1,4) .. (-1,-4)
  local ok, why = g:try { id = "hyperspace_in", side = "north", piece = c, dir = 1 }
  t:falsy(ok)
  t:eq(why, "the corridor must lie straight ahead of the bow")
  K.spawn(g, "fighter", "south", { q = -1, r = -4 })
  ok, why = g:try { id = "hyperspace_in", side = "north", piece = c, dir = 0 }
  t:falsy(ok)
  t:eq(why, "the hyperspace corridor is blocked by an enemy")
  local wall = K.spawn(g, "cruiser", "north", { q = -4, r = 2 }, 0)  -- wall at (-4,-2)
  ok, why = g:try { id = "hyperspace_in", side = "north", piece = wall, dir = 0 }
  t:falsy(ok)
  t:eq(why, "the hyperspace corridor is blocked by an obstacle")
  local edge = K.spawn(g, "cruiser", "north", { q = 2, r = -3 }, 0)
  ok, why = g:try { id = "hyperspace_in", side = "north", piece = edge, dir = 0 }
  t:falsy(ok)
  t:eq(why, "the hyperspace corridor leaves the board")
  local planetoid = K.spawn(g, "cruiser", "north", { q = 4, r = 2 }, 0) -- (4,-2) in the way
  ok, why = g:try { id = "hyperspace_in", side = "north", piece = planetoid, dir = 0 }
  t:falsy(ok)
  t:eq(why, "the hyperspace corridor is blocked by an obstacle")
  -- Own pieces in the corridor do not matter.
  local clear = K.spawn(g, "cruiser", "north", { q = 1, r = 5 }, 0)     -- corridor (1,4) .. (1,-4)
  K.spawn(g, "fighter", "north", { q = 1, r = 0 })
  g:act { id = "hyperspace_in", side = "north", piece = clear, dir = 0 }
  t:eq(g:piece(clear).values.in_hyperspace, true)
end)

test("H2 a fighter's corridor may point in any straight direction", function(t)
  local g = K.lab(t)
  local f = K.spawn(g, "fighter", "north", { q = -4, r = 0 })
  local ok, why = g:try { id = "hyperspace_in", side = "north", piece = f, dir = 0 }
  t:falsy(ok)
  t:eq(why, "the hyperspace corridor is blocked by an obstacle")
  g:act { id = "hyperspace_in", side = "north", piece = f, dir = 2 }   -- (-3,0) .. (5,0)
  t:eq(g:piece(f).hex, nil)
  t:eq(g:piece(f).values.in_hyperspace, true)
end)

test("H2 a corridor may not cross an explosion", function(t)
  local g = K.lab(t)
  local c = K.spawn(g, "cruiser", "north", { q = -1, r = 5 }, 0)
  g:edit(function(ctx) ctx:set_global("blasts", { ["-1,0"] = "south" }) end)
  local ok, why = g:try { id = "hyperspace_in", side = "north", piece = c, dir = 0 }
  t:falsy(ok)
  t:eq(why, "the hyperspace corridor crosses an explosion")
end)

test("H4 entering is the ship's whole turn: not after moving or firing, no fire after", function(t)
  local g = K.lab(t)
  local c = K.spawn(g, "cruiser", "north", { q = -1, r = 5 }, 0)
  local f = K.spawn(g, "fighter", "south", { q = 2, r = 4 })
  g:act { id = "step", side = "north", piece = c, dir = 0 }
  local ok, why = g:try { id = "hyperspace_in", side = "north", piece = c, dir = 0 }
  t:falsy(ok)
  t:eq(why, "entering hyperspace takes the ship's whole turn")
  local c2 = K.spawn(g, "cruiser", "north", { q = 1, r = 5 }, 0)
  g:act { id = "hyperspace_in", side = "north", piece = c2, dir = 0 }
  ok, why = g:try { id = "fire", side = "north", piece = c2, target = f }
  t:falsy(ok)
  t:eq(why, "piece " .. c2 .. " is not on the board")
end)

test("H3 H4 a ship stays in hyperspace as long as it likes, and cannot fire as it leaves", function(t)
  local g = K.lab(t)
  local c = K.spawn(g, "cruiser", "north", { q = -1, r = 5 }, 0)
  local f = K.spawn(g, "fighter", "south", { q = 3, r = 3 })
  g:act { id = "hyperspace_in", side = "north", piece = c, dir = 0 }
  local ok, why = g:try { id = "hyperspace_out", side = "north", piece = c, at = { q = 1, r = 2 }, facing = 0 }
  t:falsy(ok)
  t:eq(why, "a ship cannot leave hyperspace in the turn it entered")
  K.next_turn(g)
  K.next_turn(g)
  t:eq(g:piece(c).values.in_hyperspace, true)
  ok, why = g:try { id = "hyperspace_out", side = "north", piece = c, at = { q = 0, r = 2 }, facing = 0 }
  t:falsy(ok)
  t:eq(why, "the hyperspace corridor is blocked by an obstacle")       -- the home planet (0,-7)
  g:act { id = "hyperspace_out", side = "north", piece = c, at = { q = 1, r = 2 }, facing = 0 }
  t:eq(K.hex(g:piece(c)), { q = 1, r = 2 })
  t:eq(g:footprint(c), { { q = 1, r = 2 }, { q = 1, r = 3 } })
  ok, why = g:try { id = "fire", side = "north", piece = c, target = f }
  t:falsy(ok)
  t:eq(why, "piece " .. c .. " entered or left hyperspace this turn")
end)

test("C2 a transport leaving hyperspace onto a planetoid may not colonise in that go", function(t)
  local g = K.lab(t)
  local tr = K.spawn(g, "transport", "north", { q = 0, r = 3 }, 0)
  g:act { id = "hyperspace_in", side = "north", piece = tr, dir = 0 }
  K.next_turn(g)                                                        -- turn 2: red
  -- Bow on the red planetoid (-4,3), facing NE: corridor (-3,2) .. (5,-6).
  g:act { id = "hyperspace_out", side = "north", piece = tr, at = { q = -4, r = 3 }, facing = 1 }
  local ok, why = g:try { id = "colonise", side = "north", piece = tr, at = { q = -4, r = 3 } }
  t:falsy(ok)
  t:eq(why, "piece " .. tr .. " entered or left hyperspace this turn")
  K.next_turn(g)                                                        -- turn 3: yellow
  K.next_turn(g)
  K.next_turn(g)                                                        -- turn 5: red again
  g:act { id = "colonise", side = "north", piece = tr, at = { q = -4, r = 3 } }
  t:eq(#g:pieces { owner = "north", type = "fixed_base" }, 1)
end)

-- The listing keeps what it found per scene (map, explosions, enemies) and per piece: these
-- changes must each change what is listed, and every listed choice must pass its check.
test("listed exits and moves follow enemies, explosions and the piece, and all pass the check", function(t)
  local g = K.lab(t)
  local c = K.spawn(g, "cruiser", "north", { q = -1, r = 5 }, 0)
  local m = K.spawn(g, "cruiser", "north", { q = 3, r = 3 }, 0)
  g:act { id = "hyperspace_in", side = "north", piece = c, dir = 0 }
  K.next_turn(g)
  ---@param id string
  ---@return table[]
  local function listed(id)
    local out = {}
    for _, a in ipairs(g:legal("north")) do
      if a.id == id then
        t:ok(g:check(a))
        out[#out + 1] = a
      end
    end
    return out
  end
  local function has(list, at, facing)
    for _, a in ipairs(list) do
      if a.at.q == at.q and a.at.r == at.r and a.facing == facing then return true end
    end
    return false
  end
  local exits = listed("hyperspace_out")
  t:ok(has(exits, { q = 0, r = 3 }, 0))
  -- An enemy in the corridor (0,2) .. (0,-6) closes that exit, and only while it stands there.
  local f = K.spawn(g, "fighter", "south", { q = 0, r = -3 })
  t:falsy(has(listed("hyperspace_out"), { q = 0, r = 3 }, 0))
  g:edit(function(ctx) ctx:destroy(f) end)
  t:ok(has(listed("hyperspace_out"), { q = 0, r = 3 }, 0))
  -- So does an explosion.
  g:edit(function(ctx) ctx:set_global("blasts", { ["0,-1"] = "south" }) end)
  t:falsy(has(listed("hyperspace_out"), { q = 0, r = 3 }, 0))
  t:eq(#listed("hyperspace_out") < #exits, true)
  -- A ship's own moves follow it: after a step it is listed from where it now stands.
  local before = #listed("step")
  t:eq(before > 0, true)
  g:act { id = "step", side = "north", piece = m, dir = 0 }
  for _, a in ipairs(listed("step")) do t:eq(a.piece, m) end
  K.set(g, m, "steps", 99)
  t:eq(#listed("step"), 0)
end)
