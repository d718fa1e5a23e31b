-- Battle: dice by class and range, close quarters, hits, stars, alerts and retiring, markers.
local combat = require("combat")
local data = require("data")
local rules = require("rules")
local k = require("testkit")

test("battle die faces: class faces hit that class, wild hits all, star and alert never hit", function(t)
  t:eq(combat.resolve({ "strike", "wild", "star", "alert", "capital" }, "strike", data),
    { hits = 2, stars = 1, alerts = 1 })
  t:eq(combat.resolve({ "strike", "wild", "star", "alert", "capital" }, "fighter", data),
    { hits = 1, stars = 1, alerts = 1 })
  t:eq(combat.resolve({ "fighter", "fighter", "alert", "alert" }, "fighter", data),
    { hits = 2, stars = 0, alerts = 2 })
  t:eq(combat.resolve({}, "capital", data), { hits = 0, stars = 0, alerts = 0 })
  t:eq(data.battle_faces, { "fighter", "strike", "capital", "wild", "star", "alert" })
end)

test("battle dice by class and range: capital 3-3-2-2, strike 3-2-2, fighter 2 at range 1", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  local expect = { capital = { 3, 3, 2, 2 }, strike = { 3, 2, 2, 0 }, fighter = { 2, 0, 0, 0 } }
  for class, row in pairs(expect) do
    for range = 1, 4 do
      t:eq(g:lookup("battle_dice", class, tostring(range)), row[range])
    end
  end
end)

local function battle(g, side, p, target)
  return g:try { id = "battle", side = side, piece = p, target = target }
end

