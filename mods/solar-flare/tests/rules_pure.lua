-- Pure rule tests: the document's worked examples and the rule arithmetic, no game needed.
local D = require("data")
local G = require("geom")
local SEC = require("sectors")
local DES = require("design")
local DESIGNS = require("designs")
local C = require("combat")
local PW = require("power")

-- Worked example: shield at charge 2 hit by strength 6 rolling 5 4 3 3 2 1.
test("shield example: 1 discarded, 2 and 3 drop the shield, 5 4 3 leave the armour at 1", function(t)
  local ship = DES.build(DESIGNS.lancer, "lancer")
  local si = C.shield_of(ship, 6)
  ship.comps[si].charge = 2
  local out = C.damage_ship(ship, 6, { 5, 4, 3, 3, 2, 1 })
  t:eq(out.result.discarded, { 1 })
  t:eq(out.result.damage, { 2, 3, 0 })
  t:eq(ship.comps[si].charge, 0)
  t:eq(ship.hull[6], 1)
  t:eq(ship.hull[7], 4)
  t:falsy(out.destroyed)
end)

test("defence is fixed at the start of the attack: a 2 never hurts a shield that started at 3", function(t)
  local r = C.resolve({ { defence = 3, integrity = 3 }, { defence = 2, integrity = 4 } }, { 2, 2, 3, 6 })
  t:eq(r.discarded, { 2, 2 })
  t:eq(r.damage, { 2, 0 })
end)

test("dice go on from a destroyed section to the core; core at 0 destroys the ship", function(t)
  local ship = DES.build(DESIGNS.lancer, "lancer")
  ship.hull[4] = 1
  ship.hull[7] = 2
  local out = C.damage_ship(ship, 4, { 6, 6, 6, 1 })
  t:eq(out.result.damage, { 1, 2 })   -- section 4 has no shield on the Lancer
  t:eq(ship.hull[4], 0)
  t:eq(ship.hull[7], 0)
  t:ok(out.destroyed)
  -- the section's components are wrecked
  for _, c in ipairs(ship.comps) do if c.section == 4 then t:ok(c.dead) end end
end)

test("a damaged shield loses its partial charge", function(t)
  local ship = DES.build(DESIGNS.lancer, "lancer")
  local si = C.shield_of(ship, 1)
  ship.comps[si].charge = 3; ship.comps[si].partial = 2
  C.damage_ship(ship, 1, { 3 })
  t:eq(ship.comps[si].charge, 2)
  t:eq(ship.comps[si].partial, 0)
end)

test("torpedo: defence 2, integrity 1", function(t)
  t:eq((C.damage_torpedo(D.torpedo.integrity, { 1, 1, 1 })), 1)
  t:eq((C.damage_torpedo(D.torpedo.integrity, { 1, 2 })), 0)
end)

test("shield charging 0 to 6 costs 21 power; each level costs its own number", function(t)
  t:eq(PW.shield_cost(0, 6), 21)
  t:eq(PW.shield_cost(0, 1), 1)
  t:eq(PW.shield_cost(1, 2), 2)
  t:eq(PW.shield_cost(0, 2), 3)
  local s = { kind = "shield", level = 6, charge = 0, partial = 0, over = 0 }
  local used = 0
  for _ = 1, 4 do used = used + PW.charge(s, 6) end -- four crew-rounds of 6 power
  t:eq(s.charge, 6); t:eq(used, 21)
end)

test("partial charges: a shield at 3 with partial 2 stays at 3 until 4 power arrived", function(t)
  local s = { kind = "shield", level = 5, charge = 3, partial = 0, over = 0 }
  PW.charge(s, 2)
  t:eq(s.charge, 3); t:eq(s.partial, 2)
  PW.charge(s, 1)
  t:eq(s.charge, 3); t:eq(s.partial, 3)
  PW.charge(s, 1)
  t:eq(s.charge, 4); t:eq(s.partial, 0)
end)

test("overcharge costs 1, 3, 6; level 4 (10) is impossible", function(t)
  t:eq({ PW.overcharge_cost(1), PW.overcharge_cost(2), PW.overcharge_cost(3), PW.overcharge_cost(4) }, { 1, 3, 6, 10 })
  t:eq(PW.max_overcharge(), 3)
  local b = { kind = "beam", level = 3, charge = 3, partial = 0, over = 0 }
  t:eq(PW.charge(b, 6), 6); t:eq(b.over, 3)
  local b2 = { kind = "beam", level = 3, charge = 3, partial = 0, over = 0 }
  t:eq(PW.charge(b2, 2), 1); t:eq(b2.over, 1) -- no partial overcharge: the second point is lost
end)

test("components fill 1:1 to their level and the excess is lost; torpedoes hold 3", function(t)
  local e = { kind = "engine", level = 3, charge = 1, partial = 0, over = 0 }
  t:eq(PW.charge(e, 5), 2); t:eq(e.charge, 3)
  local tp = { kind = "torpedo", level = 6, charge = 0, partial = 0, over = 0 }
  t:eq(PW.charge(tp, 6), 3); t:eq(tp.charge, 3)
end)

test("cost chart: beam 5 points at level 4 and 6 at level 5; generators 2 per level", function(t)
  t:eq(DES.level_cost("beam", 4), 5)
  t:eq(DES.level_cost("beam", 5), 6)
  t:eq(DES.level_cost("generator", 3), 6)
  t:eq(DES.level_cost("crew", 1), 2)
  t:eq(DES.level_cost("beam", 7), nil)
  t:eq(D.sections * D.slots_per_section, 14)
  t:eq(D.design_points, 80)
end)

