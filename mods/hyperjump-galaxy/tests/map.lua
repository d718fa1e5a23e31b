-- The invented star map (M1, M2) and jump distances along the shortest route (H1).
local G = require("galaxy")

local function galaxy(t)
  local g = t:game { scenario = "frontier", seed = 1 }
  return G.normalize(g:graph("galaxy")), g
end

test("the map has systems, navigation stars, planets with orbit and environs", function(t)
  local g = galaxy(t)
  t:eq(G.ids_of_kind(g, "system"), { "dathe", "ilex", "korrin", "umbral", "vessa" })
  t:eq(G.ids_of_kind(g, "nav"), { "lumen", "quill", "sable" })
  t:eq(#G.ids_of_kind(g, "planet"), 7)
  t:eq(G.planets(g, "dathe"), { "halcyon", "marrow" })
  t:eq(G.system_of(g, "marrow"), "dathe")
  t:eq(G.environs(g, "marrow"), {
    { id = "urban", type = "urban", size = 4 },
    { id = "hills", type = "hills", size = 2 },
    { id = "seas", type = "ocean", size = 1 },
  })
  -- Every planet has 1-3 environs with a type and a size; every star a drawing position.
  for _, id in ipairs(G.ids_of_kind(g, "planet")) do
    local envs = G.environs(g, id)
    t:ok(#envs >= 1 and #envs <= 3)
    for _, e in ipairs(envs) do t:ok(type(e.type) == "string" and e.size >= 1) end
    t:ok(G.system_of(g, id) ~= nil)
  end
  -- Navigation stars have no planets.
  t:eq(G.planets(g, "lumen"), {})
  -- Planets are not stars: no route counts them.
  t:ok(not G.is_star(g, "marrow"))
  t:eq(G.route(g, "marrow", "vessa"), nil)
end)

test("worked example: one star, four stars through two systems and a navigation star", function(t)
  local g = galaxy(t)
  -- Adjacent systems: one star (the destination counts, the start does not).
  t:eq(G.route(g, "vessa", "korrin"), { "korrin" })
  t:eq(G.distance(g, "vessa", "korrin"), 1)
  -- Four stars: through Korrin and Dathe (systems) and Lumen (a navigation star) to Umbral.
  t:eq(G.route(g, "vessa", "umbral"), { "korrin", "dathe", "lumen", "umbral" })
  t:eq(G.distance(g, "vessa", "umbral"), 4)
  t:eq(G.distance(g, "umbral", "vessa"), 4)
  t:eq(G.route(g, "umbral", "vessa"), { "lumen", "dathe", "korrin", "vessa" })
  -- The longer way round (Sable, Quill, Ilex, Lumen, Umbral = 5) is never used.
  t:eq(G.distance(g, "vessa", "ilex"), 3)
  t:eq(G.distance(g, "vessa", "vessa"), 0)
  -- What eval reports for that jump by a starship (rating 4): column 0, 30 safe in 36.
  local info = assert(G.jump_info(g, "vessa", "umbral", 4), "Umbral is reachable")
  t:eq({ info.distance, info.column, info.roll_modifier }, { 4, "0", 0 })
  t:eq(info.odds, { { result = "safe", in36 = 30 }, { result = "drift1", in36 = 6 } })
end)

test("ties take the alphabetical route; the distance is the same", function(t)
  local g = galaxy(t)
  -- Korrin to Ilex: Dathe-Lumen-Ilex or Sable-Quill-Ilex, both three stars.
  t:eq(G.route(g, "korrin", "ilex"), { "dathe", "lumen", "ilex" })
  t:eq(G.route(g, "ilex", "korrin"), { "lumen", "dathe", "korrin" })
  t:eq(G.distance(g, "korrin", "ilex"), 3)
end)

test("a map without a route between two stars gives no distance", function(t)
  local g = G.normalize {
    nodes = {
      { id = "a", kind = "system" }, { id = "b", kind = "nav" }, { id = "c", kind = "system" },
    },
    routes = { { a = "a", b = "b" } },
  }
  t:eq(G.distance(g, "a", "b"), 1)
  t:eq(G.route(g, "a", "c"), nil)
end)

test("the engine's routes (what the rules use) agree with the map helper on every pair of stars", function(t)
  local g = t:game { scenario = "frontier" }
  local map = galaxy(t)
  local stars = {}
  for id in pairs(map.nodes) do
    if G.is_star(map, id) then stars[#stars + 1] = id end
  end
  table.sort(stars)
  t:ok(#stars >= 8)
  for _, a in ipairs(stars) do
    for _, b in ipairs(stars) do
      local full = g:graph_route("galaxy", a, b)
      local mine = G.route(map, a, b)
      t:eq(full and { table.unpack(full, 2) }, mine, a .. " -> " .. b)
      t:eq(g:graph_distance("galaxy", a, b), G.distance(map, a, b), a .. " -> " .. b)
    end
  end
end)
