-- Hyperjumps: distance, rating, joint and emergency jumps, every result, drift areas (H1-H10).
-- Piece numbers in the frontier scenario: Hegemony warships 1-3 (admiral Tarsk, leadership 2,
-- aboard 1), transports 4-5 (troopers 9-12 aboard), courier 6 (pilot Nyla Voss, navigation 5,
-- piece 7), trooper 13 in Vessa Prime's urban environ; Accord warships 14-16, transports 17-18,
-- courier 19, characters 20-21, troopers 22-26.
local G = require("galaxy")
local R = require("rules")
local data = require("data")

local function game(t, seed) return t:game { scenario = "frontier", seed = seed or 1 } end

local function put(g, id, loc, slot)
  g:edit(function(ctx) ctx:place(id, { location = loc, slot = slot }) end)
end

-- The plan of a legal jump (an error with the reason when the jump is illegal).
local function plan(g, side, ships, to, emergency)
  local p, why ---@type table|nil, string|nil
  g:edit(function(ctx) p, why = R.jump_plan(ctx, side, ships, to, emergency) end)
  return assert(p, why)
end

local function where(g, id)
  local p = g:piece(id)
  if not p then return nil end
  return R.where(p)
end

local function to_combat(g)
  g:end_phase("hegemony")
  g:end_phase("hegemony")
end

local function result_for(total, diff, emergency)
  if emergency then return data.hyperjump.cells[G.row(total)][data.emergency_column + 2] end
  return G.result(0, diff, total)
end

-- Play `action` on fresh games (seeds 1..) prepared by `prepare`, until the 2d6 gives `want`.
local function find(t, want, prepare, action, diff, emergency)
  for seed = 1, 600 do
    local g = game(t, seed)
    prepare(g)
    g:act(action)
    local total = g:rolls()[1].total
    if result_for(total, diff, emergency) == want then return g, total end
  end
  t:fail("no seed gave " .. want)
end

test("starships navigate at 4, couriers at their pilot's rating", function(t)
  local g = game(t)
  local p = plan(g, "hegemony", { 2 }, "marrow")
  t:eq({ p.stars, p.distance, p.rating, p.diff }, { 2, 2, 4, -2 })
  t:eq(p.route, { "korrin", "dathe" })
  t:eq(G.column(p.rating, p.distance), "<=-1")
  local c = plan(g, "hegemony", { 6 }, "umbral_reach")
  t:eq({ c.distance, c.rating, c.diff }, { 4, 5, -1 })
  -- A better pilot aboard raises the courier's rating.
  g:edit(function(ctx) ctx:set(7, "navigation", 6) end)
  t:eq(plan(g, "hegemony", { 6 }, "umbral_reach").rating, 6)
end)

test("an empty courier cannot jump", function(t)
  local g = game(t)
  g:edit(function(ctx)
    ctx:place(7, { location = "vessa_prime", slot = "urban" })
    ctx:set(7, "aboard", 0)
  end)
  local ok, why = g:try { id = "jump", side = "hegemony", ships = { 6 }, to = "marrow" }
  t:falsy(ok)
  t:matches(why, "needs a character aboard")
end)

test("five ships with a rating-2 leader count as three", function(t)
  local g = game(t)
  local p = plan(g, "hegemony", { 1, 2, 3, 4, 5 }, "umbral_reach")
  t:eq({ p.ships, p.leader, p.joint_penalty, p.stars, p.distance }, { 5, 2, 0, 4, 4 })
  t:eq(G.joint_penalty(5, 2), 0)
end)

test("joint jump penalty: +1 per ship beyond three", function(t)
  local g = game(t)
  g:edit(function(ctx) ctx:set(8, "leadership", 0) end)
  t:eq(plan(g, "hegemony", { 1, 2, 3, 4, 5 }, "umbral_reach").distance, 6)
  t:eq(plan(g, "hegemony", { 1, 2, 3, 4 }, "umbral_reach").distance, 5)
  t:eq(plan(g, "hegemony", { 1, 2, 3 }, "umbral_reach").distance, 4)
  -- The leader counts only in a joint jump aboard one of the jumping ships.
  g:edit(function(ctx) ctx:set(8, "leadership", 1) end)
  t:eq(plan(g, "hegemony", { 1, 2, 3, 4, 5 }, "umbral_reach").joint_penalty, 1)
  t:eq(plan(g, "hegemony", { 2, 3, 4, 5 }, "umbral_reach").joint_penalty, 1)
  t:eq({ G.joint_penalty(4, 0), G.joint_penalty(7, 1), G.joint_penalty(2, 3) }, { 1, 3, 0 })
end)

