-- game.evaluate, the search bot's heuristic: each team's share of the hull integrity left.

local function near(t, a, b, what) t:ok(math.abs(a - b) < 1e-9, ("%s: %s is not %s"):format(what, a, b)) end

test("evaluate: fleets start even, and hull lost in a section lowers its side's value", function(t)
  local g = t:game { scenario = "range" }
  near(t, g:evaluate("red"), 0.5, "red at the start")
  near(t, g:evaluate("blue"), 0.5, "blue at the start")
  local ship ---@type Piece|nil
  for _, p in ipairs(g:pieces { owner = "blue" }) do
    if p.type == "ship" and type(p.values.hull) == "table" then ship = p; break end
  end
  ship = assert(ship, "blue has a built ship")
  local hull = {} -- a copy: snapshots are read-only
  for i, h in ipairs(ship.values.hull) do hull[i] = h end
  hull[1] = 0
  g:edit(function(ctx) ctx:set(ship.id, "hull", hull) end)
  t:ok(g:evaluate("blue") < 0.5, "blue lost a section's armour")
  near(t, g:evaluate("red") + g:evaluate("blue"), 1, "two sides' values add up")
end)

test("evaluate counts a team together in a four-fleet battle", function(t)
  local g = t:game { scenario = "fleet-action" }
  local total = 0 ---@type number
  for _, s in ipairs(g:sides()) do total = total + g:evaluate(s.id) end
  -- Two teams of two: each side's value is its team's share, so the four add up to 2.
  near(t, total, 2, "four sides in two teams")
end)
