-- The declaration object `game` (data stage). Runs once per VM before any mod entry file.
-- Declarations are plain tables kept as given, so variant mods edit them in place:
--   game.piece_types.frigate.stats.mr = 4
--   game.actions.move.check = function(ctx, a) ... end
-- Rust reads and validates everything after all entry files ran. This file never touches
-- game state and is not visible to `require`.
local where = ...
local type, rawget, format = type, rawget, string.format

local game = {}
local problems = {}
local sources = {}

local function problem(msg)
  problems[#problems + 1] = { where(), msg }
end

local function collection(kind, plural)
  local coll = {}
  sources[plural] = {}
  game[plural] = coll
  return function(t)
    if type(t) ~= "table" then
      problem(format("game.%s expects a table { id = \"...\", ... }, got %s", kind, type(t)))
      return nil
    end
    local id = rawget(t, "id")
    if type(id) ~= "string" then
      problem(format("game.%s: missing id (a string like \"frigate\")", kind))
      return nil
    end
    if rawget(coll, id) ~= nil then
      problem(format("game.%s: duplicate id %q (first declared at %s); to change it, edit game.%s[%q] instead",
        kind, id, sources[plural][id] or "?", plural, id))
      return nil
    end
    coll[id] = t
    sources[plural][id] = where()
    return t
  end
end

game.piece_type = collection("piece_type", "piece_types")
game.table = collection("table", "tables")
game.board = collection("board", "boards")
game.action = collection("action", "actions")
game.dice = collection("dice", "dice_types")
game.terrain = collection("terrain", "terrains")

game.hooks = {}
sources.hooks = {}

-- Named bots (docs/API.md, "game.bots"): game.bots.greedy = function(ctx, side, legal) return i end.
-- Read at play time, not validated here: a bot is a playtesting aid, not a rule.
game.bots = {}

--- Sets the turn structure (a later call replaces it).
function game.turns(t)
  if type(t) ~= "table" then
    problem("game.turns expects a table { order = \"fixed\", phases = { ... } }")
    return
  end
  game.turn = t
  sources.turns = where()
end

--- Sets the setup callback (a later call replaces it).
function game.setup(fn)
  game.setup_fn = fn
  sources.setup = where()
end

--- Sets the victory callback (a later call replaces it).
function game.victory(fn)
  game.victory_fn = fn
  sources.victory = where()
end

--- Adds a hook callback for an engine event: game.on(event, fn), or with a filter
--- game.on(event, { phases = { ... } }, fn) / { actions = { ... } }: the engine calls it only
--- for those phases (phase_start, phase_end) or actions (after_action). A filtered hook is kept
--- in game.hooks[event] as { fn = fn, phases = ..., actions = ... }.
function game.on(event, filter, fn)
  if type(event) ~= "string" then
    problem("game.on expects an event name, e.g. game.on(\"round_start\", function(ctx) ... end)")
    return
  end
  if fn == nil then
    fn = filter
  elseif type(filter) == "table" then
    fn = { fn = fn, phases = filter.phases, actions = filter.actions }
  else
    problem("game.on(event, filter, fn): the filter must be a table such as { phases = { \"move\" } }")
    return
  end
  local list = game.hooks[event]
  if list == nil then
    list = {}
    game.hooks[event] = list
    sources.hooks[event] = {}
  end
  list[#list + 1] = fn
  sources.hooks[event][#list] = where()
end

-- The choices a `choices` callback returned, as a plain list of param tables: the choice lists
-- among them (ctx:move_choices, search.move_choices) expanded in place. For a variant that
-- filters or extends another action's choices.
function game.expand_choices(result)
  local out = {}
  if type(result) == "userdata" then result = { result } end
  for _, c in ipairs(result or {}) do
    if type(c) == "userdata" then
      for _, x in ipairs(c) do out[#out + 1] = x end
    else
      out[#out + 1] = c
    end
  end
  return out
end

return game, problems, sources
