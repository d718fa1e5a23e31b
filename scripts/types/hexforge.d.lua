---@meta
-- LuaLS definitions for the Hexforge mod API (v1). Part of the API: a test in
-- engine/script/tests/api_defs.rs checks that every function registered by the engine is
-- declared here and that every function declared here is registered.
-- Point your editor at this folder (".luarc.json": { "workspace.library": ["scripts/types"] }).

---@class Hex
---@field q integer
---@field r integer

---@alias Direction integer|"N"|"NE"|"SE"|"S"|"SW"|"NW" 0 = N, clockwise
---@alias TurnWay "cw"|"ccw"

-------------------------------------------------------------------------------------------------
-- hex: axial hex geometry (pure)
-------------------------------------------------------------------------------------------------
hex = {}

---A hex from axial coordinates.
---@param q integer
---@param r integer
---@return Hex
function hex.new(q, r) end

---Hex steps between two hexes.
---@param a Hex
---@param b Hex
---@return integer
function hex.distance(a, b) end

---Distance from the origin.
---@param h Hex
---@return integer
function hex.length(h) end

---The neighbour in a direction.
---@param h Hex
---@param d Direction
---@return Hex
function hex.neighbor(h, d) end

---The six neighbours, in direction order N, NE, SE, S, SW, NW.
---@param h Hex
---@return Hex[]
function hex.neighbors(h) end

---`k` steps in a direction.
---@param h Hex
---@param d Direction
---@param k integer
---@return Hex
function hex.step(h, d, k) end

---The direction from a to b when they are adjacent, else nil (see hex.straight_line_to).
---@param a Hex
---@param b Hex
---@return integer|nil
function hex.direction_to(a, b) end

---Direction and distance when b is on a straight line from a, else nil.
---@param a Hex
---@param b Hex
---@return integer|nil direction
---@return integer|nil steps
function hex.straight_line_to(a, b) end

---Rotates h about center by `steps` sixth-turns.
---@param h Hex
---@param center Hex
---@param way TurnWay
---@param steps integer
---@return Hex
function hex.rotate_around(h, center, way, steps) end

---Same as hex.rotate_around.
---@param h Hex
---@param center Hex
---@param way TurnWay
---@param steps integer
---@return Hex
function hex.rotate(h, center, way, steps) end

---Mirror image across the N/S line through the origin.
---@param h Hex
---@return Hex
function hex.reflect_q(h) end

---@param a Hex
---@param b Hex
---@return Hex
function hex.add(a, b) end

---@param a Hex
---@param b Hex
---@return Hex
function hex.sub(a, b) end

---@param h Hex
---@param k integer -64..64
---@return Hex
function hex.scale(h, k) end

---@param a Hex
---@param b Hex
---@return boolean
function hex.equals(a, b) end

---@param a Hex
---@param b Hex
---@return boolean
function hex.eq(a, b) end

---"q,r": a string to use as a table key.
---@param h Hex
---@return string
function hex.key(h) end

---The hexes at exactly `radius`, from the `start` corner (default N) going `way` (default "cw").
---@param center Hex
---@param radius integer 0..2000
---@param start? Direction
---@param way? TurnWay
---@return Hex[]
function hex.ring(center, radius, start, way) end

---Every hex within `radius`, sorted by (q, r).
---@param center Hex
---@param radius integer 0..200
---@return Hex[]
function hex.range(center, radius) end

---The centre, then ring by ring (each from `start`, going `way`).
---@param center Hex
---@param radius integer 0..200
---@param start? Direction
---@param way? TurnWay
---@return Hex[]
function hex.spiral(center, radius, start, way) end

---One step around `center` along the ring through `h`.
---@param center Hex
---@param h Hex
---@param way? TurnWay
---@return Hex
function hex.orbit_step(center, h, way) end

---The `k` hexes after `from` in direction `d`.
---@param from Hex
---@param d Direction
---@param k integer 0..10000
---@return Hex[]
function hex.row(from, d, k) end

---@class TraceStep
---@field kind "cross"|"vertex"|"tie"
---@field q? integer for cross
---@field r? integer for cross
---@field touched? Hex for vertex
---@field left? Hex for tie
---@field right? Hex for tie

---@class Trace
---@field from Hex
---@field to Hex
---@field steps TraceStep[]

---The exact line between two hex centres (at most 10000 hexes long).
---@param a Hex
---@param b Hex
---@return Trace
function hex.trace(a, b) end

