-- Setup (anomaly roll and placement, ship placement, standard/advanced design), victory, and
-- whole games played to the end.
local H = require("tests._helpers")

local function skirmish(t, scenario, design)
  local g = t:game { scenario = scenario or "skirmish", seed = 7 }
  H.designs(g, design)
  return g, H.active(g)
end

test("the first player's die sets how many anomalies each player places", function(t)
  local g = skirmish(t)
  local n = g:global("anomaly_count")
  t:ok(n >= 1 and n <= 6)
  t:eq(g:side("red").values.anomalies_left, n)
  t:eq(g:side("blue").values.anomalies_left, n)
  t:eq(g:global("battle"), false)
end)

test("anomaly placement: spacing around planets and moons, never over the edge, one per turn", function(t)
  local g, first = skirmish(t)
  local ok, why = g:try { id = "end_phase", side = first }
  t:falsy(ok); t:matches(why, "place an anomaly first")
  ok, why = g:try { id = "deploy", side = first, ship = H.ship(g, first).id, at = { q = 0, r = 0 }, facing = 0 }
  t:falsy(ok); t:matches(why, "can not place a ship now")
  ok, why = g:try { id = "place_anomaly", side = first, kind = "planet", at = { q = 0, r = -8 } }
  t:falsy(ok); t:matches(why, "edge")
  g:act { id = "place_anomaly", side = first, kind = "planet", at = { q = 0, r = 0 } }
  t:eq(g:terrain({ q = 1, r = 0 }), { "planet" })
  ok, why = g:try { id = "place_anomaly", side = first, kind = "moon", at = { q = 5, r = 0 } }
  t:falsy(ok); t:matches(why, "no anomaly to place this turn")
  g:end_phase(first)
  local second = H.active(g)
  while g:clock().phase ~= "deploy" or second == first do g:end_phase(second); second = H.active(g) end
  ok, why = g:try { id = "place_anomaly", side = second, kind = "moon", at = { q = 2, r = 0 } }
  t:falsy(ok); t:matches(why, "gap")
  ok, why = g:try { id = "place_anomaly", side = second, kind = "small_nebula", at = { q = 2, r = -1 } }
  t:falsy(ok); t:matches(why, "gap")
  t:ok((g:try { id = "place_anomaly", side = second, kind = "small_nebula", at = { q = 3, r = -1 } }))
end)

test("ships: not on an anomaly, not in a sector with an enemy ship; battle starts next round", function(t)
  local g = t:game { scenario = "skirmish", seed = 11 }
  H.designs(g)
  local anomaly_at
  -- place anomalies far from the centre sector with the first legal choice until ships are due
  for _ = 1, 200 do
    local side = H.active(g)
    local placed, last = false, nil ---@type boolean, ActionTable|nil
    for _, a in ipairs(g:legal(side)) do
      if a.id == "place_anomaly" and a.kind == "small_asteroid" then last = a end
    end
    if last then last.side = side; g:act(last); placed = true; anomaly_at = last.at end
    if not placed then
      local dep = nil ---@type ActionTable|nil
      for _, a in ipairs(g:legal(side)) do if a.id == "deploy" then dep = a break end end
      if dep then break end
      g:end_phase(side)
    end
  end
  local side = H.active(g)
  local enemy = side == "red" and "blue" or "red"
  local mine = H.ship(g, side)
  t:ok(anomaly_at, "an anomaly was placed")
  local ok, why = g:try { id = "deploy", side = side, ship = mine.id, at = anomaly_at, facing = 2 }
  t:falsy(ok); t:matches(why, "ships can not be placed on an anomaly")
  g:act { id = "deploy", side = side, ship = mine.id, at = { q = 0, r = 0 }, facing = 2 }
  t:eq(g:piece(mine.id).hex, { q = 0, r = 0 }); t:eq(g:piece(mine.id).facing, 2)
  g:end_phase(side)
  while H.active(g) ~= enemy or g:clock().phase ~= "deploy" do g:end_phase(H.active(g)) end
  local theirs = H.ship(g, enemy)
  ok, why = g:try { id = "deploy", side = enemy, ship = theirs.id, at = { q = 1, r = 1 }, facing = 0 }
  t:falsy(ok); t:matches(why, "enemy ship")
  ok, why = g:try { id = "deploy", side = enemy, ship = theirs.id, at = { q = 0, r = -3 }, facing = 0 } -- seam of 0, 1, 6
  t:falsy(ok); t:matches(why, "enemy ship")
  g:act { id = "deploy", side = enemy, ship = theirs.id, at = { q = 6, r = -3 }, facing = 5 }
  t:eq(g:global("battle"), false)
  g:end_phase(enemy)
  local round = g:clock().round
  while g:clock().round == round do g:end_phase(H.active(g)) end
  t:eq(g:global("battle"), true)
end)

