-- Design in play (quick and standard setup pick a sample design, standard also modifies it,
-- advanced builds one from scratch): every design is final before the anomaly roll, anomalies
-- and ship placement. A scenario may still preset a ship's design (`range`).
local H = require("tests._helpers")
local DES = require("design")
local DESIGNS = require("designs")

local function ids(list, id)
  local out = {}
  for _, a in ipairs(list) do if a.id == id then out[#out + 1] = a end end
  return out
end

test("quick setup: each player picks a sample design in play; anomalies wait until all are final", function(t)
  local g = t:game { scenario = "skirmish", seed = 7 }
  local first = H.active(g)
  t:eq(g:global("anomaly_count"), nil, "no anomaly roll before the designs are final")
  local ship = H.ship(g, first)
  t:eq(#ship.values.comps, 0, "no design yet")
  local picks = ids(g:legal(first), "choose_design")
  t:eq(#picks, #DESIGNS.order, "one choice per sample design")
  t:eq(#ids(g:legal(first), "place_anomaly"), 0)
  t:eq(#ids(g:legal(first), "finish_design"), 0, "nothing to finish before a design is chosen")
  local ok, why = g:try { id = "end_phase", side = first }
  t:falsy(ok); t:matches(why, "design")
  ok, why = g:try { id = "finish_design", side = first, ship = ship.id }
  t:falsy(ok); t:matches(why, "choose a design")
  g:act { id = "choose_design", side = first, ship = ship.id, design = "harrier" }
  g:act { id = "choose_design", side = first, ship = ship.id, design = "bastion" } -- may change its mind
  t:eq(#ids(g:legal(first), "adjust"), 0, "quick setup: no modifications")
  g:act { id = "finish_design", side = first, ship = ship.id }
  local v = g:piece(ship.id).values
  t:eq(v.design, "bastion")
  t:eq(v.design_final, true)
  local expect = DES.build(DESIGNS.bastion, "bastion")
  t:eq(#v.comps, #expect.comps)
  for i, c in ipairs(expect.comps) do t:eq(v.comps[i].charge, c.charge, "fully charged") end
  ok, why = g:try { id = "choose_design", side = first, ship = ship.id, design = "lancer" }
  t:falsy(ok); t:matches(why, "final")
  t:eq(g:global("anomaly_count"), nil, "the other player has not finished")
  g:end_phase(first)
  while H.active(g) == first do g:end_phase(first) end
  local second = H.active(g)
  t:eq(g:clock().phase, "deploy")
  local theirs = H.ship(g, second)
  g:act { id = "choose_design", side = second, ship = theirs.id, design = "bastion" } -- same design is fine
  g:act { id = "finish_design", side = second, ship = theirs.id }
  local n = g:global("anomaly_count")
  t:ok(n and n >= 1 and n <= 6, "the anomaly roll follows the last design")
  t:eq(assert(g:side(first)).values.anomalies_left, n)
  -- Only now, with every design final, the players roll for the play order.
  local log = g:log()
  local events = table.concat(log[#log].events, "\n")
  local order = assert(events:match("play order from the next round: ([%w_, ]+)"), events)
  t:ok(events:find("every design is final", 1, true) < events:find("play order from", 1, true))
  local rolled_first = assert(order:match("^([%w_]+)"), order)
  t:eq(#ids(g:legal(second), "place_anomaly"), 0, "anomalies start with the first player's next turn")
  t:ok((g:try { id = "end_phase", side = second }))
  while g:clock().round == 1 do g:end_phase(H.active(g)) end
  t:eq(H.active(g), rolled_first, "the next round begins with the rolled first player")
  t:eq(g:clock().phase, "deploy")
  t:ok(#ids(g:legal(rolled_first), "place_anomaly") > 0)
end)

test("standard setup: pick a sample design, modify its levels, then finish", function(t)
  local g = t:game { scenario = "standard", seed = 7 }
  local first = H.active(g)
  local s = H.ship(g, first)
  local ok, why = g:try { id = "adjust", side = first, ship = s.id, what = "component", index = 1, delta = -1 }
  t:falsy(ok); t:matches(why, "choose a design")
  g:act { id = "choose_design", side = first, ship = s.id, design = "lancer" }
  t:ok(#ids(g:legal(first), "adjust") > 0)
  ok, why = g:try { id = "adjust", side = first, ship = s.id, what = "component", index = 1, delta = 1 }
  t:falsy(ok); t:matches(why, "more than 80")
  g:act { id = "adjust", side = first, ship = s.id, what = "component", index = 2, delta = -1 }
  g:act { id = "adjust", side = first, ship = s.id, what = "component", index = 1, delta = 1 }
  t:eq(g:piece(s.id).values.comps[1].level, 5)
  g:act { id = "finish_design", side = first, ship = s.id }
  ok, why = g:try { id = "adjust", side = first, ship = s.id, what = "component", index = 1, delta = -1 }
  t:falsy(ok); t:matches(why, "final")
  t:eq(#ids(g:legal(first), "adjust"), 0)
end)

test("advanced setup: a design from scratch is finished in play, then frozen", function(t)
  local g = t:game { scenario = "advanced", seed = 7 }
  local first = H.active(g)
  local s = H.ship(g, first)
  t:eq(#ids(g:legal(first), "choose_design"), 0, "advanced setup starts from a blank sheet")
  g:act { id = "install", side = first, ship = s.id, kind = "beam", section = 1 }
  g:act { id = "finish_design", side = first, ship = s.id }
  local ok, why = g:try { id = "install", side = first, ship = s.id, kind = "beam", section = 2 }
  t:falsy(ok); t:matches(why, "final")
  ok, why = g:try { id = "remove", side = first, ship = s.id, what = "component", index = 1 }
  t:falsy(ok); t:matches(why, "final")
end)

test("a scenario may preset the designs: range asks nobody", function(t)
  local g = t:game { scenario = "range", seed = 1 }
  local red = H.ship(g, "red")
  t:eq(red.values.design, "lancer")
  t:eq(red.values.design_final, true)
  t:eq(#ids(g:legal(H.active(g)), "choose_design"), 0)
  t:eq(#ids(g:legal(H.active(g)), "finish_design"), 0)
end)

test("fleet action: every player designs before anyone places an anomaly", function(t)
  local g = t:game { scenario = "fleet-action", seed = 4 }
  local c = g:clock()
  for _, side in ipairs(c.acting) do
    local ship = H.ship(g, side)
    t:eq(#ids(g:legal(side), "choose_design"), #DESIGNS.order)
    g:act { id = "choose_design", side = side, ship = ship.id, design = "corsair" }
    g:act { id = "finish_design", side = side, ship = ship.id }
  end
  t:eq(g:global("anomaly_count"), nil, "the other team still designs")
end)
