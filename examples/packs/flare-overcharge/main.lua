-- flare-overcharge: a variant of solar-flare with one rule changed.
-- solar-flare keeps its numbers in data.lua and its rules read them when they run, so a
-- variant changes a rule by changing the number: `require("data")` returns the base's table
-- (the same one its rules use).
local D = require("data")

-- The rule: every ship makes 6 base power a round (solar-flare: 4), generators add their level.
D.base_power = 6
