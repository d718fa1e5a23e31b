-- Sample ship designs: this project's own, built with the document's 80-point design rules
-- (the document's pre-made designs "at the back of the manual" are not part of it).
-- Sections: 1 front, 2 front-right, 3 rear-right, 4 rear, 5 rear-left, 6 front-left, 7 core.
-- Licence: CC BY-NC-SA, as rule-derived data (see LICENSE.md).
return {
  order = { "lancer", "bastion", "corsair", "harrier" },
  -- Balanced line ship: three forward beams, shields all round but the rear, a torpedo aft.
  lancer = {
    name = "Lancer",
    components = {
      { kind = "beam", section = 1, level = 4 }, { kind = "shield", section = 1, level = 4 },
      { kind = "beam", section = 2, level = 3 }, { kind = "shield", section = 2, level = 3 },
      { kind = "beam", section = 6, level = 3 }, { kind = "shield", section = 6, level = 3 },
      { kind = "engine", section = 3, level = 3 }, { kind = "shield", section = 3, level = 2 },
      { kind = "engine", section = 5, level = 3 }, { kind = "shield", section = 5, level = 2 },
      { kind = "torpedo", section = 4, level = 3 }, { kind = "thruster", section = 4, level = 4 },
      { kind = "generator", section = 7, level = 4 }, { kind = "battery", section = 7, level = 4 },
    },
    crew = { 4, 4, 3, 3 },
  },
  -- Slow gun platform ("starbase" play): no main engine, heavy shields and big beams.
  bastion = {
    name = "Bastion",
    components = {
      { kind = "beam", section = 1, level = 5 }, { kind = "shield", section = 1, level = 5 },
      { kind = "beam", section = 3, level = 4 }, { kind = "shield", section = 3, level = 3 },
      { kind = "beam", section = 5, level = 4 }, { kind = "shield", section = 5, level = 3 },
      { kind = "shield", section = 2, level = 3 }, { kind = "thruster", section = 2, level = 3 },
      { kind = "shield", section = 6, level = 3 }, { kind = "shield", section = 4, level = 3 },
      { kind = "generator", section = 7, level = 5 }, { kind = "battery", section = 7, level = 4 },
    },
    crew = { 5, 4, 3, 3 },
  },
  -- Fast raider: strong engines and thrusters, two beams, light shields.
  corsair = {
    name = "Corsair",
    components = {
      { kind = "beam", section = 1, level = 5 }, { kind = "shield", section = 1, level = 4 },
      { kind = "beam", section = 2, level = 5 }, { kind = "thruster", section = 2, level = 4 },
      { kind = "thruster", section = 6, level = 4 }, { kind = "shield", section = 6, level = 4 },
      { kind = "engine", section = 3, level = 4 }, { kind = "engine", section = 4, level = 4 },
      { kind = "engine", section = 5, level = 3 },
      { kind = "generator", section = 7, level = 5 }, { kind = "battery", section = 7, level = 3 },
    },
    crew = { 4, 3, 3, 3, 2 },
  },
  -- Torpedo carrier: four tubes to control space, one beam, shields forward.
  harrier = {
    name = "Harrier",
    components = {
      { kind = "torpedo", section = 1, level = 4 }, { kind = "beam", section = 1, level = 6 },
      { kind = "torpedo", section = 2, level = 3 }, { kind = "shield", section = 2, level = 3 },
      { kind = "torpedo", section = 6, level = 3 }, { kind = "shield", section = 6, level = 3 },
      { kind = "engine", section = 4, level = 3 }, { kind = "torpedo", section = 4, level = 3 },
      { kind = "thruster", section = 3, level = 3 }, { kind = "shield", section = 5, level = 4 },
      { kind = "generator", section = 7, level = 5 }, { kind = "battery", section = 7, level = 3 },
    },
    crew = { 4, 3, 3, 3, 3 },
  },
}
