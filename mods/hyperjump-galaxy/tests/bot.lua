-- The greedy bot (bot.lua, game.bots.greedy): sensible picks in set situations, and it wins.
-- Piece numbers in the frontier scenario: Hegemony warships 1-3, transports 4-5 (troopers 9-12
-- aboard), courier 6, trooper 13 in Vessa Prime's urban environ; Accord warships 14-16,
-- transports 17-18 (troopers 22-25 aboard), courier 19, trooper 26 in Umbral Reach's urban.
local H = require("tests._helpers")
local game, put, fly, skip_to = H.game, H.put, H.fly, H.skip_to

local TARGETS = { korrin_gate = true, marrow = true, ilex_hold = true }

local function greedy(g, side) return H.pick(g, "greedy", side) end

-- Whether a jump or list of ships names a piece.
local function names(ships, id)
  for _, s in ipairs(ships or {}) do if s == id then return true end end
  return false
end

test("the greedy bot jumps its loaded transports to different target planets before ending the segment", function(t)
  local g = game(t)
  local dest = {} ---@type table<integer, string>
  for _ = 1, 12 do
    local a = greedy(g, "hegemony")
    if a.id == "end_phase" then break end
    if a.id == "jump" then
      for _, id in ipairs({ 4, 5 }) do
        if names(a.ships, id) then dest[id] = a.to end
      end
    end
    g:act(a)
  end
  t:ok(dest[4] ~= nil and TARGETS[dest[4]], "transport 4 jumps to a target planet")
  t:ok(dest[5] ~= nil and TARGETS[dest[5]], "transport 5 jumps to a target planet")
  t:ok(dest[4] ~= dest[5], "the two transports go to different targets")
  -- Both are short, safe jumps from Vessa: Korrin Gate (1 star) and Marrow (2), not Ilex Hold (3).
  t:eq({ dest[4], dest[5] }, { "korrin_gate", "marrow" })
end)

test("the greedy bot lands troops in the enemy's environ where they outnumber him, then attacks", function(t)
  local g = game(t)
  fly(g, 4, "marrow")                 -- troopers 9 and 10 aboard
  put(g, 22, "marrow", "urban")       -- one Accord trooper holds Marrow
  g:end_phase("hegemony")             -- to the planet segment
  local a = greedy(g, "hegemony")
  t:eq({ a.id, a.to }, { "land", "urban" })
  t:ok(a.piece == 9 or a.piece == 10)
  g:act(a)
  a = greedy(g, "hegemony")
  t:eq({ a.id, a.to }, { "land", "urban" })
  g:act(a)
  t:eq(greedy(g, "hegemony").id, "end_phase")
  g:end_phase("hegemony")             -- to the combat segment
  a = greedy(g, "hegemony")
  t:eq({ a.id, a.location, a.slot }, { "attack", "marrow", "urban" })
end)

-- Accord trooper 22 aboard transport 17 over Korrin Gate, held by four Hegemony troopers.
local function lone_over_korrin(t)
  local g = game(t)
  for i, id in ipairs({ 9, 10, 11, 12 }) do put(g, id, "korrin_gate", i <= 2 and "urban" or "jungle") end
  put(g, 23, "umbral_reach", "urban")
  fly(g, 17, "korrin_gate")
  return g
end

-- Whether the bot's pick for the accord lands trooper 22.
local function lands_22(g)
  local a = greedy(g, "accord")
  return a.id == "land" and a.piece == 22
end

test("the greedy bot keeps a lone unit aboard against many, but lands it to deny a planet at the very end", function(t)
  local g = lone_over_korrin(t)
  skip_to(g, 1, "accord", "planet")
  local legal = 0
  for _, a in ipairs(g:legal("accord")) do
    if a.id == "land" and a.piece == 22 then legal = legal + 1 end
  end
  t:eq(legal, 2, "trooper 22 may land in either environ")
  t:falsy(lands_22(g), "round 1: one against four stays aboard")
  -- The last turn of the last round (the Accord moves last): one unit anywhere on the planet
  -- stops the Hegemony holding it (V1), and nobody moves after.
  g = lone_over_korrin(t)
  skip_to(g, 8, "accord", "planet")
  t:ok(lands_22(g), "round 8, the last turn: it lands")
end)

test("the greedy bot does not attack outnumbered", function(t)
  -- Two Hegemony troopers against three in Marrow's urban environ.
  local g = game(t)
  put(g, 9, "marrow", "urban")
  put(g, 10, "marrow", "urban")
  for _, id in ipairs({ 22, 23, 24 }) do put(g, id, "marrow", "urban") end
  skip_to(g, 1, "hegemony", "combat")
  local attack = false
  for _, l in ipairs(g:legal("hegemony")) do attack = attack or l.id == "attack" end
  t:ok(attack, "an attack is legal")
  t:eq(greedy(g, "hegemony").id, "end_phase")
  -- Three against three, early in the game: still not (an even fight costs both alike).
  put(g, 11, "marrow", "urban")
  t:eq(greedy(g, "hegemony").id, "end_phase")
  -- Four against three: it attacks.
  put(g, 12, "marrow", "urban")
  local a = greedy(g, "hegemony")
  t:eq({ a.id, a.location, a.slot }, { "attack", "marrow", "urban" })
end)

-- Play one game: `side` by the greedy bot, the other by a picker that does not aim: a fixed
-- pseudo-random sequence (a linear congruential generator's high bits). Not `legal[i % n]`:
-- `restack` may be repeated without limit in a segment, and an index that repeats with the
-- list's length can toggle a courier between its stacks forever.
local function versus(t, side, seed)
  local g = game(t, seed)
  local x = seed
  for _ = 1, 3000 do
    if g:outcome() then break end
    local acting = assert(g:clock().acting[1], "a side acts")
    local legal = g:legal(acting)
    if acting == side then
      g:act(greedy(g, acting))
    else
      x = (x * 1103515245 + 12345) % 2147483648
      g:act(assert(legal[(x // 65536) % #legal + 1], "an index into legal"))
    end
  end
  local o = assert(g:outcome(), "the game is over")
  return #o.winners == 1 and o.winners[1] == side
end

test("the greedy bot (game.bots.greedy) beats a bot that does not aim, on either side", function(t)
  for _, side in ipairs({ "hegemony", "accord" }) do
    local wins = 0
    for seed = 1, 4 do
      if versus(t, side, seed) then wins = wins + 1 end
    end
    t:ok(wins >= 3, ("%s won %d of 4"):format(side, wins))
  end
end)