---The hexes a trace crosses, in order (given as a trace or as two hexes).
---@param trace_or_a Trace|Hex
---@param b? Hex
---@return Hex[]
function hex.hexes_crossed(trace_or_a, b) end

---True if the line is blocked even choosing the better side at every tie.
---Call as (trace, is_blocker) or (a, b, is_blocker).
---@param trace_or_a Trace|Hex
---@param b_or_fn Hex|fun(h: Hex): boolean
---@param is_blocker? fun(h: Hex): boolean
---@return boolean
function hex.blocked_unless_avoidable(trace_or_a, b_or_fn, is_blocker) end

---The hexes of a trace with every tie resolved by `choose(left, right) -> "left"|"right"`.
---Call as (trace, choose) or (a, b, choose).
---@param trace_or_a Trace|Hex
---@param b_or_fn Hex|fun(left: Hex, right: Hex): "left"|"right"
---@param choose? fun(left: Hex, right: Hex): "left"|"right"
---@return Hex[]
function hex.resolve_ties(trace_or_a, b_or_fn, choose) end

---Where `target` lies relative to the fire arc on hexside `side` of `origin`.
---@param origin Hex
---@param side Direction
---@param target Hex
---@return "inside"|"boundary"|"outside"
function hex.arc_position(origin, side, target) end

---Every hex of the arc out to `max_range`, with its position.
---@param origin Hex
---@param side Direction
---@param max_range integer 0..200
---@return { hex: Hex, position: "inside"|"boundary" }[]
function hex.arc_hexes(origin, side, max_range) end

--- The absolute hexside of a ship section: section 0 is the front (the facing), counted
--- clockwise (1 = front right, 3 = rear, 5 = front left); any integer works modulo 6.
---@param facing Direction
---@param section integer
---@return Direction
function hex.relative_side(facing, section) end

---Which hexside (or vertex) of `target` a line from `from` enters by: { side = d } or { vertex = { d1, d2 } }.
---@param from Hex
---@param target Hex
---@return table|nil
function hex.entry_hexside(from, target) end

---The entry relative to the target's facing (0 = its front): { side = k } or { vertex = { k1, k2 } }.
---@param from Hex
---@param target Hex
---@param facing Direction
---@return table|nil
function hex.relative_entry(from, target, facing) end

-------------------------------------------------------------------------------------------------
-- direction: the six directions 0..5 clockwise from N
-------------------------------------------------------------------------------------------------
direction = {}
direction.N = 0
direction.NE = 1
direction.SE = 2
direction.S = 3
direction.SW = 4
direction.NW = 5

---@param d Direction
---@return string
function direction.name(d) end

---@param name string
---@return integer|nil
function direction.from_name(name) end

---@param d Direction
---@param way TurnWay
---@param steps integer
---@return integer
function direction.rotate(d, way, steps) end

---@param d Direction
---@return integer
function direction.opposite(d) end

---One step counter-clockwise.
---@param d Direction
---@return integer
function direction.left(d) end

---One step clockwise.
---@param d Direction
---@return integer
function direction.right(d) end

---@param d Direction
---@return integer dq
---@return integer dr
function direction.vector(d) end

---Smallest number of hexside turns (0..3) between two facings, and which way.
---@param from Direction
---@param to Direction
---@return integer steps
---@return TurnWay way
function direction.turns_to(from, to) end

-------------------------------------------------------------------------------------------------
-- dice: notation and exact odds (roll with ctx:roll)
-------------------------------------------------------------------------------------------------
--- Even-r offset coordinates (col, row) <-> axial hexes (even rows shoved half a hex right).
board = {}

---@param h Hex
---@return integer col
---@return integer row
function board.to_offset(h) end

---@param col integer
---@param row integer
---@return Hex
function board.from_offset(col, row) end

--- Movement searches; the callbacks run under the calling engine call's instruction budget.
search = {}

---@class SearchLimits
---@field max_expanded? integer  -- most hexes expanded (default 200000)
---@field max_cost? integer      -- dearer paths are ignored
---@field min_step_cost? integer -- promise that no step costs less (A* heuristic); default 0

--- The cheapest path, or nil if there is none within the limits.
---@param start Hex
---@param goal Hex
---@param cost_fn fun(from: Hex, to: Hex): integer|nil  -- nil/false = the step is impossible
---@param limits? SearchLimits
---@return { hexes: Hex[], cost: integer }|nil
function search.cheapest_path(start, goal, cost_fn, limits) end

