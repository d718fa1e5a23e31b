-- Stacking, landing and lifting off (M3, S1-S5).
local R = require("rules")

local function game(t) return t:game { scenario = "frontier", seed = 5 } end
local function where(g, id) return R.where(g:piece(id)) end
local function put(g, id, loc, slot, stack)
  g:edit(function(ctx)
    ctx:place(id, { location = loc, slot = slot })
    ctx:set(id, "aboard", 0)
    if stack then ctx:set(id, "stack", stack) end
  end)
end
local function to_planet(g) g:end_phase("hegemony") end

test("setup puts troops aboard transports and characters aboard ships", function(t)
  local g = game(t)
  t:eq({ g:piece(9).values.aboard, g:piece(10).values.aboard }, { 4, 4 })
  t:eq({ g:piece(11).values.aboard, g:piece(12).values.aboard }, { 5, 5 })
  t:eq(g:piece(7).values.aboard, 6)   -- the pilot in the courier
  t:eq(g:piece(8).values.aboard, 1)   -- the admiral aboard a warship
  t:eq(g:piece(13).values.aboard, 0)
  t:eq({ where(g, 13) }, { "vessa_prime", "urban" })
  t:eq(g:piece(13).values.stack, "military")
  t:eq(g:piece(6).values.stack, "characters")
  t:eq(g:piece(1).values.stack, "military")
  -- Nothing is in orbit unless it is a ship or aboard one.
  for _, p in ipairs(g:pieces {}) do
    local _, slot = R.where(p)
    if slot == "orbit" and not R.is_ship(p.stats.class) then t:ok(p.values.aboard ~= 0) end
  end
end)

test("environ size per side: the other side counts separately", function(t)
  local g = game(t)
  put(g, 22, "vessa_prime", "wilds", "military")
  put(g, 23, "vessa_prime", "wilds", "military")
  to_planet(g)
  g:act { id = "land", side = "hegemony", piece = 9, to = "wilds" }
  g:act { id = "land", side = "hegemony", piece = 10, to = "wilds" }
  t:eq({ where(g, 9) }, { "vessa_prime", "wilds" })
  t:eq(g:piece(9).values.aboard, 0)
  t:eq(g:piece(9).values.stack, "military")
end)

