-- Shared declaration helpers for Solar Flare's action files (main.lua, setup.lua, fire.lua).
--
-- `action(decl)` declares a game action the way every action of this mod is declared: choices
-- and check read-only (their ctx memoises snapshots, R.readonly), and every apply ends by
-- eliminating the sides it left without ships (R.after_apply). Why not an after_action hook:
-- only an apply destroys ships, and a hook is a callback (a ctx built, a light read of every
-- ship) after every one of a game's ~700 actions, end_phase included. The tail call keeps the
-- declaration's own file:line for the engine's messages.
--
-- Deliberately absent: any rule. Example: `local X = require("decl"); X.action { id = ... }`.
local R = require("rules")

local X = {}

function X.action(decl)
  if decl.choices then decl.choices = R.readonly(decl.choices) end
  if decl.check then decl.check = R.readonly(decl.check) end
  if decl.label then decl.label = R.readonly(decl.label) end
  local apply = decl.apply
  if apply then
    decl.apply = function(ctx, a)
      local ok, why = apply(ctx, a)
      R.after_apply(ctx)
      return ok, why
    end
  end
  return game.action(decl)
end

---Whether the battle has begun (every design final, anomalies and ships placed).
function X.battle(ctx) return R.global(ctx, "battle", false) end

---Whether `side` may act now.
function X.acting(ctx, side)
  for _, s in ipairs(ctx.acting or {}) do if s == side then return true end end
  return ctx.active == side
end

return X