---@class FacingRules
---@field speed integer              -- hexes to move, exactly
---@field max_turns? integer         -- most hexside turns (MR); default 0
---@field turn_in_final_hex? boolean -- default true

--- Every end position of a facing-and-turns move (one hexside turn per hex entered, none in the
--- start hex), with the fewest turns, in (hex, facing) order.
---@param start Hex
---@param facing Direction
---@param rules FacingRules
---@param enterable_fn? fun(h: Hex): boolean  -- default: every hex
---@return { hex: Hex, facing: Direction, path: Hex[], turns: integer }[]
function search.facing_moves(start, facing, rules, enterable_fn) end

---@class ListingRules
---@field speed integer              -- hexes to move, exactly
---@field max_turns? integer         -- most hexside turns (MR); default 0
---@field turn_in_final_hex? boolean -- default true
---@field paths? boolean             -- add each move's `path` (start hex first); default false
---@field max_expanded? integer      -- most search steps stored (default 200000); beyond: truncated

---@class ListingEnv
---@field on_board? fun(h: Hex): boolean  -- false: off the map (moving there is an exit); default all on
---@field blocked? (fun(h: Hex): boolean)|Hex[] -- true: a planet (or the list of planet hexes, answered by the engine); default none
---@field crash? boolean                  -- moving into a blocked hex crashes (an exit) instead of being illegal
---@field pull? fun(h: Hex, facing: integer, left: integer): Direction|"crash"|nil -- facing after entering h with `left` hexes to go, or "crash" (the move ends there)

---@class ListedMove
---@field to Hex
---@field facing integer
---@field turns integer
---@field plan string           -- "F" per hex, "L"/"R" per turn after it ("FFLF...")
---@field start_facing integer
---@field exited boolean
---@field crashed boolean
---@field path? Hex[]           -- with rules.paths

--- Every legal move with its plan: ends (one per hex and facing, fewest turns, sorted by q, r,
--- facing), exits (off the map, or crashes with env.crash) and crashes (into a blocked hex:
--- illegal unless nothing else is possible), both in the order found. The env callbacks must
--- be pure (asked once per hex; pull once per hex, facing and hexes left).
---@param start Hex
---@param facings Direction|Direction[]  -- the allowed start facings
---@param rules ListingRules
---@param env? ListingEnv
---@return ListedMove[] ends
---@return ListedMove[] exits
---@return ListedMove[] crashes
---@return boolean truncated
function search.move_listing(start, facings, rules, env) end

---A list of action choices kept by the engine: `#list`, `list[i]` (a fresh table each read) and
---`ipairs(list)` work; it cannot be changed. A `choices` callback may return one, or put it as
---one item of the list it returns: the engine counts and converts its choices in its place,
---making each one only when it is needed.
---@class ChoiceList
---@field [integer] table

--- search.move_listing's moves as choice lists: each choice is `params` plus `plan`, `to`,
--- `facing` (and `start_facing` when `facings` lists more than one, `path` with rules.paths).
---@param start Hex
---@param facings Direction|Direction[]
---@param rules ListingRules
---@param env? ListingEnv
---@param params? table  -- plain values every choice carries, e.g. { piece = 3 }
---@return ChoiceList ends
---@return ChoiceList exits
---@return ChoiceList crashes
---@return boolean truncated
function search.move_choices(start, facings, rules, env, params) end

---Step distances from a walk of `search.distances`: `d:at(h)`, `#d`, `d:truncated()`.
---@class Distances
local Distances = {}

---The distance of `h` from the nearest source, or nil when out of reach.
---@param h Hex
---@return integer|nil
function Distances:at(h) end

---Whether the hex budget cut the walk short (farther hexes may be missing).
---@return boolean
function Distances:truncated() end

---Step distances from the nearest of `sources` to every hex within `max` steps; off-board hexes
---are never entered, a blocked hex gets its distance but no path goes on through it.
---@param sources Hex[]
---@param max integer
---@param env? { on_board?: fun(h: Hex): boolean, blocked?: (fun(h: Hex): boolean)|Hex[] }
---@return Distances
function search.distances(sources, max, env) end

dice = {}

---Canonical notation of a dice expression ("2d6+1", "4d6kh3", ...).
---@param notation string
---@return string
function dice.parse(notation) end

---Every total with its count and probability.
---@param notation string
---@return { value: integer, count: number, p: number }[]
function dice.distribution(notation) end

---@param notation string
---@param value integer
---@return number
function dice.at_least(notation, value) end

