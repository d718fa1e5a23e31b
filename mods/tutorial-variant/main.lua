-- A variant of the tutorial in three edits. Everything the base declared is reachable under
-- game.piece_types, game.tables, game.actions, ... and can be changed before the game starts.

-- 1. A stat: scouts are faster.
game.piece_types.scout.stats.speed = 4

-- 2. A table cell: two guns at range 3 hit on 4+ instead of 5+.
game.tables.to_hit.cells[2][3] = 4

-- 3. An action's check: keep the base rule, then add one restriction.
local base_check = game.actions.fire.check
game.actions.fire.check = function(ctx, a)
  local why = base_check(ctx, a)
  if why then return why end
  local p, t = ctx:piece(a.params.piece), ctx:piece(a.params.target)
  if p.kind == "scout" and t.kind == "frigate" and hex.distance(p.pos, t.pos) > 2 then
    return "a scout fires at a frigate from 2 hexes or closer"
  end
end

-- choices must agree with check (bots and the editor offer what choices lists), so keep only
-- the base choices the new check allows.
local base_choices = game.actions.fire.choices
game.actions.fire.choices = function(ctx, side)
  local out = {}
  for _, params in ipairs(base_choices(ctx, side)) do
    if not game.actions.fire.check(ctx, { id = "fire", side = side, params = params }) then
      out[#out + 1] = params
    end
  end
  return out
end
