-- Test runner for `hexforge test` (runs inside the mod's sandbox, after its entry files).
-- A test file either returns a table of named test functions or calls test("name", fn); both
-- may be mixed. Tests run in name order for returned tables, in call order for test(...).
local registered = {}
function test(name, fn)
  registered[#registered + 1] = { name = tostring(name), fn = fn }
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
  local ok, err = pcall(tests[i].fn)
  if ok then return "" end
  return tostring(err)
end