---@param notation string
---@param value integer
---@return number
function dice.at_most(notation, value) end

---@param notation string
---@return number
function dice.mean(notation) end

-------------------------------------------------------------------------------------------------
-- tables: the rule set's declared tables (installed when the rule set loads)
-------------------------------------------------------------------------------------------------
tables = {}

---The cell at a row and column after `shift` columns, and the roll modifier a shift-roll column
---axis added.
---@param id string
---@param row integer|string
---@param column integer|string
---@param shift? integer
---@return string|integer cell, integer roll_modifier
function tables.lookup(id, row, column, shift) end

---Exact odds of each result when the row is rolled with `dice` in `column`.
---@param id string
---@param dice string
---@param column integer|string
---@param shift? integer
---@return { result: string|integer, numer: integer, denom: integer, p: number }[]
function tables.odds(id, dice, column, shift) end

---The declared table ids, sorted.
---@return string[]
function tables.ids() end

-------------------------------------------------------------------------------------------------
-- game: declarations (data stage)
-------------------------------------------------------------------------------------------------
---@class Game
---@field piece_types table<string, table>
---@field tables table<string, table>
---@field dice_types table<string, table>
---@field terrains table<string, table>
---@field boards table<string, table>
---@field actions table<string, table>
---@field hooks table<string, (function|{ fn: function, phases?: string[], actions?: string[] })[]>
---@field turn table|nil
---@field bots table<string, fun(ctx: Ctx, side: string, legal: table[]): integer>
---How good the game looks for `side`, from 0 (lost) to 1 (won), for the search bot's cut-short
---simulations (docs/API.md section 2.10b). Read-only ctx; optional.
---@field evaluate? fun(ctx: Ctx, side: string): number
---Save migrations by mod id (docs/MODDING.md section 14): called with the version a save was
---made with and the save as plain data; return the migrated save, or nil and a reason.
---@field migrations table<string, fun(from: string, save: { mod: string, from: string, to: string, scenario: string, options: any, seed: integer, actions: { id: string, side: string, params: any }[] }): table|nil, string?>|nil
game = {}

---How the editor draws a piece (docs/API.md 2.1a): `label` (at most 6 characters), the
---`factors` line, status `markers` and `damage = { taken, of }`.
---@class Counter
---@field label string
---@field factors? string
---@field markers? string[]
---@field damage? [integer, integer]

---@param t { id: string, name?: string, stats?: table, values?: table, footprint?: Hex[], counter?: Counter|fun(ctx: CtxReader, p: Piece): Counter, [string]: any }
function game.piece_type(t) end

---@param t { id: string, rows: any[], columns: any[], cells: any[][], row_policy?: string, column_policy?: string, roll?: string }
function game.table(t) end

---@param t { id: string, faces?: string[], notation?: string }
function game.dice(t) end

---@param t { id: string, name?: string, color?: string }
function game.terrain(t) end

---@param t { id: string, shape?: string }
function game.board(t) end

---An action as `choices` lists it, `check` and `apply` get it and tests write it: `id`, `side`
---and the params as fields.
---@alias ActionTable { id: string, side: string, [string]: any }

---A `game.action { ... }` declaration (docs/API.md section 2.7).
---@class ActionDecl
---@field id string
---@field phases? string[]
---@field params? table<string, string>
---`choices(ctx, side)`: a list of param tables (choice lists from ctx:move_choices may be items),
---or one choice list.
---@field choices? fun(ctx: Ctx, side: string): table|ChoiceList
---`check(ctx, a)`: `true`, or `false, "reason"` (or the reason alone).
---@field check? fun(ctx: Ctx, a: ActionTable): boolean|string|nil, string?
---`apply(ctx, a)`: nothing or `true` accepts; `false, "reason"` (or a string) refuses.
---@field apply? fun(ctx: Ctx, a: ActionTable): boolean|string|nil, string?
---An answer to `ctx:ask` (section 2.7).
---@field answer? boolean
---How the editor names a choice: a string, or `{ text =, short = }` (`short`, at most 12
---characters, is drawn on the map by the target or hex). Drawing only (section 2.7).
---@field label? fun(ctx: CtxReader, a: ActionTable): string|{ text: string, short?: string }|nil

---@param t ActionDecl
function game.action(t) end

---@param t { order?: "fixed"|"rolled"|"hook", die?: string, teams?: boolean, phases: table[], segments?: integer, time_track?: string[], turn_limit?: integer }
function game.turns(t) end