test("sample designs are legal 80-point ships", function(t)
  for _, id in ipairs(DESIGNS.order) do
    local ok, problems = DES.validate(DESIGNS[id])
    t:ok(ok)
    t:eq(problems, nil)
    t:eq(DES.cost(DESIGNS[id]), 80)
  end
  t:eq(#DESIGNS.order, 4)
end)

test("the five placement restrictions, each with its reason", function(t)
  local ok, why = DES.can_place("engine", 1, {})
  t:falsy(ok); t:matches(why, "section 3, 4, 5")
  t:ok(DES.can_place("engine", 4, {}))
  ok, why = DES.can_place("thruster", 7, {}); t:falsy(ok); t:matches(why, "core")
  ok, why = DES.can_place("beam", 7, {}); t:falsy(ok); t:matches(why, "core")
  ok, why = DES.can_place("torpedo", 7, {}); t:falsy(ok); t:matches(why, "core")
  ok, why = DES.can_place("shield", 2, { "shield" }); t:falsy(ok); t:matches(why, "at most 1 shield")
  ok, why = DES.can_place("shield", 7, {}); t:falsy(ok); t:matches(why, "core")
  ok, why = DES.can_place("battery", 3, { "beam", "shield" }); t:falsy(ok); t:matches(why, "no free slot")
  t:ok(DES.can_place("generator", 7, {}))
  t:ok(DES.can_place("battery", 7, { "generator" }))
end)

test("a design over 80 points is refused; crew take no slot", function(t)
  local d = { components = {}, crew = {} }
  for _ = 1, 20 do d.crew[#d.crew + 1] = 2 end -- 20 crew teams at 3 points: 60 points, no slot
  t:ok((DES.validate(d)))
  d.crew[#d.crew + 1] = 6; d.crew[#d.crew + 1] = 6 -- +14 = 74
  t:ok((DES.validate(d)))
  d.crew[#d.crew + 1] = 6 -- 81
  local ok, problems = DES.validate(d)
  t:falsy(ok); t:matches(assert(problems, "a refused design lists its problems")[1], "81 points")
end)

test("quick setup: every system fully charged, sections at integrity 4", function(t)
  local s = DES.build(DESIGNS.harrier, "harrier")
  for _, c in ipairs(s.comps) do
    if c.kind == "torpedo" then t:eq(c.charge, 3)
    elseif c.kind == "generator" then t:eq(c.charge, 0)
    else t:eq(c.charge, c.level) end
  end
  t:eq(s.hull, { 4, 4, 4, 4, 4, 4, 4 })
end)

test("line trace: every hex the line clips, and hexside ties", function(t)
  local tr = G.trace({ q = 0, r = 0 }, { q = 3, r = 1 })
  t:eq(tr.through, { { q = 1, r = 0 }, { q = 1, r = 1 }, { q = 2, r = 0 }, { q = 2, r = 1 } })
  t:eq(#tr.ties, 0)
  tr = G.trace({ q = 0, r = 0 }, { q = 1, r = -2 })
  t:eq(#tr.through, 0)
  t:eq(tr.ties, { { left = { q = 0, r = -1 }, right = { q = 1, r = -1 } } })
  tr = G.trace({ q = 0, r = 3 }, { q = 0, r = -3 })
  t:eq(#tr.through, 5)
end)

test("hit location: the target hexside crossed, two at a vertex", function(t)
  t:eq(G.entry_sides({ q = 0, r = 0 }, { q = 0, r = 3 }), { 0 })
  t:eq(G.entry_sides({ q = 0, r = 0 }, { q = 2, r = 0 }), { 5 })
  t:eq(G.entry_sides({ q = 0, r = 0 }, { q = 1, r = -2 }), { 3, 4 })
  -- sections: a ship facing S (3) hit through its S side is hit in section 1 (front)
  t:eq(G.section_of_side(3, 3), 1)
  t:eq(G.section_of_side(0, 3), 4)
  t:eq(G.side_of_section(1, 4), 4)
end)

test("beam arcs are the 60-degree cone across the section's hexside", function(t)
  local o = { q = 0, r = 0 }
  t:ok(G.in_arc(o, 0, { q = 0, r = -5 }))
  t:ok(G.in_arc(o, 0, { q = 1, r = -2 }))     -- on the boundary ray: inside both arcs
  t:ok(G.in_arc(o, 1, { q = 1, r = -2 }))
  t:falsy(G.in_arc(o, 0, { q = 2, r = -1 }))  -- that one is in the NE arc only
  t:ok(G.in_arc(o, 1, { q = 2, r = -1 }))
  t:falsy(G.in_arc(o, 0, { q = 0, r = 3 }))
  t:falsy(G.in_arc(o, 0, o))
end)

test("seven sector tiles of radius 3: 163 whole hexes in play, 54 partial rim hexes", function(t)
  local b = SEC.board(3)
  t:eq(#b.hexes, 163)
  local rim = 0
  for _ in pairs(b.rim) do rim = rim + 1 end
  t:eq(rim, 54)
  t:eq(b.sectors["0,-3"], { 0, 1, 6 })    -- a corner of the centre tile: a seam of three sectors
  t:ok(b.play["0,-3"])
  t:eq(b.sectors["0,0"], { 0 })
  t:eq(SEC.center(3, 1), { q = 3, r = -6 })
end)
