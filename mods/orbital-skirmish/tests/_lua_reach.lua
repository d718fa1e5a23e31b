-- The Lua reachability search that movement.reach used before it moved into the engine
-- (search.move_listing), kept only so tests can check the engine lists the same moves in the
-- same order. Not a test file (the name starts with "_").
local M = {}
local V = { [0] = { 0, -1 }, { 1, -1 }, { 1, 0 }, { 0, 1 }, { -1, 1 }, { -1, 0 } }

--- Every legal move: a list of { to, facing, turns, plan, start_facing }, one per end
-- position and facing (the one with the fewest turns, then the first found), sorted by q, r,
-- facing; a second list, one per way of leaving the map or (env.crash) crashing (with
-- `exited` or `crashed` set); and a third, one per way of running into a planet when planets
-- are not crashed into (a forced crash, used only when nothing else is possible). Rebuild any path with simulate(start, start_facing, speed, mr, plan, env).
-- `facings` lists the facings the ship may start with (more than one only for a ship leaving
-- orbit, which may rotate freely before it moves).
function M.reach(start, facings, speed, mr, env)
  local ends, exits, exit_seen, crashes, crash_seen = {}, {}, {}, {}, {}
  if speed == 0 then
    for _, f in ipairs(facings) do
      ends[#ends + 1] = { to = start, facing = f, turns = 0, plan = "", start_facing = f }
    end
    return ends, exits, crashes
  end
  -- A state is a flat array {q, r, facing, turns, parent, letters, start_facing}; its plan is
  -- the parents' letters joined, built only for the states that end a move (building every
  -- state's plan string was most of the cost at speed 12). Why one state per (hex, facing):
  -- a state with fewer turns used can do everything one with more can, so only the fewest
  -- turns (first found on a tie) is kept.
  local function plan_of(s, extra)
    local parts, n = { extra }, 1
    while s do
      if s[6] ~= "" then
        n = n + 1
        parts[n] = s[6]
      end
      s = s[5]
    end
    local out = {}
    for i = n, 1, -1 do out[#out + 1] = parts[i] end
    return table.concat(out)
  end
  local frontier = {}
  for _, f in ipairs(facings) do frontier[#frontier + 1] = { start.q, start.r, f, 0, nil, "", f } end
  local on_board, blocked, crash, pull = env.on_board, env.blocked, env.crash, env.pull
  local vectors = V
  for step = 1, speed do
    local nxt, index = {}, {}
    local function add(q, r, f, t, parent, letters)
      local k = ((q + 4096) * 8192 + (r + 4096)) * 8 + f
      local i = index[k]
      if not i then
        index[k] = #nxt + 1
        nxt[#nxt + 1] = { q, r, f, t, parent, letters, parent[7] }
      elseif t < nxt[i][4] then
        nxt[i] = { q, r, f, t, parent, letters, parent[7] }
      end
    end
    for _, s in ipairs(frontier) do
      local f = s[3]
      local v = vectors[f]
      local to = { q = s[1] + v[1], r = s[2] + v[2] }
      if not on_board(to) or (crash and blocked(to)) then
        local crashed = on_board(to)
        local k = to.q .. "," .. to.r .. "," .. f
        if not exit_seen[k] then
          exit_seen[k] = true
          exits[#exits + 1] = { to = to, facing = f, turns = s[4], plan = plan_of(s, "F"), start_facing = s[7],
                                exited = not crashed, crashed = crashed }
        end
      elseif blocked(to) then
        -- Not a legal move, but remembered: a ship with no other move crashes (main.lua).
        local k = to.q .. "," .. to.r .. "," .. f
        if not crash_seen[k] then
          crash_seen[k] = true
          crashes[#crashes + 1] = { to = to, facing = f, turns = s[4], plan = plan_of(s, "F"), start_facing = s[7],
                                    exited = false, crashed = true }
        end
      else
        local pulled = nil
        if pull and step < speed then pulled = pull(to, f, speed - step) end
        if pulled == "crash" then
          -- Flown head-on at a planet (gravity): the move ends here, listed with the exits.
          local k = to.q .. "," .. to.r .. "," .. f
          if not exit_seen[k] then
            exit_seen[k] = true
            exits[#exits + 1] = { to = to, facing = f, turns = s[4], plan = plan_of(s, "F"), start_facing = s[7],
                                  exited = false, crashed = true }
          end
        else
          f = pulled or f
          add(to.q, to.r, f, s[4], s, "F")
          if s[4] < mr then
            add(to.q, to.r, (f + 5) % 6, s[4] + 1, s, "FL")
            add(to.q, to.r, (f + 1) % 6, s[4] + 1, s, "FR")
          end
        end
      end
    end
    frontier = nxt
  end
  for _, s in ipairs(frontier) do
    ends[#ends + 1] = { to = { q = s[1], r = s[2] }, facing = s[3], turns = s[4], plan = plan_of(s[5], s[6]),
                        start_facing = s[7] }
  end
  table.sort(ends, function(a, b)
    if a.to.q ~= b.to.q then return a.to.q < b.to.q end
    if a.to.r ~= b.to.r then return a.to.r < b.to.r end
    return a.facing < b.facing
  end)
  return ends, exits, crashes
end

return M