---@param fn fun(ctx: Ctx)
function game.setup(fn) end

---@param fn fun(ctx: Ctx): { winners: string[], reason: string }|nil
function game.victory(fn) end

---Adds a hook: game.on(event, fn), or game.on(event, { phases = {...} }, fn) (phase_start,
---phase_end) / game.on("after_action", { actions = {...} }, fn): called only for those.
---@param event "round_start"|"segment_start"|"turn_start"|"phase_start"|"phase_end"|"after_action"|"turn_limit"
---@param filter { phases?: string[], actions?: string[] }|fun(ctx: Ctx, ev: table)
---@param fn? fun(ctx: Ctx, ev: table)
function game.on(event, filter, fn) end

---The choices a `choices` callback returned as a plain list of param tables, with choice lists
---(ctx:move_choices, search.move_choices) expanded in place: for a variant that filters or
---extends another action's choices.
---@param result (table|ChoiceList)[]|ChoiceList|nil
---@return table[]
function game.expand_choices(result) end

-------------------------------------------------------------------------------------------------
-- ctx: the only way callbacks see and change the game
-------------------------------------------------------------------------------------------------
---A piece's snapshot (ctx:piece, ctx:pieces). Light snapshots (`fields`) hold only the fields
---asked for.
---@class Piece
---@field id integer
---@field type string
---@field owner string
---@field hex Hex|nil  -- nil when the piece is not on a hex (a graph node, a box)
---@field position table
---@field facing integer|nil
---@field values table<string, any>
---@field stats table<string, any>

---A side's snapshot (ctx:side, ctx:sides).
---@class Side
---@field id string
---@field name string
---@field team string|nil
---@field eliminated boolean
---@field values table<string, any>

---What every ctx and a test's game handle can read (a test's `g:piece(1)` is ctx:piece).
---@class CtxReader
local CtxReader = {}

---The ctx of a callback: the reads of CtxReader, the fields below (snapshots taken when the
---callback starts) and, where the callback may change the game, the writes.
---@class Ctx: CtxReader
---@field round integer
---@field segment integer
---@field phase string|nil
---@field label string|nil
---@field turn_limit integer|nil  -- last round of this game (the scenario may override the declared one)
---@field active string|nil
---@field acting string[]  -- read-only (shared by every ctx)
---@field scenario string
---@field options table  -- read-only (shared by every ctx)
local Ctx = {}

---@return Side[]
function CtxReader:sides() end

---@param id string
---@return Side|nil
function CtxReader:side(id) end

---Piece snapshots by id; `fields` lists the top-level fields to keep (light snapshots: any of
---"id", "type", "owner", "hex", "position", "facing", "values", "stats"); `shared = true` gives
---the shared, read-only snapshots even where the callback may write (no copy per read).
---@param filter? { owner?: string, type?: string, at?: Hex, location?: string, fields?: string[], shared?: boolean }
---@return Piece[]
function CtxReader:pieces(filter) end

---True when a piece with this id is in the game.
---@param id integer
---@return boolean
function CtxReader:exists(id) end

---A piece's snapshot; `opts.shared` as for ctx:pieces.
---@param id integer
---@param opts? { shared?: boolean }
---@return Piece|nil
function CtxReader:piece(id, opts) end

---@param h Hex
---@return Piece[]
function CtxReader:pieces_at(h) end

---@param id integer
---@return Hex[]
function CtxReader:footprint(id) end

---@param h Hex
---@return string[]
function CtxReader:terrain(h) end

---@param id string
---@return table|nil
function CtxReader:terrain_info(id) end

---@param h Hex
---@return boolean
function CtxReader:on_board(h) end

---search.move_listing where a hex is on the map when the game's board has it (answered by the
---engine: no Lua call per hex), unless env.on_board is given.
---@param start Hex
---@param facings Direction|Direction[]
---@param rules ListingRules
---@param env? ListingEnv
---@return ListedMove[] ends
---@return ListedMove[] exits
---@return ListedMove[] crashes
---@return boolean truncated
function CtxReader:move_listing(start, facings, rules, env) end

---search.move_choices on the game's board (as ctx:move_listing): choice lists a `choices`
---callback can return as they are.
---@param start Hex
---@param facings Direction|Direction[]
---@param rules ListingRules
---@param env? ListingEnv
---@param params? table
---@return ChoiceList ends
---@return ChoiceList exits
---@return ChoiceList crashes
---@return boolean truncated
function CtxReader:move_choices(start, facings, rules, env, params) end

