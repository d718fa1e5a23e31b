-- The search bot's heuristic (`--bots mcts`, docs/API.md section 2.10b): how the game stands
-- for `side`, from 0 (lost) to 1 (won). Mostly its share of the score the game is decided on
-- (the fixed bases' points, rule T5; one point added to every side so that 0-0 is even), and
-- for the rest its share of the hits its pieces on the map can still take, since ships are
-- what plants and guards the bases.
local R = require("rules")

---@param ctx Ctx
---@param side string
---@return number
game.evaluate = function(ctx, side)
  local my_score, all_score, sides = 0, 0, 0 ---@type number, number, integer
  for _, s in ipairs(ctx:sides()) do
    local score = R.score(ctx, s.id)
    all_score, sides = all_score + score, sides + 1
    if s.id == side then my_score = score end
  end
  local my_hits, all_hits = 0, 0 ---@type number, number
  for _, p in ipairs(ctx:pieces { shared = true }) do
    if p.hex then
      local left = math.max(0, (p.stats.hits or 0) - ((p.values and p.values.damage) or 0))
      all_hits = all_hits + left
      if p.owner == side then my_hits = my_hits + left end
    end
  end
  local score = (my_score + 1) / (all_score + sides)
  local material = all_hits > 0 and my_hits / all_hits or 0.5
  return 0.75 * score + 0.25 * material
end
