-- The Lua side of `hexforge test` (docs/API.md section 6). Runs inside the rule set's own VM, after
-- its entry files, so tests can `require` the mod's modules and build games with t:game { .. }.
-- A test file calls test("name", function(t) ... end) or returns a table of named functions.
local registered = {}
function test(name, fn)
  if type(fn) ~= "function" then error("test(name, fn): fn must be a function", 2) end
  registered[#registered + 1] = { name = tostring(name), fn = fn }
end

local function show(v, depth)
  depth = depth or 0
  if type(v) == "string" then return string.format("%q", v) end
  if type(v) ~= "table" then return tostring(v) end
  if depth > 3 then return "{...}" end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  local parts = {}
  for _, k in ipairs(keys) do parts[#parts + 1] = tostring(k) .. "=" .. show(v[k], depth + 1) end
  return "{" .. table.concat(parts, ", ") .. "}"
end

local function deep_eq(a, b)
  if a == b then return true end
  if type(a) ~= "table" or type(b) ~= "table" then return false end
  for k, v in pairs(a) do if not deep_eq(v, b[k]) then return false end end
  for k in pairs(b) do if a[k] == nil then return false end end
  return true
end

-- Assertions: a failing one reports the caller's file and line (error level 2).
local T = {}
T.__index = T
function T:eq(actual, expected, what)
  if not deep_eq(actual, expected) then
    error((what and (what .. ": ") or "") .. "expected " .. show(expected) .. ", got " .. show(actual), 2)
  end
end
function T:ok(v, what)
  if not v then error((what and (what .. ": ") or "") .. "expected a true value, got " .. show(v), 2) end
end
function T:falsy(v, what)
  if v then error((what and (what .. ": ") or "") .. "expected false or nil, got " .. show(v), 2) end
end
function T:matches(s, pattern)
  if type(s) ~= "string" or not string.find(s, pattern) then
    error("expected a string matching " .. show(pattern) .. ", got " .. show(s), 2)
  end
end
function T:fail(msg) error(msg or "failed", 2) end

-- A game handle: the engine primitives (p, from Rust) behind the section-7 methods. Any other
-- method name is a read method of ctx (g:piece(1), g:pieces { owner = "blue" }, g:terrain(h)).
local G = {}
local function game_index(g, k)
  local m = G[k]
  if m ~= nil then return m end
  return function(self, ...) return self._p.read(k, ...) end
end
local function label(a) return type(a) == "table" and tostring(a.id) or tostring(a) end
function G:try(a) return self._p.try(a) end
-- Whether an action is legal now, without performing it: true, or false and the reason.
function G:check(a) return self._p.check(a) end
function G:act(a)
  local ok, why = self._p.try(a)
  if not ok then error("illegal action " .. label(a) .. ": " .. tostring(why), 2) end
  return true
end
function G:end_phase(side)
  local ok, why = self._p.try({ id = "end_phase", side = side })
  if not ok then error("end_phase for " .. tostring(side) .. " refused: " .. tostring(why), 2) end
  return true
end
function G:legal(side) return self._p.legal(side) end
function G:edit(fn) return self._p.edit(fn) end
function G:outcome() return self._p.outcome() end
function G:rolls() return self._p.rolls() end
function G:log() return self._p.log() end
function G:undo() return self._p.undo() end
function G:state_hash() return self._p.state_hash() end
function G:clock() return self._p.clock() end
function G:waiting() return self._p.waiting() end
function G:bot(name, side, options) return self._p.bot(name, side, options) end
-- game.evaluate(ctx, side) as the search bot sees it (read-only ctx): a number from 0 to 1, or nil.
function G:evaluate(side) return self._p.evaluate(side) end

function T:game(opts)
  local make = rawget(_G, "__hexforge_test_game")
  if not make then error("t:game needs a rule set with game.turns { .. } (and runs only inside a test)", 2) end
  return setmetatable({ _p = make(opts or {}) }, { __index = game_index })
end

local tests = {}
function __hexforge_collect(module)
  local returned = require(module)
  if type(returned) == "table" then
    local names = {}
    for k, v in pairs(returned) do
      if type(v) == "function" then names[#names + 1] = tostring(k) end
    end
    table.sort(names)
    for _, n in ipairs(names) do tests[#tests + 1] = { name = n, fn = returned[n] } end
  end
  for _, t in ipairs(registered) do tests[#tests + 1] = t end
  return #tests
end
function __hexforge_name(i) return tests[i].name end
function __hexforge_run(i)
  local ok, err = pcall(tests[i].fn, setmetatable({}, T))
  if ok then return "" end
  return tostring(err)
end