test("couriers jump alone; only ships jump", function(t)
  local g = game(t)
  local ok, why = g:try { id = "jump", side = "hegemony", ships = { 1, 6 }, to = "marrow" }
  t:falsy(ok)
  t:matches(why, "only military starships may jump as a stack")
  ok, why = g:try { id = "jump", side = "hegemony", ships = { 13 }, to = "marrow" }
  t:falsy(ok)
  t:matches(why, "only ships hyperjump")
  ok, why = g:try { id = "jump", side = "hegemony", ships = { 14 }, to = "marrow" }
  t:falsy(ok)
  t:matches(why, "not yours")
  ok, why = g:try { id = "jump", side = "hegemony", ships = { 1, 1 }, to = "marrow" }
  t:falsy(ok)
  t:matches(why, "named twice")
  put(g, 2, "rime", "orbit")
  ok, why = g:try { id = "jump", side = "hegemony", ships = { 1, 2 }, to = "marrow" }
  t:falsy(ok)
  t:matches(why, "in one box")
end)

test("a jump must leave the system", function(t)
  local g = game(t)
  local ok, why = g:try { id = "jump", side = "hegemony", ships = { 2 }, to = "rime" }
  t:falsy(ok)
  t:matches(why, "use impulse movement inside a system")
  ok, why = g:try { id = "jump", side = "hegemony", ships = { 2 }, to = "dathe" }
  t:falsy(ok)
  t:matches(why, "must be a planet")
end)

test("enemy units on the route do not matter", function(t)
  local g = game(t)
  local before = plan(g, "hegemony", { 2 }, "umbral_reach")
  put(g, 14, "korrin_gate", "orbit")
  put(g, 15, "dathe", "drift1")
  put(g, 16, "halcyon", "orbit")
  local after = plan(g, "hegemony", { 2 }, "umbral_reach")
  t:eq(after.route, before.route)
  t:eq(after.distance, 4)
  t:ok(g:try { id = "jump", side = "hegemony", ships = { 2 }, to = "umbral_reach" })
end)

test("drift 1 jumps out without penalty and moves by impulse", function(t)
  local g = game(t)
  put(g, 2, "vessa", "drift1")
  local p = plan(g, "hegemony", { 2 }, "marrow")
  t:eq({ p.stars, p.drift_penalty, p.distance }, { 2, 0, 2 })
  local ok, why = g:try { id = "jump", side = "hegemony", ships = { 2 }, to = "rime" }
  t:falsy(ok)
  t:matches(why, "use impulse")
  g:act { id = "impulse", side = "hegemony", piece = 2, to = "rime" }
  t:eq({ where(g, 2) }, { "rime", "orbit" })
end)

test("drift 2: same system at 2, other systems +2", function(t)
  local g = game(t)
  put(g, 2, "vessa", "drift2")
  local same = plan(g, "hegemony", { 2 }, "rime")
  t:eq({ same.stars, same.drift_penalty, same.distance }, { 2, 0, 2 })
  local other = plan(g, "hegemony", { 2 }, "korrin_gate")
  t:eq({ other.stars, other.drift_penalty, other.distance }, { 1, 2, 3 })
  t:eq(plan(g, "hegemony", { 2 }, "umbral_reach").distance, 6)
end)

test("safe jump arrives in the orbit box, carrying what is aboard", function(t)
  local g, total = find(t, "safe", function() end,
    { id = "jump", side = "hegemony", ships = { 4 }, to = "marrow" }, -2)
  t:ok(total <= 11)
  t:eq({ where(g, 4) }, { "marrow", "orbit" })
  t:eq({ where(g, 9) }, { "marrow", "orbit" })
  t:eq(g:piece(9).values.aboard, 4)
  -- Moved once this segment: no second move.
  local ok, why = g:try { id = "impulse", side = "hegemony", piece = 4, to = "halcyon" }
  t:falsy(ok)
  t:matches(why, "already moved this segment")
end)

test("drift 1: the Drift 1 area of the destination system", function(t)
  local g, total = find(t, "drift1", function() end,
    { id = "jump", side = "hegemony", ships = { 2 }, to = "marrow" }, -2)
  t:eq(total, 12)
  t:eq({ where(g, 2) }, { "dathe", "drift1" })
  t:eq(g:piece(2).values.damaged, false)
end)

local function enemy_in_orbit(g)
  put(g, 14, "vessa_prime", "orbit")
  to_combat(g)
end

test("drift 2: the Drift 2 box of the destination system", function(t)
  local g, total = find(t, "drift2", enemy_in_orbit,
    { id = "break_off", side = "hegemony", ships = { 2 }, to = "marrow" }, nil, true)
  t:ok(total >= 7 and total <= 9)
  t:eq({ where(g, 2) }, { "dathe", "drift2" })
end)

