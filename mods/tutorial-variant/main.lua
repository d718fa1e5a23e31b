-- A variant of the tutorial in a few edits. Everything the base declared is reachable under
-- game.piece_types, game.tables, game.actions, ... and can be changed before the game starts.

-- 1. A stat: scouts are faster.
game.piece_types.scout.stats.speed = 4

-- 2. A table cell: two guns at range 3+ hit on 4+ instead of 5+.
game.tables.to_hit.cells[2][3] = 4

-- 3. An action's check: keep the base rule, then add one restriction.
local base_check = game.actions.fire.check
game.actions.fire.check = function(ctx, a)
  local ok, why = base_check(ctx, a)
  if not ok then return false, why end
  local p, t = ctx:piece(a.piece), ctx:piece(a.target)
  if p.type == "scout" and t.type == "frigate" and hex.distance(p.hex, t.hex) > 2 then
    return false, "a scout fires at a frigate from 2 hexes or closer"
  end
  return true
end

-- choices must only list actions that pass check (bots rely on it), so keep the base choices
-- the new check allows.
local base_choices = game.actions.fire.choices
game.actions.fire.choices = function(ctx, side)
  local out = {}
  -- expand_choices: whatever the base returns (plain tables or engine-made choice lists).
  for _, params in ipairs(game.expand_choices(base_choices(ctx, side))) do
    if game.actions.fire.check(ctx, { id = "fire", side = side, piece = params.piece, target = params.target }) then
      out[#out + 1] = params
    end
  end
  return out
end