test("out of range: fighters at 1 hex only, strike up to 3, capital up to 4", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  local ids = k.arrange(g, {
    { "fighter", "blue", 4, 4 }, { "cruiser", "blue", 2, 6 }, { "battleship", "blue", 5, 5 },
    { "cruiser", "red", 4, 2 }, -- 2 from the fighter, 4 from the cruiser, 4 from the battleship
    { "cruiser", "red", 10, 0 }, -- 5 from the battleship
  })
  k.to_fight(g, "blue", "centre", { ids[1], ids[2], ids[3] })
  local ok, why = battle(g, "blue", ids[1], ids[4])
  t:falsy(ok)
  t:eq(why, "out of range: a fighter unit has no battle dice at range 2")
  ok, why = battle(g, "blue", ids[2], ids[4])
  t:falsy(ok)
  t:eq(why, "out of range: a strike unit has no battle dice at range 4")
  ok, why = battle(g, "blue", ids[3], ids[5])
  t:falsy(ok)
  t:eq(why, "out of range: a capital unit has no battle dice at range 5")
  -- The fighter stands on the battleship's line to the cruiser: move it out of the way.
  g:edit(function(ctx) ctx:move(ids[1], { q = -4, r = 8 }) end)
  local targets = {}
  for _, a in ipairs(k.legal_of(g, "blue", "battle")) do
    targets[#targets + 1] = a.piece .. ">" .. a.target
  end
  t:eq(targets, { ids[3] .. ">" .. ids[4] })
  t:ok(battle(g, "blue", ids[3], ids[4]))
  t:eq(#g:global("last_battle").faces, 2) -- capital at range 4
end)

test("ranged battle needs a clear line of sight: a unit in a crossed hex blocks it", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  local ids = k.arrange(g, {
    { "battleship", "blue", 5, 5 }, { "cruiser", "red", 4, 2 }, { "fighter", "blue", 0, 8 },
  })
  local from = assert(g:piece(ids[1]).hex, "arrange placed the battleship")
  local to = assert(g:piece(ids[2]).hex, "arrange placed the cruiser")
  local line = hex.hexes_crossed(from, to)
  t:ok(#line >= 3, "range 4: hexes between")
  -- Another unit (even a friend) in a hex the line crosses blocks the shot.
  local crossed = assert(line[2], "a hex between")
  g:edit(function(ctx) ctx:move(ids[3], crossed) end)
  k.to_fight(g, "blue", "centre", { ids[1] })
  local ok, why = battle(g, "blue", ids[1], ids[2])
  t:falsy(ok)
  t:eq(why, "no line of sight: another unit is in the way")
  g:edit(function(ctx) ctx:move(ids[3], { q = -4, r = 8 }) end)
  t:ok(battle(g, "blue", ids[1], ids[2]))
end)

test("close quarters: a unit next to an enemy may only battle an adjacent enemy", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  local ids = k.arrange(g, {
    { "battleship", "blue", 4, 4 }, { "heavy_cruiser", "red", 4, 3 }, { "cruiser", "red", 4, 1 },
  })
  k.to_fight(g, "blue", "capital", { ids[1] })
  local ok, why = battle(g, "blue", ids[1], ids[3])
  t:falsy(ok)
  t:eq(why, "close quarters: a unit next to an enemy may only battle an adjacent enemy")
  local legal = k.legal_of(g, "blue", "battle")
  t:eq(#legal, 1)
  t:eq(legal[1].target, ids[2])
end)

test("a battle rolls the class's dice, and hits, stars and retiring match the faces", function(t)
  local g = t:game { scenario = "skirmish", seed = 7 }
  local ids = k.arrange(g, { { "battleship", "blue", 4, 4 }, { "heavy_cruiser", "red", 4, 3 } })
  k.to_fight(g, "blue", "capital", { ids[1] })
  t:ok(battle(g, "blue", ids[1], ids[2]))
  local lb = g:global("last_battle")
  if lb.alerts > 0 then
    t:eq(g:clock().acting, { "red" }) -- two ways back: red chooses (the first goes straight up)
    k.retire_first(g)
  end
  t:eq(#lb.faces, 3)
  t:eq(lb.hits + lb.stars + lb.alerts <= 3, true)
  t:eq(k.side(g, "blue").values.tokens, 2 + lb.stars)
  local target = g:piece(ids[2])
  t:eq(target.values.figures, 4 - lb.hits) -- room to retire behind it: no figure lost that way
  t:eq(target.hex, { q = 4, r = 3 - lb.alerts })
  t:eq(target.values.alert, lb.alerts > 0)
  local ok, why = battle(g, "blue", ids[1], ids[2])
  t:falsy(ok)
  t:eq(why, "unit " .. ids[1] .. " has already battled this turn")
end)

test("hits remove figures; a unit with no figures is destroyed and scores a point", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  local ids = k.arrange(g, { { "battleship", "blue", 4, 4 }, { "battleship", "red", 4, 3 }, { "fighter", "red", 0, 0 } })
  g:edit(function(ctx)
    rules.apply_battle(ctx, "blue", ids[1], ids[2], { "capital", "fighter", "strike" })
  end)
  t:eq(g:piece(ids[2]).values.figures, 1)
  t:eq(k.side(g, "blue").values.points, 0)
  g:edit(function(ctx)
    rules.apply_battle(ctx, "blue", ids[1], ids[2], { "wild" })
  end)
  t:eq(g:piece(ids[2]), nil)
  t:eq(k.side(g, "blue").values.points, 1)
end)

test("a star earns the attacker a command token", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  local ids = k.arrange(g, { { "battleship", "blue", 4, 4 }, { "battleship", "red", 4, 3 } })
  g:edit(function(ctx)
    rules.apply_battle(ctx, "blue", ids[1], ids[2], { "star", "star", "fighter" })
  end)
  t:eq(k.side(g, "blue").values.tokens, 4)
  t:eq(g:piece(ids[2]).values.figures, 2)
end)

test("an alert makes the target retire one hex toward its own baseline, the way its owner chooses, and marks it", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  local ids = k.arrange(g, { { "battleship", "blue", 4, 4 }, { "cruiser", "red", 4, 3 }, { "cruiser", "blue", 7, 3 } })
  k.to_fight(g, "blue", "centre", { ids[1] })
  g:edit(function(ctx)
    rules.apply_battle(ctx, "blue", ids[1], ids[2], { "alert" })
  end)
  -- Both rear hexes are free: red's answer comes first, and nobody else acts meanwhile.
  t:eq(g:clock().acting, { "red" })
  t:eq(g:piece(ids[2]).hex, { q = 4, r = 3 })
  local ways = {}
  for _, a in ipairs(k.legal_of(g, "red", "retire")) do ways[#ways + 1] = a.path end
  t:eq(ways, { { { q = 4, r = 2 } }, { { q = 5, r = 2 } } }) -- red's baseline is the top row
  t:eq(#g:legal("red"), 2) -- answers only: no end_phase
  local ok, why = g:try { id = "retire", side = "red", path = { { q = 3, r = 3 } } }
  t:falsy(ok); t:matches(why, "cannot retire that way: 2 way%(s%) are open")
  ok, why = g:try { id = "battle", side = "blue", piece = ids[1], target = ids[2] }
  t:falsy(ok); t:matches(why, "blue cannot act now")
  g:act { id = "retire", side = "red", path = { { q = 5, r = 2 } } }
  t:eq(g:piece(ids[2]).hex, { q = 5, r = 2 })
  t:ok(g:piece(ids[2]).values.alert)
  t:eq(g:piece(ids[2]).values.figures, 3)
  t:eq(g:clock().acting, { "blue" })
  -- Two alerts, two hexes: every way down is offered; the first is down-right twice.
  g:edit(function(ctx)
    rules.apply_battle(ctx, "red", ids[2], ids[3], { "alert", "alert" })
  end)
  ways = k.retire_first(g)
  t:ok(#ways >= 3)
  t:eq(g:piece(ids[3]).hex, { q = 7, r = 5 }) -- blue retires down, two hexes
end)

test("retiring goes round an occupied rear hex, never into a half-hex", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  local ids = k.arrange(g, {
    { "battleship", "blue", 4, 4 }, { "cruiser", "red", 4, 3 }, { "fighter", "red", 4, 2 },
    { "cruiser", "red", -1, 2 }, -- even row 2, column 0: straight up is the half-hex (-1,1)
  })
  g:edit(function(ctx)
    rules.apply_battle(ctx, "blue", ids[1], ids[2], { "alert" })
    rules.apply_battle(ctx, "blue", ids[1], ids[4], { "alert" })
  end)
  t:eq(g:piece(ids[2]).hex, { q = 5, r = 2 })
  t:eq(g:piece(ids[4]).hex, { q = 0, r = 1 })
end)

test("a unit that cannot retire loses a figure per hex not retired", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  local ids = k.arrange(g, {
    { "battleship", "blue", 4, 1 }, { "cruiser", "red", 4, 0 }, { "fighter", "red", 7, 0, { figures = 1 } },
  })
  g:edit(function(ctx)
    rules.apply_battle(ctx, "blue", ids[1], ids[2], { "alert", "alert" })
  end)
  t:eq(g:piece(ids[2]).hex, { q = 4, r = 0 })
  t:eq(g:piece(ids[2]).values.figures, 1)
  t:ok(g:piece(ids[2]).values.alert)
  g:edit(function(ctx)
    rules.apply_battle(ctx, "blue", ids[1], ids[3], { "alert" })
  end)
  t:eq(g:piece(ids[3]), nil)
  t:eq(k.side(g, "blue").values.points, 1)
end)

test("an alert marker costs a die; a reduced unit keeps its dice", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  local ids = k.arrange(g, {
    { "battleship", "blue", 4, 4, { alert = true } },
    { "fighter", "blue", 6, 4, { alert = true } },
    { "battleship", "blue", 2, 6, { figures = 1 } },
    { "heavy_cruiser", "red", 4, 3 }, { "heavy_cruiser", "red", 7, 3 }, { "heavy_cruiser", "red", 2, 5 },
  })
  k.to_fight(g, "blue", "centre", { ids[1], ids[2], ids[3] })
  t:ok(battle(g, "blue", ids[1], ids[4]))
  t:eq(#g:global("last_battle").faces, 2)
  k.retire_first(g)
  t:ok(battle(g, "blue", ids[2], ids[5]))
  t:eq(#g:global("last_battle").faces, 1)
  k.retire_first(g)
  t:ok(battle(g, "blue", ids[3], ids[6]))
  t:eq(#g:global("last_battle").faces, 3)
end)

test("clearing an alert marker costs 2 tokens for an unordered unit, 1 for an ordered one", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  local ids = k.arrange(g, { { "battleship", "blue", 4, 4, { alert = true } }, { "battleship", "blue", 2, 4 }, { "fighter", "red", 0, 0 } })
  local ok, why = g:try { id = "clear_alert", side = "blue", piece = ids[2] }
  t:falsy(ok)
  t:eq(why, "unit " .. ids[2] .. " has no alert marker")
  g:edit(function(ctx)
    ctx:set_side("blue", "tokens", 1)
  end)
  ok, why = g:try { id = "clear_alert", side = "blue", piece = ids[1] }
  t:falsy(ok)
  t:eq(why, "clearing the alert marker of an unordered unit costs 2 command tokens")
  g:edit(function(ctx)
    ctx:set_side("blue", "tokens", 2)
  end)
  t:ok(g:try { id = "clear_alert", side = "blue", piece = ids[1] })
  t:falsy(g:piece(ids[1]).values.alert)
  t:eq(k.side(g, "blue").values.tokens, 0)
  -- Ordered this turn: 1 token.
  g:edit(function(ctx)
    ctx:set(ids[1], "alert", true)
    ctx:set(ids[1], "ordered", true)
    ctx:set_side("blue", "tokens", 1)
  end)
  t:ok(g:try { id = "clear_alert", side = "blue", piece = ids[1] })
  t:eq(k.side(g, "blue").values.tokens, 0)
end)

test("a nebula stops its unit battling; dust does not", function(t)
  local g = t:game { scenario = "breakthrough", seed = 1 }
  local ids = k.arrange(g, {
    { "fighter", "blue", 4, 4 }, { "fighter", "blue", 2, 4 },
    { "cruiser", "red", 4, 3 }, { "cruiser", "red", 2, 3 },
  })
  k.to_fight(g, "blue", "fighter", { ids[1], ids[2] })
  local ok, why = battle(g, "blue", ids[1], ids[3])
  t:falsy(ok)
  t:eq(why, "unit " .. ids[1] .. " is in a nebula and cannot battle")
  t:ok(battle(g, "blue", ids[2], ids[4]))
end)

test("the target of a battle must be an enemy on the battlefield", function(t)
  local g = t:game { scenario = "skirmish", seed = 1 }
  local ids = k.arrange(g, { { "battleship", "blue", 4, 4 }, { "cruiser", "blue", 4, 3 }, { "fighter", "red", 0, 0 } })
  k.to_fight(g, "blue", "capital", { ids[1] })
  local ok, why = battle(g, "blue", ids[1], ids[2])
  t:falsy(ok)
  t:eq(why, "the target must be an enemy unit")
  ok, why = battle(g, "blue", ids[1], 999)
  t:falsy(ok)
  t:eq(why, "there is no target unit 999 on the battlefield")
end)
