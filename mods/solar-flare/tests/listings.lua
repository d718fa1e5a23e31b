-- The fast listings (anomaly placements precomputed per board) give exactly what the rule
-- functions they stand for allow, on boards with anomalies and ships placed at random.
local D = require("data")
local G = require("geom")
local R = require("rules")
local PL = require("placement")
local H = require("tests._helpers")

---Every placement PL.anomaly_ok allows, in the listing's order (kinds, then board hexes).
local function brute_force(ctx)
  local map, occ, b = R.terrain_map(ctx), R.occupancy(ctx), R.board(ctx)
  local out = {}
  for _, kind in ipairs(D.anomaly_order) do
    for _, h in ipairs(b.hexes) do
      if PL.anomaly_ok(ctx, map, occ, kind, h) then out[#out + 1] = kind .. "@" .. G.key(h) end
    end
  end
  return out
end

local function listed(ctx, first_only)
  local out = {}
  for _, c in ipairs(PL.anomaly_choices(ctx, first_only)) do out[#out + 1] = c.kind .. "@" .. G.key(c.at) end
  return out
end

for _, scenario in ipairs({ "skirmish", "skirmish-4", "standard" }) do
  test("anomaly listing equals anomaly_ok everywhere while anomalies are placed: " .. scenario, function(t)
    local g = t:game { scenario = scenario, seed = 3 }
    local rng, checked = 11, 0
    while checked < 40 and not g:global("battle") do
      local side = H.active(g)
      local places = {}
      for _, a in ipairs(g:legal(side)) do
        if a.id ~= "end_phase" then places[#places + 1] = a end
      end
      g:edit(function(ctx)
        local want = brute_force(ctx)
        t:eq(listed(ctx), want, "all")
        t:eq(listed(ctx, true), { want[1] }, "first")
        checked = checked + 1
      end)
      if #places == 0 then
        g:end_phase(side)
      else
        rng = (rng * 1103515245 + 12345) % 2147483648
        g:act(places[rng % #places + 1])
      end
    end
    t:ok(checked >= 1)
  end)
end

test("anomaly listing: planets keep their gap, used-up kinds are never listed", function(t)
  local g = t:game { scenario = "skirmish", seed = 3 }
  -- (H.terrain marks single hexes: a one-hex planet at the centre.)
  H.terrain(g, { { { q = 0, r = 0 }, "planet" }, { { q = 3, r = -1 }, "nebula" } })
  g:edit(function(ctx) ctx:set_global("anomalies_used", { moon = D.anomalies.moon.count }) end)
  g:edit(function(ctx)
    local want = brute_force(ctx)
    t:eq(listed(ctx), want)
    t:ok(#want > 0)
    for _, c in ipairs(PL.anomaly_choices(ctx)) do
      t:ok(c.kind ~= "moon", "moons are used up")
      local reach = D.anomalies[c.kind].shape == "large" and 1 or 0
      t:ok(G.distance(c.at, { q = 0, r = 0 }) > 1 + reach, "a hex between it and the planet: " .. c.kind .. "@" .. G.key(c.at))
    end
  end)
end)