test("standard setup: levels change one at a time within 80 points, never below 1", function(t)
  local g = t:game { scenario = "standard", seed = 7 }
  local first = H.active(g)
  local s = H.ship(g, first)
  g:act { id = "choose_design", side = first, ship = s.id, design = "lancer" }
  local ok, why = g:try { id = "adjust", side = first, ship = s.id, what = "component", index = 1, delta = 1 }
  t:falsy(ok); t:matches(why, "more than 80")
  g:act { id = "adjust", side = first, ship = s.id, what = "component", index = 2, delta = -1 }
  g:act { id = "adjust", side = first, ship = s.id, what = "component", index = 1, delta = 1 }
  t:eq(g:piece(s.id).values.comps[1].level, g:piece(s.id).values.comps[1].level)
  local lvl = g:piece(s.id).values.comps[1].level
  t:ok(lvl == 5 or lvl == 6)
  for _ = 1, 2 do g:try { id = "adjust", side = first, ship = s.id, what = "crew", index = 4, delta = -1 } end
  ok, why = g:try { id = "adjust", side = first, ship = s.id, what = "crew", index = 4, delta = -1 }
  t:falsy(ok); t:matches(why, "below level 1")
end)

test("advanced setup: install systems at level 1 where the restrictions allow", function(t)
  local g = t:game { scenario = "advanced", seed = 7 }
  local first = H.active(g)
  local s = H.ship(g, first)
  t:eq(#g:piece(s.id).values.comps, 0)
  local ok, why = g:try { id = "install", side = first, ship = s.id, kind = "engine", section = 1 }
  t:falsy(ok); t:matches(why, "section 3, 4, 5")
  g:act { id = "install", side = first, ship = s.id, kind = "engine", section = 4 }
  g:act { id = "install", side = first, ship = s.id, kind = "crew", section = 0 }
  local v = g:piece(s.id).values
  t:eq(#v.comps, 1); t:eq(v.comps[1].charge, 1); t:eq(#v.crew, 1)
  g:act { id = "remove", side = first, ship = s.id, what = "component", index = 1 }
  t:eq(#g:piece(s.id).values.comps, 0)
end)

test("victory: the last player with ships wins", function(t)
  local g = t:game { scenario = "range", seed = 2 }
  local blue = H.ship(g, "blue")
  g:edit(function(ctx) ctx:destroy(blue.id) end)
  g:end_phase(H.active(g))
  local o = assert(g:outcome(), "the game is over")
  t:eq(o.winners, { "red" })
end)

test("fleet action: a team completes each phase together", function(t)
  local g = t:game { scenario = "fleet-action", seed = 4 }
  H.designs(g)
  local c = g:clock()
  t:eq(#c.acting, 2)
  local first = assert(c.acting[1], "a side acts")
  for _, a in ipairs(g:legal(first)) do
    if a.id == "place_anomaly" then g:act(a) break end
  end
  g:end_phase(first)
  t:eq(g:clock().phase, "deploy") -- the phase waits for the whole team
  local team = {}
  for _, s in ipairs(c.acting) do team[#team + 1] = assert(g:side(s)).team end
  t:eq(team[1], team[2])
end)

for _, sc in ipairs({ "skirmish", "range", "skirmish-4", "fleet-action", "standard", "advanced" }) do
  test("full game to the end with seeded choices: " .. sc, function(t)
    local g = t:game { scenario = sc, seed = 21 }
    local outcome, steps = H.play(g, 99, 20000)
    if not (outcome ~= nil or g:clock().round > 40) then
      t:fail(("no end after %d steps, round %d phase %s"):format(steps, g:clock().round, g:clock().phase))
    end
  end)
end

test("fleet action: the whole team wins, even a member whose ships are gone", function(t)
  local g = t:game { scenario = "fleet-action", seed = 4 }
  local team_of = {}
  for _, s in ipairs(g:sides()) do team_of[s.id] = s.team end
  local winner_team = team_of["blue"]
  local gone = {}
  for _, p in ipairs(g:pieces { type = "ship" }) do
    if team_of[p.owner] ~= winner_team or p.owner ~= "blue" then gone[#gone + 1] = p.id end
  end
  g:edit(function(ctx) for _, id in ipairs(gone) do ctx:destroy(id) end end)
  local side = H.active(g)
  local a = assert(g:legal(side)[1], "something is legal")
  a.side = side
  g:act(a) -- any action lets the victory check run
  local o = assert(g:outcome(), "the game is over")
  local w = {}
  for _, s in ipairs(o.winners) do w[#w + 1] = s end
  table.sort(w)
  local expect = {}
  for s, tm in pairs(team_of) do if tm == winner_team then expect[#expect + 1] = s end end
  table.sort(expect)
  t:eq(w, expect)
  t:eq(#expect, 2)
end)
