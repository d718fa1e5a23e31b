-- galaxy.lua: pure star-map and hyperjump-table maths (no game state, no ctx).
--
-- It knows the map as a plain table (what ctx:graph returns, normalised by `normalize`) and the
-- hyperjump table as data (data.lua). It does not move pieces, roll dice or read the scenario:
-- rules.lua does that. Kept pure so `hexforge eval` and tests can call it directly.
--
-- Example:
--   local G = require("galaxy")
--   local g = G.normalize(ctx:graph("galaxy"))
--   local r = G.route(g, "vessa", "umbral")   -- { "korrin", "dathe", "lumen", "umbral" }
--   G.column(4, #r)                            -- "0", 2, 0 (key, index, roll modifier)

local data = require("data")

---@class Galaxy
local G = {}

-- Normalise a graph as the engine hands it over: nodes as a list (with `id`) or a map by id;
-- routes as a list of { a=, b= }. Returns { nodes = { id -> node }, adj = { id -> sorted ids } }.
function G.normalize(raw)
  local nodes, adj = {}, {}
  local list = raw.nodes or {}
  if list[1] ~= nil then
    for _, n in ipairs(list) do nodes[n.id] = n end
  else
    for id, n in pairs(list) do
      if n.id == nil then n.id = id end
      nodes[n.id] = n
    end
  end
  for id in pairs(nodes) do adj[id] = {} end
  for _, r in ipairs(raw.routes or {}) do
    if adj[r.a] and adj[r.b] and r.a ~= r.b then
      table.insert(adj[r.a], r.b)
      table.insert(adj[r.b], r.a)
    end
  end
  for _, l in pairs(adj) do table.sort(l) end
  return { nodes = nodes, adj = adj }
end

-- A node's values table (never nil).
function G.values(g, id)
  local n = g.nodes[id]
  return (n and n.values) or {}
end

-- Is `id` a star (a system or a navigation star)? Only stars are counted and travelled through.
function G.is_star(g, id)
  local n = g.nodes[id]
  return n ~= nil and (n.kind == data.kinds.system or n.kind == data.kinds.nav)
end

-- Node ids of a kind, sorted.
function G.ids_of_kind(g, kind)
  local out = {}
  for id, n in pairs(g.nodes) do
    if n.kind == kind then out[#out + 1] = id end
  end
  table.sort(out)
  return out
end

-- The system a planet belongs to (or the system itself).
function G.system_of(g, id)
  local n = g.nodes[id]
  if not n then return nil end
  if n.kind == data.kinds.system then return id end
  if n.kind == data.kinds.planet then return G.values(g, id).system end
  return nil
end

-- Planets of a system, sorted by id.
function G.planets(g, system)
  local out = {}
  for _, id in ipairs(G.ids_of_kind(g, data.kinds.planet)) do
    if G.values(g, id).system == system then out[#out + 1] = id end
  end
  return out
end

-- Environs of a planet: list of { id=, type=, size= } in map order.
function G.environs(g, planet)
  return G.values(g, planet).environs or {}
end

-- One environ of a planet, or nil.
function G.environ(g, planet, env)
  for _, e in ipairs(G.environs(g, planet)) do
    if e.id == env then return e end
  end
  return nil
end

-- Star distances to `to` over star routes (breadth first), as { id -> steps }.
local function distances_to(g, to)
  local dist, queue, head = { [to] = 0 }, { to }, 1
  while queue[head] do
    local cur = queue[head]
    head = head + 1
    for _, nb in ipairs(g.adj[cur] or {}) do
      if dist[nb] == nil and G.is_star(g, nb) then
        dist[nb] = dist[cur] + 1
        queue[#queue + 1] = nb
      end
    end
  end
  return dist
end

-- The shortest route between two stars (H1): the list of stars crossed, start excluded,
-- destination included, so #route is the jump distance. Among equally short routes the one
-- whose star ids come first alphabetically, star by star (deterministic; the distance is the
-- same). Units on the map are not an input: nothing on the route can interfere (H2).
-- Returns nil when either end is not a star or no route exists; {} when from == to.
function G.route(g, from, to)
  if not (G.is_star(g, from) and G.is_star(g, to)) then return nil end
  local dist = distances_to(g, to)
  if dist[from] == nil then return nil end
  local route, cur = {}, from
  while cur ~= to do
    local nxt
    for _, nb in ipairs(g.adj[cur]) do -- sorted: the first fitting neighbour is the smallest
      if dist[nb] == dist[cur] - 1 then nxt = nb break end
    end
    route[#route + 1] = nxt
    cur = nxt
  end
  return route
end

-- Jump distance in stars between two stars, or nil.
function G.distance(g, from, to)
  local r = G.route(g, from, to)
  return r and #r or nil
end

-- Joint jump penalty (H5): ships beyond `joint_free_ships`, after subtracting the leader's
-- space leadership rating from the stack size.
function G.joint_penalty(ships, leadership)
  local counted = ships - (leadership or 0)
  return math.max(0, counted - data.joint_free_ships)
end

-- The table column for a rating and a distance (H4): returns the column key, its 1-based index
-- in data.hyperjump.columns and the roll modifier. This mirrors the engine's shift_roll policy;
-- the game itself asks ctx:lookup, and a test checks both agree cell by cell.
---@param rating integer
---@param distance integer
---@return string key
---@return integer index
---@return integer roll_modifier
function G.column(rating, distance)
  local cols = data.hyperjump.columns
  local diff = distance - rating
  if diff < 0 then return assert(cols[1], "the table has columns"), 1, 0 end
  local last = #cols - 2 -- the last numeric column (5)
  if diff > last then return cols[#cols], #cols, diff - last end
  return assert(cols[diff + 2], "0 <= diff <= last is a numeric column"), diff + 2, 0
end

-- The table row index for a (modified) 2d6 total.
function G.row(total)
  local rows = data.hyperjump.rows
  if total >= 12 then return #rows end
  return total - 1
end

-- Read the table in pure Lua: result for a rating, a distance and a 2d6 total.
function G.result(rating, distance, total)
  local _, ci, mod = G.column(rating, distance)
  return data.hyperjump.cells[G.row(total + mod)][ci]
end

-- The 2d6 totals with their counts out of 36: from the engine core's exact distribution
-- (`dice.distribution`) when the engine namespace is there, else counted here.
local function two_d6()
  local out = {}
  if type(dice) == "table" and dice.distribution then
    for _, e in ipairs(dice.distribution(data.jump_dice)) do out[#out + 1] = { e.value, e.count } end
    return out
  end
  for total = 2, 12 do out[#out + 1] = { total, 6 - math.abs(total - 7) } end
  return out
end

-- Exact odds of each result by column (in 36ths): column = distance - rating (any integer;
-- below 0 is the leftmost, above 5 shifts the roll), or emergency = true for column 5 without
-- modifier. Returns a list { { result=, in36= }, ... } in the order safe .. disaster.
function G.odds(diff, emergency)
  local counts, order = {}, {}
  for _, e in ipairs(two_d6()) do
    local total, n = e[1], e[2]
    local res
    if emergency then
      res = data.hyperjump.cells[G.row(total)][data.emergency_column + 2]
    else
      res = G.result(0, diff, total)
    end
    if counts[res] == nil then
      counts[res] = 0
      order[#order + 1] = res
    end
    counts[res] = counts[res] + n
  end
  local rank = {}
  for i, id in ipairs({ "safe", "drift1", "drift2", "drift1_damaged", "drift2_damaged", "disaster" }) do
    rank[id] = i
  end
  table.sort(order, function(x, y) return rank[x] < rank[y] end)
  local out = {}
  for _, res in ipairs(order) do out[#out + 1] = { result = res, in36 = counts[res] } end
  return out
end

-- Everything about a plain jump between two stars for a navigation rating (for `hexforge eval`
-- and the editor): { route, distance, column, roll_modifier, odds }.
function G.jump_info(g, from, to, rating)
  local route = G.route(g, from, to)
  if not route then return nil end
  local key, _, mod = G.column(rating, #route)
  return { route = route, distance = #route, column = key, roll_modifier = mod, odds = G.odds(#route - rating) }
end

return G
