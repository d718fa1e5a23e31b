-- Bots: every action offered by `choices` passes its check, and a game driven only by the
-- offered actions reaches its end (random bots pick among the same lists).
local function drive(t, scenario, seed, audit_every, max_actions)
  local g = t:game { scenario = scenario, seed = seed }
  local n = 0
  while g:outcome() == nil and n < max_actions do
    local side = g:clock().active
    local offered = {}
    for _, a in ipairs(g:legal(side)) do
      if a.id ~= "end_phase" then offered[#offered + 1] = a end
    end
    if n % audit_every == 0 then
      for _, a in ipairs(offered) do
        local ok, why = g:try(a)
        if not ok then t:fail(("offered %s refused: %s"):format(a.id, tostring(why))) end
        g:undo()
      end
    end
    -- A fixed walk through the offers: every fifth action ends the go when the rules allow.
    local acted = false
    if n % 5 == 4 or #offered == 0 then acted = g:try { id = "end_phase", side = side } end
    if not acted then g:act(offered[(n * 7) % #offered + 1]) end
    n = n + 1
  end
  return g, n
end

test("T5 bots: a short game driven by the offered actions ends after its last turn", function(t)
  local g = drive(t, "standard-short", 3, 10, 3000)
  local out = g:outcome()
  t:ok(out ~= nil)
  t:matches(out.reason, "after the last turn")
  t:eq(g:clock().round, 7)
end)

test("T4 bots: the standard game's first turns offer only legal actions", function(t)
  local g, n = drive(t, "standard", 5, 7, 150)
  t:eq(n, 150)
  t:eq(#g:pieces { type = "mobile_base" }, 4)
end)
