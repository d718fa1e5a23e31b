-- Movement phase: main engines forward, thrusters turn, conversions, slides, asteroids, blocking.
local H = require("tests._helpers")

local function moving(t)
  local g = t:game { scenario = "range", seed = 3 }
  H.go(g, "red", "movement")
  return g, H.ship(g, "red")
end

local function engines(s) local n = 0 for _, c in ipairs(s.comps) do if c.kind == "engine" then n = n + c.charge end end return n end
local function thrusters(s) local n = 0 for _, c in ipairs(s.comps) do if c.kind == "thruster" then n = n + c.charge end end return n end

test("main engine: one charge moves one hex forward", function(t)
  local g, red = moving(t)
  g:act { id = "forward", side = "red", ship = red.id, evade = 0 }
  local p = g:piece(red.id)
  t:eq(p.hex, { q = 0, r = 2 }); t:eq(p.facing, 0)
  t:eq(engines(p.values), 5)
end)

test("thrusters: one charge turns one hexside either way", function(t)
  local g, red = moving(t)
  g:act { id = "turn", side = "red", ship = red.id, turn = 1 }
  t:eq(g:piece(red.id).facing, 1)
  g:act { id = "turn", side = "red", ship = red.id, turn = -1 }
  g:act { id = "turn", side = "red", ship = red.id, turn = -1 }
  t:eq(g:piece(red.id).facing, 5)
  t:eq(thrusters(g:piece(red.id).values), 1)
end)

test("slide: 3 manoeuvre points move one hex in any direction without turning", function(t)
  local g, red = moving(t)
  g:act { id = "slide", side = "red", ship = red.id, direction = 2, evade = 0 }
  local p = g:piece(red.id)
  t:eq(p.hex, { q = 1, r = 3 }); t:eq(p.facing, 0); t:eq(thrusters(p.values), 1)
  local ok, why = g:try { id = "slide", side = "red", ship = red.id, direction = 2, evade = 0 }
  t:falsy(ok); t:matches(why, "3 manoeuvre points")
end)

test("conversions: 3 engine charges buy a manoeuvre point; 3 manoeuvre points buy a movement point", function(t)
  local g, red = moving(t)
  g:act { id = "buy_manoeuvre", side = "red", ship = red.id }
  local p = g:piece(red.id)
  t:eq(engines(p.values), 3); t:eq(p.values.bank_mn, 1)
  g:act { id = "buy_movement", side = "red", ship = red.id }
  p = g:piece(red.id)
  t:eq(p.values.bank_mn, 0); t:eq(thrusters(p.values), 2); t:eq(p.values.bank_mv, 1)
  g:act { id = "forward", side = "red", ship = red.id, evade = 0 }
  p = g:piece(red.id)
  t:eq(p.values.bank_mv, 0); t:eq(engines(p.values), 3) -- the banked point was used first
end)

test("movement is blocked by planets, moons, ships and the board's edge", function(t)
  local g, red = moving(t)
  H.terrain(g, { { { q = 0, r = 2 }, "planet" } })
  local ok, why = g:try { id = "forward", side = "red", ship = red.id, evade = 0 }
  t:falsy(ok); t:matches(why, "planet or moon")
  g:edit(function(ctx) ctx:move(red.id, { q = 0, r = -2 }, 0) end)
  ok, why = g:try { id = "forward", side = "red", ship = red.id, evade = 0 }
  t:falsy(ok); t:matches(why, "another ship")
  g:edit(function(ctx) ctx:move(red.id, { q = 0, r = -8 }, 0) end)
  ok, why = g:try { id = "forward", side = "red", ship = red.id, evade = 0 }
  t:falsy(ok); t:matches(why, "off the board")
end)

test("asteroids: attacks equal to the engine rating, less the manoeuvre points spent", function(t)
  local g, red = moving(t)
  H.terrain(g, { { { q = 0, r = 2 }, "asteroid" } })
  local ok, why = g:try { id = "forward", side = "red", ship = red.id, evade = 7 }
  t:falsy(ok); t:matches(why, "more evasion")
  g:act { id = "forward", side = "red", ship = red.id, evade = 2 }
  t:eq(#H.dice(g), 4) -- Lancer engines 3 + 3 = 6 attacks, 2 cancelled
  t:eq(thrusters(g:piece(red.id).values), 2)
end)

test("out of charges: no movement", function(t)
  local g, red = moving(t)
  local blue = H.ship(g, "blue")
  g:edit(function(ctx) ctx:move(blue.id, { q = 4, r = 0 }, 0) end)
  for _ = 1, 6 do g:act { id = "forward", side = "red", ship = red.id, evade = 0 } end
  local ok, why = g:try { id = "forward", side = "red", ship = red.id, evade = 0 }
  t:falsy(ok); t:matches(why, "main engines are empty")
end)
