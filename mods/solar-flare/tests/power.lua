-- Power phase: the pool, crew teams, one team per component, batteries, overcharge burn.
local H = require("tests._helpers")

local function powering(t)
  local g = t:game { scenario = "range", seed = 5 }
  H.go(g, "red", "movement")
  local red = H.ship(g, "red")
  for _ = 1, 4 do g:act { id = "forward", side = "red", ship = red.id, evade = 0 } end -- engines 6 -> 2
  g:end_phase("red")
  return g, red
end

test("a crew team moves up to its level into one component", function(t)
  local g, red = powering(t)
  t:eq(g:clock().phase, "power")
  g:act { id = "transfer", side = "red", ship = red.id, crew = 1, comp = 7, amount = 3, battery = 0 }  -- engine 0 -> 3, from the generators
  local s = g:piece(red.id).values
  t:eq(s.comps[7].charge, 3)
  t:eq(s.pool, 5) -- 4 + generator 4 = 8, 3 used
  local ok, why = g:try { id = "transfer", side = "red", ship = red.id, crew = 1, comp = 9, amount = 1 }
  t:falsy(ok); t:matches(why, "already worked")
  ok, why = g:try { id = "transfer", side = "red", ship = red.id, crew = 2, comp = 7, amount = 1 }
  t:falsy(ok); t:matches(why, "another crew team")
  ok, why = g:try { id = "transfer", side = "red", ship = red.id, crew = 3, comp = 9, amount = 4 }
  t:falsy(ok); t:matches(why, "at most 3")
  ok, why = g:try { id = "transfer", side = "red", ship = red.id, crew = 3, comp = 13, amount = 1 }
  t:falsy(ok); t:matches(why, "generators")
end)

test("batteries: power beyond the generators comes from battery charge", function(t)
  local g, red = powering(t)
  g:act { id = "transfer", side = "red", ship = red.id, crew = 1, comp = 7, amount = 4, battery = 0 }
  g:act { id = "transfer", side = "red", ship = red.id, crew = 2, comp = 9, amount = 4, battery = 0 }
  local s = g:piece(red.id).values
  t:eq(s.pool, 0); t:eq(s.comps[14].charge, 4)
  -- overcharge a full beam by 1 with 1 power: all from the battery now
  g:act { id = "transfer", side = "red", ship = red.id, crew = 3, comp = 1, amount = 1 }
  s = g:piece(red.id).values
  t:eq(s.comps[1].over, 1); t:eq(s.comps[14].charge, 3)
  local ok, why = g:try { id = "transfer", side = "red", ship = red.id, crew = 4, comp = 14, amount = 1 }
  t:falsy(ok); t:matches(why, "not enough power") -- a battery does not charge from itself
end)

test("batteries: one battery charges from another", function(t)
  local g, red = powering(t)
  g:act { id = "transfer", side = "red", ship = red.id, crew = 1, comp = 7, amount = 4, battery = 0 }
  g:act { id = "transfer", side = "red", ship = red.id, crew = 2, comp = 9, amount = 4, battery = 0 }
  t:eq(g:piece(red.id).values.pool, 0)
  -- A second, empty battery beside battery 14 (charge 4).
  local n = #g:piece(red.id).values.comps + 1
  g:edit(function(ctx)
    ctx:set(red.id, { "comps", n }, { kind = "battery", section = 4, level = 4, charge = 0 })
  end)
  g:act { id = "transfer", side = "red", ship = red.id, crew = 3, comp = n, amount = 3 }
  local s = g:piece(red.id).values
  t:eq(s.comps[n].charge, 3); t:eq(s.comps[14].charge, 1)
end)

test("overcharge is lost after the next weapons phase and burns a level", function(t)
  local g, red = powering(t)
  g:act { id = "transfer", side = "red", ship = red.id, crew = 1, comp = 1, amount = 3, battery = 0 } -- over 2
  t:eq(g:piece(red.id).values.comps[1].over, 2)
  g:end_phase("red")
  H.go(g, "red", "weapons")
  t:eq(g:piece(red.id).values.comps[1].over, 2)
  g:end_phase("red")
  local c = g:piece(red.id).values.comps[1]
  t:eq(c.over, 0); t:eq(c.level, 3); t:eq(c.charge, 3)
end)

test("overcharge fired in the next weapons phase still burns a level", function(t)
  -- The rules: overcharging damages the beam (its maximum charge drops by 1) whether or not the
  -- overcharge is used; only unused overcharge is also lost.
  local g, red = powering(t)
  g:act { id = "transfer", side = "red", ship = red.id, crew = 1, comp = 1, amount = 3, battery = 0 } -- over 2
  g:end_phase("red")
  H.go(g, "red", "weapons")
  local blue = H.ship(g, "blue")
  local ok, why = g:try { id = "aim", side = "red", ship = red.id, weapon = 1, target = blue.id, hexside = 3, strength = 6 }
  t:ok(ok, why)
  g:act { id = "confirm", side = "red" }
  local c = g:piece(red.id).values.comps[1]
  t:eq(c.over, 0); t:eq(c.charge, 0); t:eq(c.level, 4)
  g:end_phase("red")
  c = g:piece(red.id).values.comps[1]
  t:eq(c.level, 3); t:eq(c.over, 0); t:eq(c.charge, 0)
end)
