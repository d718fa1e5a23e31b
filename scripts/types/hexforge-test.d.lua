---@meta
-- Hexforge Lua tests (`tests/*.lua`, run by `hexforge test <mod>`): the `test` global, the
-- assertions on `t` and the game handles `t:game` returns. docs/API.md section 6.

---One test: `fn` gets the assertions and makes games with `t:game { .. }`.
---@param name string
---@param fn fun(t: TestCase)
function test(name, fn) end

---The assertions of one test; a failure names the test file and line.
---@class TestCase
local TestCase = {}

---Deep equality; `what` prefixes the failure message.
---@param actual any
---@param expected any
---@param what? string
function TestCase:eq(actual, expected, what) end

---`v` is truthy.
---@param v any
---@param what? string
function TestCase:ok(v, what) end

---`v` is false or nil.
---@param v any
---@param what? string
function TestCase:falsy(v, what) end

---`s` is a string matching the Lua pattern.
---@param s any
---@param pattern string
function TestCase:matches(s, pattern) end

---Always fails.
---@param msg? string
function TestCase:fail(msg) end

---A fresh game with setup run (defaults: the mod's first scenario, seed 1).
---@param opts? { scenario?: string, seed?: integer, options?: table }
---@return TestGame
function TestCase:game(opts) end

---A game in a test: actions, the log, undo, and every read method of ctx
---(`g:piece(1)`, `g:pieces { owner = "blue" }`, `g:terrain(h)`).
---@class TestGame: CtxReader
local TestGame = {}

---Performs the action; errors with the reason when it is illegal.
---@param action ActionTable
function TestGame:act(action) end

---Performs the action when it is legal.
---@param action ActionTable
---@return boolean ok
---@return string|nil reason
function TestGame:try(action) end

---Whether the action is legal now, without performing it.
---@param action ActionTable
---@return boolean ok
---@return string|nil reason
function TestGame:check(action) end

---`g:act { id = "end_phase", side = side }`.
---@param side string
function TestGame:end_phase(side) end

---The legal action tables for a side (`end_phase` included).
---@param side string
---@return ActionTable[]
function TestGame:legal(side) end

---`fn(ctx)` with a writable ctx: test set-up outside the rules, not logged.
---@param fn fun(ctx: Ctx)
function TestGame:edit(fn) end

---@return { winners: string[], reason: string }|nil
function TestGame:outcome() end

---The rolls of the last log entry.
---@return { total: integer, label: string, expr: string, dice: table[] }[]
function TestGame:rolls() end

---The whole log: one entry per action, with its events (the lines it logged) and rolls.
---@return { index: integer, action: table|nil, events: string[], rolls: table[] }[]
function TestGame:log() end

---Undoes the last action.
---@return boolean undone
function TestGame:undo() end

---@return string hash
function TestGame:state_hash() end

---@return { round: integer, segment: integer, phase: string|nil, active: string|nil, acting: string[], label: string|nil }
function TestGame:clock() end

---The sides that may act now.
---@return string[]
function TestGame:waiting() end

---The action bot `name` would take for `side` (nil when nothing is legal). `"mcts"` is the
---search bot, with the options `--bots mcts:...` takes and a `seed` (default: as `hexforge play`
---seeds it from the game's seed and the side).
---@param name string
---@param side string
---@param options? { iters?: integer, ms?: integer, horizon?: integer, cycles?: integer, c?: number, widen?: number, ends?: number, prior?: number, greedy?: number, guide?: string, trust?: number, model?: number|"seen", reuse?: integer, paired?: integer, own?: integer, seed?: integer }
---@return ActionTable|nil
function TestGame:bot(name, side, options) end

---What the mod's `game.evaluate(ctx, side)` answers now (read-only ctx), or nil without one;
---typed as present, as `g:piece` is: in a test a missing one fails at the line that uses it.
---@param side string
---@return number
function TestGame:evaluate(side) end

---A piece's snapshot, typed as present: in a test a missing piece fails at the line that uses
---it anyway, and `t:eq(g:piece(id), nil)` still checks that one is gone.
---@param id integer
---@param opts? { shared?: boolean }
---@return Piece
function TestGame:piece(id, opts) end
