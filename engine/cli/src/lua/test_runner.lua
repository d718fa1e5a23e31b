-- Test runner for `hexforge test` (runs inside the mod's VM, after its entry files).
-- A test file calls test("name", function(t) ... end) (LUA-API.md section 7), or returns a table
-- of named test functions; both may be mixed. Registered tests run in call order, returned ones
-- in name order. `t` carries the assertions; a failing one reports the test's file and line.
local registered = {}
function test(name, fn)
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

local T = {}
T.__index = T
function T:eq(actual, expected)
  if not deep_eq(actual, expected) then
    error("expected " .. show(expected) .. ", got " .. show(actual), 2)
  end
end
function T:ok(v)
  if not v then error("expected a true value, got " .. show(v), 2) end
end
function T:falsy(v)
  if v then error("expected false or nil, got " .. show(v), 2) end
end
function T:matches(s, pattern)
  if type(s) ~= "string" or not string.find(s, pattern) then
    error("expected a string matching " .. show(pattern) .. ", got " .. show(s), 2)
  end
end
function T:fail(msg)
  error(msg or "failed", 2)
end
function T:game(opts)
  -- Games come from the runtime (LuaRules); it installs __hexforge_test_game when present.
  local make = rawget(_G, "__hexforge_test_game")
  if not make then error("t:game needs the game runtime (LuaRules), which is not in this build yet", 2) end
  return make(opts or {})
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
