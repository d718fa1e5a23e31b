-- squadron-command combat: what a roll of battle dice does to a target. Pure functions only.
--
-- This module reads faces and the face table from data.lua; it does not roll, move or remove
-- anything (main.lua applies the result through ctx).
--
-- Example: combat.resolve({ "strike", "wild", "star", "alert", "capital" }, "strike", data)
--   == { hits = 2, stars = 1, alerts = 1 }

local C = {}

---What a roll did: hits (figures lost), stars (command tokens won) and alerts (hexes retired).
---@class BattleResult
---@field hits integer
---@field stars integer
---@field alerts integer

-- Counts hits (faces of the target's class, and wild faces), stars and alerts in `faces`.
---@param faces string[]
---@param target_class string
---@param data table  -- data.lua (its `face_effect`)
---@return BattleResult
function C.resolve(faces, target_class, data)
  local out = { hits = 0, stars = 0, alerts = 0 }
  for _, f in ipairs(faces) do
    local effect = data.face_effect[f]
    if effect == "class" then
      if f == target_class then
        out.hits = out.hits + 1
      end
    elseif effect == "hit" then
      out.hits = out.hits + 1
    elseif effect == "star" then
      out.stars = out.stars + 1
    elseif effect == "alert" then
      out.alerts = out.alerts + 1
    end
  end
  return out
end

return C
