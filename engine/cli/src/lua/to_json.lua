-- Encodes a Lua value as JSON text for `hexforge eval` (runs inside the mod sandbox).
-- Tables with keys 1..n only are arrays; other tables are objects with string keys, sorted so the
-- output is deterministic. Functions and other values print as strings like "<function>".
-- Cycles and very deep nesting are cut off with "<cycle>" / "<too deep>".
local function encode(v, seen, depth)
  local t = type(v)
  if v == nil then return "null" end
  if t == "boolean" then return tostring(v) end
  if t == "number" then
    if math.type(v) == "integer" then return string.format("%d", v) end
    if v ~= v or v == math.huge or v == -math.huge then return "null" end
    return string.format("%.17g", v)
  end
  if t == "string" then
    local s = v:gsub('[%c"\\]', function(c)
      local named = { ['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t" }
      return named[c] or string.format("\\u%04x", c:byte())
    end)
    return '"' .. s .. '"'
  end
  if t ~= "table" then return '"<' .. t .. '>"' end
  if seen[v] then return '"<cycle>"' end
  if depth > 64 then return '"<too deep>"' end
  seen[v] = true
  local n, count = #v, 0
  for _ in pairs(v) do count = count + 1 end
  local parts = {}
  if count == n and n > 0 then
    for i = 1, n do parts[i] = encode(v[i], seen, depth + 1) end
    seen[v] = nil
    return "[" .. table.concat(parts, ",") .. "]"
  end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  local lookup = {}
  for k, x in pairs(v) do lookup[tostring(k)] = x end
  for i, k in ipairs(keys) do parts[i] = encode(k, seen, depth + 1) .. ":" .. encode(lookup[k], seen, depth + 1) end
  seen[v] = nil
  return "{" .. table.concat(parts, ",") .. "}"
end
return function(v) return encode(v, {}, 0) end
