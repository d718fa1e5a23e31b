-- The base's greedy bot under gravity: it checks that a speed or move leaves its ship a way on
-- (bot.lua, B.has_way_on), so it never flies into a crash the rules would force on it next turn.

-- How many times the log says ship `id` crashed.
local function crashes(g, id)
  local n = 0
  for _, entry in ipairs(g:log()) do
    for _, line in ipairs(entry.events) do
      if tostring(line):find("ship " .. id .. " .*crashes") then n = n + 1 end
    end
  end
  return n
end

test("a greedy ship never crashes into the planet (red greedy, blue picking blindly, 8 seeds)", function(t)
  for seed = 1, 8 do
    local g = t:game { scenario = "gravity-duel", seed = seed }
    for i = 1, 3000 do
      if g:outcome() then break end
      local side = assert(g:clock().acting[1], "a side acts while the game is on")
      if side == "red" then
        g:act(assert(g:bot("greedy", side), "a side that acts has legal actions"))
      else
        local legal = g:legal(side)
        g:act(assert(legal[(i * 7 + seed) % #legal + 1], "an index into legal"))
      end
    end
    t:ok(g:outcome() ~= nil, "seed " .. seed .. " ends")
    t:eq(crashes(g, 2), 0, "seed " .. seed .. ": red's crashes")
  end
end)

test("a ship two hexes short of the planet, flying at it, is not left there", function(t)
  -- Blue at (0,7) facing N at speed 5 (ADF 3: at least 2 next turn), the planet at (0,0), red
  -- beyond it at (0,-4): ending at (0,2) still facing N (nearest red) would leave blue no move
  -- next turn but into the gravity hex (0,1) head-on, with hexes still to go: a crash.
  local g = t:game { scenario = "gravity-duel", seed = 1 }
  g:edit(function(ctx)
    ctx:move(1, { q = 0, r = 7 }, 0)
    ctx:set(1, "speed", 5)
    ctx:set(1, "new_speed", -1)
    ctx:move(2, { q = 0, r = -4 }, 3)
  end)
  g:act { id = "speed", side = "blue", piece = 1, speed = 5 }
  local a = assert(g:bot("greedy", "blue"), "blue has moves")
  t:eq(a.id, "move")
  t:ok(not (a.to.q == 0 and a.to.r == 2 and a.facing == 0), "not (0,2) facing the planet")
end)
