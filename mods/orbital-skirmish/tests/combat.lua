-- Fire: defensive fire along the mover's path, offensive fire, range, arcs, planets, to-hit,
-- range loss, damage, ammunition, interceptors and hull. Duel scenario: ship 1 Blue's frigate,
-- ship 2 Red's frigate; frigate weapon mounts: 1 laser cannon, 2 laser battery, 3 torpedo,
-- 4 rocket battery. Planet at (0,0).
local C = require("combat")

local function put(g, id, h, f)
  g:edit(function(ctx) ctx:move(id, h, f) end)
end

-- Skip Blue's move (ship 1 counts as moved, staying where it is).
local function blue_moved(g)
  g:edit(function(ctx)
    local p = ctx:piece(1)
    ctx:set(1, "moved", true)
    ctx:set(1, "path", { p.hex })
  end)
  g:end_phase("blue")
end

-- To Blue's offensive fire.
local function to_offensive(g)
  blue_moved(g)
  g:end_phase("red")
end

-- The to-hit roll and damage roll of the last fire action, checked against `chance`.
local function check_shot(t, g, target, before, chance)
  local rolls = g:rolls()
  t:ok(#rolls >= 1)
  local hit = rolls[1].total <= chance
  local p = g:piece(target)
  if hit then
    t:eq(#rolls, 2)
    local left = 40 - before - rolls[2].total
    if left <= 0 then t:eq(p, nil) else t:eq(p.values.damage, before + rolls[2].total) end
  else
    t:eq(#rolls, 1)
    t:eq(p.values.damage, before)
  end
  return hit
end

test("a turn has two halves: move, the other side's defensive fire, offensive fire", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  local function at(phase, active, acting)
    local c = g:clock()
    t:eq({ c.phase, c.active, c.acting }, { phase, active, { acting } })
  end
  at("move", "blue", "blue")
  blue_moved(g); at("defensive_fire", "blue", "red")
  g:end_phase("red"); at("offensive_fire", "blue", "blue")
  g:end_phase("blue"); at("move", "red", "red")
  t:eq(g:clock().round, 1)
end)

test("defensive fire may hit the mover in any hex of the path it flew", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  put(g, 2, { q = 6, r = 0 }, 3)
  put(g, 1, { q = 3, r = 4 }, 0)
  g:edit(function(ctx) ctx:set(1, "speed", 6) end)
  g:act { id = "speed", side = "blue", piece = 1, speed = 6 }
  g:act { id = "move", side = "blue", piece = 1, plan = "FFFFFF" } -- ends at (3,-2), 5 hexes away
  g:end_phase("blue")
  local ok, why = g:try { id = "fire", side = "red", piece = 2, weapon = 4, target = 1, at = { q = 3, r = -2 } }
  t:falsy(ok); t:matches(why, "out of range: 5 hexes, the rocket_battery reaches 3")
  ok, why = g:try { id = "fire", side = "red", piece = 2, weapon = 4, target = 1, at = { q = 0, r = 5 } }
  t:falsy(ok); t:matches(why, "not on the target's path")
  local offered
  for _, a in ipairs(g:legal("red")) do
    if a.id == "fire" and a.weapon == 4 then offered = a.at end
  end
  t:eq(offered, { q = 3, r = 3 }) -- the first hex of the path within range 3
  g:act { id = "fire", side = "red", piece = 2, weapon = 4, target = 1, at = { q = 3, r = 1 } }
  t:eq(g:piece(2).values.ammo.rocket_battery, 3)
  g:act { id = "intercept", side = "blue", count = 1 }
  check_shot(t, g, 1, 0, 40 - 1 * 3)
  t:eq(g:piece(1).values.icm, 3)
end)

test("torpedoes and assault rockets fire only in their own offensive fire", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  put(g, 2, { q = 4, r = 2 }, 3); put(g, 1, { q = 4, r = 4 }, 0)
  blue_moved(g)
  local ok, why = g:try { id = "fire", side = "red", piece = 2, weapon = 3, target = 1 }
  t:falsy(ok); t:matches(why, "only in its own offensive fire")
  g:end_phase("red")
  g:act { id = "fire", side = "blue", piece = 1, weapon = 3, target = 2 }
  t:eq(g:piece(1).values.ammo.torpedo, 1)
end)

test("each weapon fires once per fire phase", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  put(g, 2, { q = 4, r = 0 }, 3); put(g, 1, { q = 4, r = 4 }, 0)
  to_offensive(g)
  g:act { id = "fire", side = "blue", piece = 1, weapon = 2, target = 2 }
  local ok, why = g:try { id = "fire", side = "blue", piece = 1, weapon = 2, target = 2 }
  t:falsy(ok); t:matches(why, "already fired this phase")
  -- Red's turn; in Red's offensive fire Blue's defensive fire is a new fire phase.
  g:end_phase("blue")
  g:edit(function(ctx)
    ctx:set(2, "moved", true)
    ctx:set(2, "path", { assert(ctx:piece(2), "ship 2 is in the game").hex })
  end)
  g:end_phase("red")
  t:eq(g:clock().phase, "defensive_fire")
  g:act { id = "fire", side = "blue", piece = 1, weapon = 2, target = 2 }
  ok, why = g:try { id = "fire", side = "blue", piece = 1, weapon = 2, target = 2 }
  t:falsy(ok); t:matches(why, "already fired this phase")
end)

test("to hit: d100 at most the chance; lasers lose 5 points per hex of range", function(t)
  t:eq(C.chance(50, 5, 4, 0, 0), 30)
  t:eq(C.chance(60, 5, 10, 0, 0), 10)
  t:eq(C.chance(60, 5, 13, 0, 0), 0)
  local hits = 0
  for seed = 1, 12 do
    local g = t:game { scenario = "duel", seed = seed }
    put(g, 2, { q = 4, r = 0 }, 3); put(g, 1, { q = 4, r = 4 }, 0) -- range 4
    to_offensive(g)
    g:act { id = "fire", side = "blue", piece = 1, weapon = 2, target = 2 } -- laser battery 50%
    if check_shot(t, g, 2, 0, 30) then hits = hits + 1 end
    local r = g:rolls()
    local to_hit = assert(r[1], "the to-hit roll")
    t:ok(to_hit.total >= 1 and to_hit.total <= 100)
    if #r == 2 then t:ok(r[2].total >= 1 and r[2].total <= 10) end -- 1d10
  end
  t:ok(hits < 12)
end)

test("range counts the target's hex; ships in one hex fire at range 0 without penalty", function(t)
  local g = t:game { scenario = "duel", seed = 3 }
  put(g, 2, { q = 2, r = 2 }, 3); put(g, 1, { q = 2, r = 2 }, 0)
  to_offensive(g)
  g:act { id = "fire", side = "blue", piece = 1, weapon = 1, target = 2 } -- laser cannon, same hex
  check_shot(t, g, 2, 0, 60)
  g = t:game { scenario = "duel", seed = 3 }
  put(g, 2, { q = 4, r = -6 }, 3); put(g, 1, { q = 4, r = 4 }, 0) -- 10 hexes straight ahead
  to_offensive(g)
  t:ok(g:try { id = "fire", side = "blue", piece = 1, weapon = 1, target = 2 })
  check_shot(t, g, 2, 0, 20) -- 60 - 10 x 5, +10 head-on
  put(g, 2, { q = 4, r = -7 }, 3)
  local ok, why = g:try { id = "fire", side = "blue", piece = 1, weapon = 2, target = 2 }
  t:falsy(ok); t:matches(why, "out of range: 11 hexes, the laser_battery reaches 9")
end)

-- The last log line of the last action (the shot's).
local function last_line(g)
  local log = g:log()
  local lines = log[#log].events
  return lines[#lines] or ""
end

test("forward-firing weapons fire into a band three hexes wide straight ahead", function(t)
  local O = { q = 0, r = 0 }
  -- Facing N: the centre row (0,-k), the rows from (1,-1) and (-1,0) on, the ship's own hex.
  t:eq(C.forward_band(O, 0, { q = 0, r = -3 }), "centre")
  t:eq(C.forward_band(O, 0, { q = 1, r = -3 }), "side")
  t:eq(C.forward_band(O, 0, { q = -1, r = -2 }), "side")
  t:eq(C.forward_band(O, 0, O), "own")
  t:eq(C.forward_band(O, 0, { q = 2, r = -3 }), nil)   -- two rows off
  t:eq(C.forward_band(O, 0, { q = 1, r = 0 }), nil)    -- beside, not ahead
  t:eq(C.forward_band(O, 0, { q = 0, r = 3 }), nil)    -- behind
  t:ok(C.in_forward_band(O, 2, { q = 3, r = 1 }))      -- facing SE: the row beside the centre
  t:falsy(C.in_forward_band(O, 2, { q = 3, r = 2 }))
  local g = t:game { scenario = "duel", seed = 1 }
  put(g, 2, { q = 6, r = 2 }, 3); put(g, 1, { q = 4, r = 4 }, 0) -- NE of the band
  to_offensive(g)
  local ok, why = g:try { id = "fire", side = "blue", piece = 1, weapon = 1, target = 2 }
  t:falsy(ok); t:matches(why, "laser_cannon fires only into the band straight ahead")
  t:ok(g:try { id = "fire", side = "blue", piece = 1, weapon = 2, target = 2 }) -- battery: any arc
end)

test("head-on: +10 to a forward-firing weapon at the centre row, none beside it", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  put(g, 2, { q = 4, r = 1 }, 3); put(g, 1, { q = 4, r = 4 }, 0) -- 3 hexes straight ahead
  to_offensive(g)
  g:act { id = "fire", side = "blue", piece = 1, weapon = 1, target = 2 }
  t:matches(last_line(g), "range 3: 55%%") -- 60 - 15 + 10
  g = t:game { scenario = "duel", seed = 1 }
  put(g, 2, { q = 5, r = 1 }, 3); put(g, 1, { q = 4, r = 4 }, 0) -- the row beside it
  to_offensive(g)
  g:act { id = "fire", side = "blue", piece = 1, weapon = 1, target = 2 }
  t:matches(last_line(g), "range 3: 45%%")
end)

-- Blue's frigate flies north from (4,4) into red's hex (4,2), then Blue's movement ends.
local function fly_into_red(g)
  g:edit(function(ctx)
    ctx:move(1, { q = 4, r = 2 }, 0)
    ctx:set(1, "moved", true)
    ctx:set(1, "path", { { q = 4, r = 4 }, { q = 4, r = 3 }, { q = 4, r = 2 } })
  end)
  g:end_phase("blue")
end

test("head-on when the firer entered the target's hex; defensive forward fire only at a mover from the band", function(t)
  -- Blue's frigate flies into red's hex: head-on for its laser cannon in offensive fire.
  local g = t:game { scenario = "duel", seed = 1 }
  put(g, 2, { q = 4, r = 2 }, 3); put(g, 1, { q = 4, r = 4 }, 0)
  fly_into_red(g)
  -- Red's defensive fire: red faces S (3); blue came in from (4,3), straight ahead of red's bow.
  t:ok(g:check { id = "fire", side = "red", piece = 2, weapon = 1, target = 1, at = { q = 4, r = 2 } })
  g:end_phase("red")
  g:act { id = "fire", side = "blue", piece = 1, weapon = 1, target = 2 }
  t:matches(last_line(g), "range 0: 70%%") -- 60 + 10
  -- The same move against a red frigate facing N: blue came in from behind it.
  g = t:game { scenario = "duel", seed = 1 }
  put(g, 2, { q = 4, r = 2 }, 0); put(g, 1, { q = 4, r = 4 }, 0)
  fly_into_red(g)
  local ok, why = g:check { id = "fire", side = "red", piece = 2, weapon = 1, target = 1, at = { q = 4, r = 2 } }
  t:falsy(ok); t:matches(why, "entered its hex only if it came from the band ahead")
  t:ok(g:check { id = "fire", side = "red", piece = 2, weapon = 2, target = 1, at = { q = 4, r = 2 } }) -- battery
end)

test("a planet blocks fire only when every shortest path passes through it", function(t)
  local function blocked(a, b, list)
    local set = {}
    for _, h in ipairs(list) do set[h.q .. "," .. h.r] = true end
    return C.los_blocked(a, b, list, function(h) return set[h.q .. "," .. h.r] == true end)
  end
  local O = { q = 0, r = 0 }
  t:ok(blocked(O, { q = 0, r = 3 }, { { q = 0, r = 1 } }))           -- straight line through it
  t:falsy(blocked(O, { q = 3, r = 1 }, { { q = 2, r = 0 } }))        -- the centre line clips it,
  -- but (0,1) (1,1) (2,1) is an equally short chain round it
  t:falsy(blocked(O, { q = 3, r = 1 }, { { q = 2, r = -1 } }))       -- off every chain
  t:ok(blocked(O, { q = 3, r = 1 }, { { q = 1, r = 0 }, { q = 0, r = 1 }, { q = 1, r = 1 } }))
  t:falsy(blocked(O, { q = 3, r = 1 }, { { q = 1, r = 0 }, { q = 3, r = 0 } })) -- by (0,1) (1,1)
  t:falsy(blocked(O, { q = 1, r = -2 }, { { q = 0, r = -1 } }))      -- along a hexside: go round
  t:ok(blocked(O, { q = 1, r = -2 }, { { q = 0, r = -1 }, { q = 1, r = -1 } })) -- both sides
  -- In the game: the planet at (0,0) sits between the frigates.
  local g = t:game { scenario = "duel", seed = 1 }
  put(g, 2, { q = 0, r = 3 }, 0); put(g, 1, { q = 0, r = -3 }, 3)
  to_offensive(g)
  local ok, why = g:try { id = "fire", side = "blue", piece = 1, weapon = 1, target = 2 }
  t:falsy(ok); t:matches(why, "a planet blocks the line of fire")
  for _, a in ipairs(g:legal("blue")) do t:falsy(a.id == "fire") end
end)

test("interceptors are declared against one torpedo before it is rolled, lower its chance by 10 each, and are used up", function(t)
  for seed = 1, 6 do
    local g = t:game { scenario = "duel", seed = seed }
    put(g, 2, { q = 4, r = 2 }, 3); put(g, 1, { q = 4, r = 4 }, 0)
    to_offensive(g)
    g:act { id = "fire", side = "blue", piece = 1, weapon = 3, target = 2 }
    -- Nothing rolled yet: Red answers first, and nobody else acts or ends the phase meanwhile.
    t:eq(#g:rolls(), 0)
    t:eq(g:clock().acting, { "red" })
    t:eq(g:clock().phase, "offensive_fire")
    local ok, why = g:try { id = "fire", side = "blue", piece = 1, weapon = 2, target = 2 }
    t:falsy(ok); t:matches(why, "blue cannot act now")
    ok, why = g:try { id = "end_phase", side = "red" }
    t:falsy(ok); t:matches(why, "red must answer first")
    g:act { id = "intercept", side = "red", count = 3 }
    if g:exists(2) then t:eq(g:piece(2).values.icm, 1) end
    check_shot(t, g, 2, 0, 70 - 3 * 10)
    -- The shot is settled: Blue's offensive fire goes on.
    t:eq(g:clock().acting, { "blue" })
  end
end)

test("interceptors at one attack: 0 to 3, never more than the ship has left, only by the target's side", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  put(g, 2, { q = 4, r = 2 }, 3); put(g, 1, { q = 4, r = 4 }, 0)
  to_offensive(g)
  local ok, why = g:try { id = "intercept", side = "blue", count = 1 }
  t:falsy(ok); t:matches(why, "none is asked now")
  g:edit(function(ctx) ctx:set(2, "icm", 2) end)
  g:act { id = "fire", side = "blue", piece = 1, weapon = 3, target = 2 }
  local counts = {}
  for _, a in ipairs(g:legal("red")) do
    t:eq(a.id, "intercept")
    counts[#counts + 1] = a.count
  end
  t:eq(counts, { 0, 1, 2 })
  ok, why = g:try { id = "intercept", side = "red", count = 3 }
  t:falsy(ok); t:matches(why, "ship 2 may fire 0 to 2 interceptors at this torpedo")
  g:act { id = "intercept", side = "red", count = 0 }
  t:ok(g:piece(2) == nil or g:piece(2).values.icm == 2)
end)

test("lasers and ships without interceptors are not asked: the shot is rolled at once", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  put(g, 2, { q = 4, r = 2 }, 3); put(g, 1, { q = 4, r = 4 }, 0)
  to_offensive(g)
  g:act { id = "fire", side = "blue", piece = 1, weapon = 2, target = 2 }
  t:ok(#g:rolls() >= 1)
  t:eq(g:clock().acting, { "blue" })
  g:edit(function(ctx) ctx:set(2, "icm", 0) end)
  g:act { id = "fire", side = "blue", piece = 1, weapon = 3, target = 2 }
  t:ok(#g:rolls() >= 1)
  t:eq(g:clock().acting, { "blue" })
end)

test("limited ammunition runs out", function(t)
  local g = t:game { scenario = "duel", seed = 1 }
  put(g, 2, { q = 4, r = 2 }, 3); put(g, 1, { q = 4, r = 4 }, 0)
  g:edit(function(ctx) ctx:set(1, "ammo", { torpedo = 0, rocket_battery = 4 }) end)
  to_offensive(g)
  local ok, why = g:try { id = "fire", side = "blue", piece = 1, weapon = 3, target = 2 }
  t:falsy(ok); t:matches(why, "no torpedo ammunition left")
end)

test("damage comes off the hull; a ship at 0 hull is destroyed", function(t)
  local destroyed = 0
  for seed = 1, 10 do
    local g = t:game { scenario = "duel", seed = seed }
    put(g, 2, { q = 4, r = 2 }, 3); put(g, 1, { q = 4, r = 4 }, 0)
    g:edit(function(ctx) ctx:set(2, "damage", 39) end)
    to_offensive(g)
    g:act { id = "fire", side = "blue", piece = 1, weapon = 2, target = 2 } -- laser battery, 40%
    if check_shot(t, g, 2, 39, 40) then
      destroyed = destroyed + 1
      t:eq(assert(g:outcome(), "the game is over").winners, { "blue" })
    end
  end
  t:ok(destroyed > 0)
end)

test("the battleship carries two laser cannons, four batteries, 8 torpedoes, 10 rocket batteries and 20 interceptors", function(t)
  local stats ---@type ShipClass|nil
  for _, ship in ipairs(require("ships").ships) do
    if ship.id == "battleship" then stats = ship end
  end
  assert(stats, "ships.lua has a battleship")
  local count = {}
  for _, w in ipairs(stats.weapons) do count[w] = (count[w] or 0) + 1 end
  t:eq(count.laser_cannon, 2); t:eq(count.laser_battery, 4)
  t:eq(stats.ammo.torpedo, 8); t:eq(stats.ammo.rocket_battery, 10)
  t:eq(stats.interceptors, 20)
end)