---search.distances on the game's board (no Lua call per hex unless env.on_board is given).
---@param sources Hex[]
---@param max integer
---@param env? { on_board?: fun(h: Hex): boolean, blocked?: (fun(h: Hex): boolean)|Hex[] }
---@return Distances
function CtxReader:distances(sources, max, env) end

---Every hex of the board; `filter.terrain` keeps the hexes with that terrain now.
---@param filter? { terrain?: string }
---@return Hex[]
function CtxReader:board_hexes(filter) end

---The board's timed terrain, present this round or not, in the scenario's order.
---@return { hex: Hex, terrain: string, labels: string[] }[]
function CtxReader:timed_terrain() end

---Kind of a board hex: "full", "half", "seam", "rim"; nil off the board ("full" with no board).
---@param h Hex
---@return string|nil
function CtxReader:hex_kind(h) end

---@param id string
---@return table|nil
function CtxReader:graph(id) end

---The shortest route between two nodes of a graph map, both ends included (equally short routes:
---the alphabetically first), or nil when there is none.
---@param graph string
---@param from string
---@param to string
---@return string[]|nil
function CtxReader:graph_route(graph, from, to) end

---Routes crossed on the shortest route (destination counted, start not), or nil.
---@param graph string
---@param from string
---@param to string
---@return integer|nil
function CtxReader:graph_distance(graph, from, to) end

---@param key string
---@return any
function CtxReader:global(key) end

---@param type_id string
---@return table|nil
function CtxReader:type(type_id) end

--- Looks up a declared table. Row and column are numbers (a roll, a range) or names; `shift`
--- moves that many columns (negative = left). Past the ends the table's policies apply: "clamp"
--- uses the end key, "error" raises, a "shift_roll" column uses the last column and adds the steps
--- beyond it to the row value (returned as the roll modifier).
---@param table_id string
---@param row integer|string
---@param column integer|string
---@param shift? integer
---@return string|integer cell
---@return integer roll_modifier
function CtxReader:lookup(table_id, row, column, shift) end

---@param action table
---@return boolean ok
---@return string|nil reason
function CtxReader:legal(action) end

---@param id integer
---@param h Hex
---@param facing? Direction
function Ctx:move(id, h, facing) end

---@param id integer
---@param position Hex|{ location: string, slot?: string }|{ box: string }
function Ctx:place(id, position) end

---Sets a piece value (nil deletes); `key` may be a path { "comps", 3, "charge" } into a value.
---@param id integer
---@param key string|(string|integer)[]
---@param value any
function Ctx:set(id, key, value) end

---@param side string
---@param key string
---@param value any
function Ctx:set_side(side, key, value) end

---@param key string
---@param value any
function Ctx:set_global(key, value) end

---@param t { type: string, owner: string, hex?: Hex, position?: table, facing?: Direction, values?: table }
---@return integer
function Ctx:create(t) end

---@param id integer
function Ctx:destroy(id) end

---@param side string
function Ctx:eliminate(side) end

---@param h Hex
---@param ids string[]
function Ctx:set_terrain(h, ids) end

---@param outcome { winners: string[], reason: string }
function Ctx:end_game(outcome) end

---Hands the next actions to `side` in the middle of the phase: until `ctx:answered()`,
---only `side` may act and nobody may end the phase.
---@param side string
function Ctx:ask(side) end

---The asked side has answered: the phase's own sides act again.
function Ctx:answered() end

---Rolls for the play order now; the next round starts in that order. `faces`: with
---order = "hook" only (order = "rolled" rolls its declared die).
---@param faces? integer
---@return string[] takers the turn-takers in their new order
function Ctx:roll_order(faces) end

---@param text string
function Ctx:log(text) end

---@param notation string
---@param label? string
---@return integer
function Ctx:roll(notation, label) end

---@param notation string
---@param label? string
---@return { total: integer, dice: { sides: integer, value: integer, kept: boolean, face?: string }[] }
function Ctx:roll_detail(notation, label) end

--- `n` dice (1..1000) of `sides` sides (1..10000), one value per die.
---@param n integer
---@param sides integer
---@param label? string
---@return integer[]
function Ctx:pool(n, sides, label) end

--- Rolls `n` dice (1..1000) of a declared named-face die as `Nd[dice_id]`; the log shows face names.
---@param dice_id string
---@param n integer
---@param label? string
---@return string[]
function Ctx:roll_named(dice_id, n, label) end
