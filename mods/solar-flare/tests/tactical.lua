-- The tactical bot (tactics.lua, game.bots.tactical): what it does differently from greedy,
-- and that it beats greedy where greedy in its place does not.
local H = require("tests._helpers")
local DES = require("design")
local DESIGNS = require("designs")

-- The firing range with both ships made Bastions (greedy's pick in the skirmish): red at 0,3
-- facing N, blue at 0,-3 facing S, six hexes apart on a clear line; red to act in `phase`.
-- `tweak(record)` changes red's fresh record before it is set.
local function bastions(t, phase, tweak)
  local g = t:game { scenario = "range", seed = 1 }
  local ids = { H.ship(g, "red").id, H.ship(g, "blue").id }
  g:edit(function(ctx)
    for i, id in ipairs(ids) do
      local rec = DES.build(DESIGNS.bastion, "bastion")
      if i == 1 and tweak then tweak(rec) end
      for k, v in pairs(rec) do ctx:set(id, k, v) end
    end
  end)
  H.go(g, "red", phase)
  return g, H.ship(g, "red"), H.ship(g, "blue")
end

-- Lets `bot` play red's actions until it ends the phase (at most 20).
local function run_phase(g, bot)
  for _ = 1, 20 do
    local a = assert(g:bot(bot, "red"), "red has legal actions")
    if a.id == "end_phase" then return end
    a.side = "red"; g:act(a)
  end
end

-- The component index of red's `kind` in `section`.
local function comp_at(p, kind, section)
  for i, c in ipairs(p.values.comps) do
    if c.kind == kind and c.section == section then return i end
  end
  error("no " .. kind .. " in section " .. section)
end

test("tactical: its front section gone, it turns a fresh section and a live beam to the enemy; greedy keeps the wreck forward", function(t)
  local facing = {}
  for _, bot in ipairs({ "tactical", "greedy" }) do
    local g, red = bastions(t, "movement", function(s)
      s.hull[1] = 0
      for _, c in ipairs(s.comps) do
        if c.section == 1 then c.dead = true; c.charge = 0 end
      end
    end)
    run_phase(g, bot)
    facing[bot] = g:piece(red.id).facing
  end
  t:eq(facing.greedy, 0) -- N
  -- Blue's line comes in through red's north hexside: facing SW (4) or SE (2) puts section 3
  -- or 5 there, with its shield, its armour and its beam of 4.
  t:ok(facing.tactical == 4 or facing.tactical == 2, "tactical faces " .. tostring(facing.tactical))
end)

test("tactical: the level 5 team raises the front shield from 4 to 5 and the level 4 team refills the beam", function(t)
  local shield = {}
  for _, bot in ipairs({ "tactical", "greedy" }) do
    local beam, sh ---@type integer, integer
    local g, red = bastions(t, "power", function(s)
      beam, sh = comp_at({ values = s }, "beam", 1), comp_at({ values = s }, "shield", 1)
      s.comps[beam].charge = 0
      s.comps[sh].charge = 4
    end)
    for _ = 1, 20 do
      local a = assert(g:bot(bot, "red"), "red has legal actions")
      if a.id == "end_phase" then break end
      a.side = "red"; g:act(a)
    end
    local c = g:piece(red.id).values.comps
    shield[bot] = c[sh].charge
    if bot == "tactical" then t:eq(c[beam].charge, 4) else t:eq(c[beam].charge, 5) end
  end
  -- Greedy gives its best team to the beam and the level 4 team leaves 4 of the 5 the shield's
  -- fifth level costs as a partial charge, which the next hit wipes out.
  t:eq(shield.tactical, 5)
  t:eq(shield.greedy, 4)
end)

-- Plays the skirmish of `seed` with `bots` until the side that placed its ship first may act
-- in its first weapons phase of the battle (the side placed last fires first); returns
-- whether it then has an aim at the other ship, and the side placed last.
local function first_reply(t, seed, bots)
  local g = t:game { scenario = "skirmish", seed = seed }
  local order = {}
  for _ = 1, 2000 do
    local c = g:clock()
    if #order == 2 and g:global("battle") and c.phase == "weapons" and H.active(g) == order[1] then
      local target = H.ship(g, order[2]).id
      for _, a in ipairs(g:legal(order[1])) do
        if a.id == "aim" and a.target == target then return true, order[2] end
      end
      return false, order[2]
    end
    local side = H.active(g)
    local a = assert(g:bot(bots[side], side), "legal actions")
    a.side = side
    if a.id == "deploy" then order[#order + 1] = side end
    if a.id == "end_phase" then g:try(a) else g:act(a) end
  end
  error("the battle never reached the first placer's weapons phase")
end

test("tactical: placing its ship last, it stands out of the enemy's beam arcs; greedy in its place does not", function(t)
  -- Seeds where blue places last (it is first in the play order). Greedy places next to the
  -- enemy facing it, and the enemy (placed facing the centre) has it in an arc; tactical takes
  -- its first shot where no beam of the enemy can answer before the enemy has turned.
  local seen = 0
  for seed = 1, 6 do
    local shot_back, last = first_reply(t, seed, { blue = "tactical", red = "greedy" })
    if last == "blue" then
      seen = seen + 1
      t:ok(not shot_back, "seed " .. seed .. ": tactical placed in an arc of the enemy")
      local greedy_shot_back = first_reply(t, seed, { blue = "greedy", red = "greedy" })
      t:ok(greedy_shot_back, "seed " .. seed .. ": greedy placed out of the enemy's arcs")
    end
  end
  t:ok(seen >= 2, "blue placed last in " .. seen .. " of 6 seeds")
end)

test("tactical beats greedy in the skirmish; greedy in its place does not", function(t)
  local function wins(bot)
    local n = 0
    for seed = 1, 4 do
      for _, side in ipairs({ "blue", "red" }) do
        local bots = { blue = "greedy", red = "greedy" }
        bots[side] = bot
        local g = t:game { scenario = "skirmish", seed = seed }
        local o = H.play_bots(g, bots, seed, 3000)
        if o and #o.winners == 1 and o.winners[1] == side then n = n + 1 end
      end
    end
    return n
  end
  local tactical, greedy = wins("tactical"), wins("greedy")
  t:ok(tactical >= 7, "tactical won " .. tactical .. " of 8")
  t:ok(greedy <= 5, "greedy in its place won " .. greedy .. " of 8")
end)