test("damaged: one ship damaged and the stack drifts", function(t)
  local g = find(t, "drift1_damaged", enemy_in_orbit,
    { id = "break_off", side = "hegemony", ships = { 2 }, to = "marrow" }, nil, true)
  t:eq({ where(g, 2) }, { "dathe", "drift1" })
  t:eq(g:piece(2).values.damaged, true)
  local g2 = find(t, "drift2_damaged", enemy_in_orbit,
    { id = "break_off", side = "hegemony", ships = { 1, 2, 3 }, to = "marrow" }, nil, true)
  local damaged = 0
  for _, id in ipairs({ 1, 2, 3 }) do
    t:eq({ where(g2, id) }, { "dathe", "drift2" })
    if g2:piece(id).values.damaged then damaged = damaged + 1 end
  end
  t:eq(damaged, 1)
  -- A die picked the damaged ship among three.
  t:eq(#g2:rolls(), 2)
end)

test("a damaged ship damaged again is lost", function(t)
  local g = find(t, "drift1_damaged", function(fresh)
    fresh:edit(function(ctx) ctx:set(2, "damaged", true) end)
    enemy_in_orbit(fresh)
  end, { id = "break_off", side = "hegemony", ships = { 2 }, to = "marrow" }, nil, true)
  t:eq(g:piece(2), nil)
end)

test("disaster: half rounded up eliminated, survivors to Drift 2", function(t)
  local g = find(t, "disaster", enemy_in_orbit,
    { id = "break_off", side = "hegemony", ships = { 1, 2, 3, 4, 5 }, to = "marrow" }, nil, true)
  local alive = {}
  for _, id in ipairs({ 1, 2, 3, 4, 5 }) do
    if g:piece(id) then
      alive[#alive + 1] = id
      t:eq({ where(g, id) }, { "dathe", "drift2" })
    end
  end
  t:eq(#alive, 2)
  -- Whatever was aboard a lost ship is lost with it.
  for _, pair in ipairs({ { 1, 8 }, { 4, 9 }, { 4, 10 }, { 5, 11 }, { 5, 12 } }) do
    t:eq(g:piece(pair[2]) ~= nil, g:piece(pair[1]) ~= nil)
  end
  -- A single ship: one of one is lost.
  local g1 = find(t, "disaster", enemy_in_orbit,
    { id = "break_off", side = "hegemony", ships = { 2 }, to = "marrow" }, nil, true)
  t:eq(g1:piece(2), nil)
end)

test("a far jump reads column 5 with +1 to the roll per step beyond 5", function(t)
  -- The courier's pilot has rating 0; from Vessa's Drift 2 to Umbral: 4 stars + 2 = 6.
  local function prepare(g)
    g:edit(function(ctx)
      ctx:set(7, "navigation", 0)
      ctx:place(6, { location = "vessa", slot = "drift2" })
      ctx:place(7, { location = "vessa", slot = "drift2" })
    end)
    local p = plan(g, "hegemony", { 6 }, "umbral_reach")
    t:eq({ p.distance, p.rating, p.diff }, { 6, 0, 6 })
  end
  for _, want in ipairs({ "drift1", "drift2", "drift1_damaged" }) do
    local g, total = find(t, want, prepare,
      { id = "jump", side = "hegemony", ships = { 6 }, to = "umbral_reach" }, 6)
    -- Read in column 5 at one more than rolled.
    t:eq(data.hyperjump.cells[G.row(total + 1)][7], want)
    local slot = ({ drift1 = "drift1", drift2 = "drift2", drift1_damaged = "drift1" })[want]
    t:eq({ where(g, 6) }, { "umbral", slot })
    t:eq({ where(g, 7) }, { "umbral", slot })
  end
end)

test("emergency jump uses column 5 with no modifier", function(t)
  -- Distance 2 and rating 4 would be the leftmost column; the emergency reads column 5.
  local _, total = find(t, "drift2", enemy_in_orbit,
    { id = "break_off", side = "hegemony", ships = { 2 }, to = "marrow" }, nil, true)
  t:eq(G.result(4, 2, total), "safe")
  -- No modifier: a far jump (difference 8) still reads the roll as rolled.
  for _, roll in ipairs({ 2, 5, 9, 12 }) do
    t:eq(result_for(roll, nil, true), G.result(0, 5, roll))
  end
  -- Breaking off needs enemy starships in the box.
  local g2 = game(t)
  to_combat(g2)
  local ok, why = g2:try { id = "break_off", side = "hegemony", ships = { 2 }, to = "marrow" }
  t:falsy(ok)
  t:matches(why, "no enemy starships")
  -- And plain jumps belong to the space segment.
  ok = g2:try { id = "jump", side = "hegemony", ships = { 2 }, to = "marrow" }
  t:falsy(ok)
end)
