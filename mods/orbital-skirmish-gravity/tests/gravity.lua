-- Gravity hexes. Scenario gravity-duel: planet at (0,0), ship 1 Blue's frigate (MR 3).
local G = require("gravity")

local function place(g, id, h, f, speed)
  g:edit(function(ctx)
    ctx:move(id, h, f)
    ctx:set(id, "speed", speed)
    ctx:set(id, "new_speed", -1)
    ctx:set(id, "moved", false)
    ctx:set(id, "orbit", false)
  end)
end

test("a pull turns a ship one hexside toward the planet", function(t)
  t:eq(G.pulled(0, 1, 1), 1) -- planet one hexside right: now facing it
  t:eq(G.pulled(0, 2, 1), 1) -- two hexsides right: one hexside right
  t:eq(G.pulled(0, 4, 1), 5) -- two hexsides left: one hexside left
  t:eq(G.pulled(0, 5, 1), 5)
  t:eq(G.pulled(0, 0, 1), 0) -- already facing the planet
  t:eq(G.pulled(0, 3, 1), 0) -- planet dead astern: no pull
end)

test("a ship passing a gravity hex is pulled and crashes into the planet", function(t)
  local g = t:game { scenario = "gravity-duel", seed = 1 }
  place(g, 1, { q = -1, r = 3 }, 0, 3)
  g:act { id = "speed", side = "blue", piece = 1, speed = 3 }
  -- (-1,1) is next to the planet, which lies NE of it: the frigate is pulled to face NE and
  -- its third hex is the planet's.
  g:act { id = "move", side = "blue", piece = 1, plan = "FFF" }
  t:eq(g:piece(1), nil)
  t:eq(assert(g:outcome(), "the game is over").winners, { "red" })
end)

test("a ship that enters a gravity hex head-on crashes there, whatever it turns after", function(t)
  local g = t:game { scenario = "gravity-duel", seed = 1 }
  place(g, 1, { q = 0, r = 3 }, 0, 3)
  g:act { id = "speed", side = "blue", piece = 1, speed = 3 }
  -- (0,1) lies south of the planet: flying N into it with a hex still to go is head-on.
  local ok, why = g:try { id = "move", side = "blue", piece = 1, plan = "FFLF" }
  t:falsy(ok); t:matches(why, "crashes at %(0,1%)")
  for _, a in ipairs(g:legal("blue")) do
    if a.id == "move" then t:falsy(a.to.q == 0 and a.to.r == 1) end -- not offered: other moves exist
  end
  g:act { id = "move", side = "blue", piece = 1, plan = "FF" }
  t:eq(g:piece(1), nil)
  -- At speed 2 the same hex is the last: no hexes left, no crash.
  g = t:game { scenario = "gravity-duel", seed = 1 }
  place(g, 1, { q = 0, r = 3 }, 0, 2)
  g:act { id = "speed", side = "blue", piece = 1, speed = 2 }
  g:act { id = "move", side = "blue", piece = 1, plan = "FF" }
  t:eq(g:piece(1).hex, { q = 0, r = 1 })
end)

test("a ship resists the pull by spending one of its turns", function(t)
  local g = t:game { scenario = "gravity-duel", seed = 1 }
  place(g, 1, { q = -1, r = 3 }, 0, 3)
  g:act { id = "speed", side = "blue", piece = 1, speed = 3 }
  local found
  for _, a in ipairs(g:legal("blue")) do
    if a.id == "move" then
      t:falsy(a.to.q == 0 and a.to.r == 0) -- crashing is not offered while other moves exist
      if a.to.q == -1 and a.to.r == 0 and a.facing == 0 then found = a.plan end
    end
  end
  t:eq(found, "FFLF")
  g:act { id = "move", side = "blue", piece = 1, plan = "FFLF" }
  t:eq(g:piece(1).hex, { q = -1, r = 0 }); t:eq(g:piece(1).facing, 0)
end)

test("a ship whose move ends in a gravity hex is not pulled", function(t)
  local g = t:game { scenario = "gravity-duel", seed = 1 }
  place(g, 1, { q = -1, r = 3 }, 0, 2)
  g:act { id = "speed", side = "blue", piece = 1, speed = 2 }
  g:act { id = "move", side = "blue", piece = 1, plan = "FF" }
  t:eq(g:piece(1).hex, { q = -1, r = 1 }); t:eq(g:piece(1).facing, 0)
end)

test("a ship in orbit is not pulled", function(t)
  local g = t:game { scenario = "gravity-duel", seed = 1 }
  place(g, 1, { q = 0, r = -1 }, 0, 2)
  g:act { id = "orbit", side = "blue", piece = 1, planet = { q = 0, r = 0 }, dir = "cw", facing = 0 }
  t:eq(g:piece(1).hex, { q = 1, r = -1 }); t:eq(g:piece(1).facing, 0)
end)

test("the base rules still hold in the variant", function(t)
  local g = t:game { scenario = "gravity-duel", seed = 1 }
  place(g, 1, { q = 3, r = 5 }, 0, 7)
  g:act { id = "speed", side = "blue", piece = 1, speed = 7 }
  g:act { id = "move", side = "blue", piece = 1, plan = "FFFLFFLFLF" }
  t:eq(g:piece(1).hex, { q = 0, r = 4 })
end)

test("the engine's move listing equals the old Lua search with gravity pulls and crashes", function(t)
  -- The base's old Lua search (mods/orbital-skirmish/tests/_lua_reach.lua) against
  -- movement.reach (search.move_listing) with this variant's env (pull and crash).
  local mv = ORBITAL_SKIRMISH.movement -- the base's module, as require("movement") gives it
  -- emmylua_check does not resolve require into a library given as a relative '..' path (the base
  -- folder in .luarc.json); the engine finds the base's tests/_lua_reach.lua.
  ---@diagnostic disable-next-line: unresolved-require
  local old = require("tests._lua_reach")
  local g = t:game { scenario = "gravity-duel", seed = 1 }
  local all = { 0, 1, 2, 3, 4, 5 }
  local cases = {
    { { q = -1, r = 3 }, { 0 }, 3, 3 }, { { q = -4, r = 6 }, { 0 }, 12, 5 },
    { { q = 1, r = -1 }, all, 4, 2 }, { { q = 2, r = 2 }, { 5 }, 8, 1 }, { { q = 0, r = 3 }, { 0 }, 6, 0 },
  }
  -- The same moves with the same fields, in the same order.
  local function same(xs, ys)
    t:eq(#xs, #ys)
    for i, x in ipairs(xs) do
      local y = assert(ys[i], "as many moves")
      t:eq({ x.to, x.facing, x.turns, x.plan, x.start_facing, x.exited, x.crashed },
           { y.to, y.facing, y.turns, y.plan, y.start_facing, y.exited or false, y.crashed or false })
    end
  end
  g:edit(function(ctx)
    local env = ORBITAL_SKIRMISH.move_env(ctx)
    t:eq(env.crash, true)
    for _, c in ipairs(cases) do
      local ends, exits, crashes = mv.reach(c[1], c[2], c[3], c[4], env)
      local old_ends, old_exits, old_crashes = old.reach(c[1], c[2], c[3], c[4], env)
      same(ends, old_ends); same(exits, old_exits); same(crashes, old_crashes)
    end
  end)
end)