test("a full environ cannot be entered", function(t)
  local g = game(t)
  to_planet(g)
  g:act { id = "land", side = "hegemony", piece = 9, to = "wilds" }
  g:act { id = "land", side = "hegemony", piece = 10, to = "wilds" }
  local ok, why = g:try { id = "land", side = "hegemony", piece = 11, to = "wilds" }
  t:falsy(ok)
  t:eq(why, "environ wilds of vessa_prime is full (size 2)")
  ok, why = g:try { id = "march", side = "hegemony", piece = 13, to = "wilds" }
  t:falsy(ok)
  t:matches(why, "is full")
  ok, why = g:try { id = "land", side = "hegemony", piece = 11, to = "seas" }
  t:falsy(ok)
  t:matches(why, "has no environ seas")
  -- Urban (size 3) still has room for two more besides trooper 13.
  g:act { id = "land", side = "hegemony", piece = 11, to = "urban" }
  g:act { id = "land", side = "hegemony", piece = 12, to = "urban" }
  t:eq(#g:pieces { owner = "hegemony", type = "trooper" }, 5)
end)

test("characters are unlimited in environs", function(t)
  local g = game(t)
  put(g, 9, "vessa_prime", "wilds", "military")
  put(g, 10, "vessa_prime", "wilds", "military")
  to_planet(g)
  g:act { id = "land", side = "hegemony", piece = 7, to = "wilds" }
  g:act { id = "land", side = "hegemony", piece = 8, to = "wilds" }
  t:eq({ where(g, 8) }, { "vessa_prime", "wilds" })
  t:eq(g:piece(8).values.stack, "characters")
end)

test("lifting off: ground units only into transports with room", function(t)
  local g = game(t)
  to_planet(g)
  local ok, why = g:try { id = "lift", side = "hegemony", piece = 13, carrier = 4 }
  t:falsy(ok)
  t:eq(why, "transport 4 is full (2 ground units)")
  ok, why = g:try { id = "lift", side = "hegemony", piece = 13, carrier = 2 }
  t:falsy(ok)
  t:eq(why, "only transports carry ground units")
  g:act { id = "land", side = "hegemony", piece = 9, to = "wilds" }
  g:act { id = "lift", side = "hegemony", piece = 13, carrier = 4 }
  t:eq(g:piece(13).values.aboard, 4)
  t:eq({ where(g, 13) }, { "vessa_prime", "orbit" })
  -- Landing needs a ship in orbit: units already in an environ cannot "land".
  ok, why = g:try { id = "land", side = "hegemony", piece = 9, to = "urban" }
  t:falsy(ok)
  t:matches(why, "not aboard a ship")
end)

test("three stacks stop the segment from ending", function(t)
  local g = game(t)
  put(g, 7, "vessa_prime", "urban", "characters")
  put(g, 9, "vessa_prime", "urban", "detached")
  local ok, why = g:try { id = "end_phase", side = "hegemony" }
  t:falsy(ok)
  t:matches(why, "more than 2 stacks in vessa_prime/urban")
  -- Rejoining the military stack fixes it.
  g:edit(function(ctx) ctx:set(9, "stack", "military") end)
  t:ok(g:try { id = "end_phase", side = "hegemony" })
end)

test("restack a character into the military stack", function(t)
  local g = game(t)
  put(g, 7, "vessa_prime", "urban", "characters")
  local ok, why = g:try { id = "restack", side = "hegemony", piece = 7, stack = "military" }
  t:falsy(ok)
  t:matches(why, "only in the planet segment")
  to_planet(g)
  g:act { id = "restack", side = "hegemony", piece = 7, stack = "military" }
  t:eq(g:piece(7).values.stack, "military")
  ok, why = g:try { id = "restack", side = "hegemony", piece = 13, stack = "characters" }
  t:falsy(ok)
  t:matches(why, "only characters and character spaceships")
  -- No military stack in the wilds: nothing to join.
  put(g, 8, "vessa_prime", "wilds", "characters")
  ok, why = g:try { id = "restack", side = "hegemony", piece = 8, stack = "military" }
  t:falsy(ok)
  t:matches(why, "no military stack")
end)

test("a character spaceship lands in an environ with its characters, any number of them, and takes off again", function(t)
  local g = game(t)
  to_planet(g)
  -- Courier 6 is in Vessa Prime's orbit box with its pilot (7) aboard.
  t:eq({ where(g, 6) }, { "vessa_prime", "orbit" })
  g:act { id = "land", side = "hegemony", piece = 6, to = "wilds" }
  t:eq({ where(g, 6) }, { "vessa_prime", "wilds" })
  t:eq({ where(g, 7) }, { "vessa_prime", "wilds" }) -- the pilot came down with it
  t:eq(g:piece(7).values.aboard, 6)
  t:eq(g:piece(6).values.stack, "characters")
  -- Environ size limits ground units only: the troopers still fit beside it (S1, S2).
  g:act { id = "land", side = "hegemony", piece = 9, to = "wilds" }
  g:act { id = "land", side = "hegemony", piece = 10, to = "wilds" }
  -- Landed, it cannot move in space; next planet segment it takes off.
  local ok, why = g:try { id = "take_off", side = "hegemony", piece = 6 }
  t:falsy(ok); t:matches(why, "already moved this segment")
  g:edit(function(ctx) ctx:set(6, "moved", "") end)
  g:act { id = "take_off", side = "hegemony", piece = 6 }
  t:eq({ where(g, 6) }, { "vessa_prime", "orbit" })
  t:eq({ where(g, 7) }, { "vessa_prime", "orbit" })
end)
