-- game.evaluate, the search bot's heuristic: hull shares, and the objective where there is one.

local function near(t, a, b, what) t:ok(math.abs(a - b) < 1e-9, ("%s: %s is not %s"):format(what, a, b)) end

-- The first ship of `side` of `kind` (any kind when nil).
local function ship(g, side, kind)
  for _, p in ipairs(g:pieces { owner = side }) do
    if kind == nil or p.type == kind then return p end
  end
  error("no " .. (kind or "ship") .. " of " .. side)
end

test("evaluate is each side's share of the hull points left on the map", function(t)
  local g = t:game { scenario = "duel" }
  local blue, red = g:evaluate("blue"), g:evaluate("red")
  near(t, blue + red, 1, "the shares add up")
  local target = ship(g, "red")
  g:edit(function(ctx) ctx:set(target.id, "damage", 1) end)
  t:ok(g:evaluate("blue") > blue, "damage to red raises blue's value")
  t:ok(g:evaluate("red") < red, "and lowers red's")
  g:edit(function(ctx) ctx:destroy(target.id) end)
  if #g:pieces { owner = "red" } == 0 then t:eq(g:evaluate("blue"), 1) end
end)

test("in the station scenario half of the value is the station's hull", function(t)
  local g = t:game { scenario = "station" }
  local station = ship(g, "defenders", "station")
  local raiders, defenders = g:evaluate("raiders"), g:evaluate("defenders")
  g:edit(function(ctx) ctx:set(station.id, "damage", station.stats.hull - 1) end)
  -- One hull point of the station left: the objective's half alone moves the raiders' value
  -- by (1 - 1/hull) / 2, almost 0.5; the hull share moves it too.
  local gained = g:evaluate("raiders") - raiders
  t:ok(gained >= (1 - 1 / station.stats.hull) / 2, "the objective counts: " .. gained)
  t:ok(g:evaluate("defenders") < defenders)
end)
