-- {{id}}: a small complete game to grow from (docs/MODDING.md explains each part).
-- Two ships a side; a ship moves up to 2 hexes, then may fire at an enemy within 2 hexes:
-- a d6 roll of 4+ destroys it. The side with ships left after round 8 (or the only side with
-- ships) wins.

game.piece_type { id = "ship", name = "Ship", stats = { speed = 2, range = 2 }, values = { moved = false, fired = false } }

game.turns {
  order = "fixed",
  phases = { { id = "move" }, { id = "fire" } },
  turn_limit = 8,
}

local function free(ctx, h)
  return ctx:on_board(h) and #ctx:pieces_at(h) == 0
end

game.action {
  id = "move",
  phases = { "move" },
  params = { piece = "piece", to = "hex" },
  choices = function(ctx, side)
    local out = {}
    for _, p in ipairs(ctx:pieces { owner = side }) do
      if p.hex and not p.values.moved then
        for _, h in ipairs(hex.range(p.hex, p.stats.speed)) do
          if free(ctx, h) then out[#out + 1] = { piece = p.id, to = h } end
        end
      end
    end
    return out
  end,
  check = function(ctx, a)
    local p = ctx:piece(a.piece)
    if not p or not p.hex or p.owner ~= a.side then return false, "not your ship" end
    if p.values.moved then return false, "that ship has already moved" end
    if hex.distance(p.hex, a.to) > p.stats.speed then return false, "too far: speed " .. p.stats.speed end
    if not free(ctx, a.to) then return false, "that hex is off the board or taken" end
    return true
  end,
  apply = function(ctx, a)
    ctx:move(a.piece, a.to)
    ctx:set(a.piece, "moved", true)
  end,
}

game.action {
  id = "fire",
  phases = { "fire" },
  params = { piece = "piece", target = "piece" },
  choices = function(ctx, side)
    local out = {}
    for _, p in ipairs(ctx:pieces { owner = side }) do
      if p.hex and not p.values.fired then
        for _, t in ipairs(ctx:pieces {}) do
          if t.hex and t.owner ~= side and hex.distance(p.hex, t.hex) <= p.stats.range then
            out[#out + 1] = { piece = p.id, target = t.id }
          end
        end
      end
    end
    return out
  end,
  check = function(ctx, a)
    local p, t = ctx:piece(a.piece), ctx:piece(a.target)
    if not p or not p.hex or p.owner ~= a.side then return false, "not your ship" end
    if p.values.fired then return false, "that ship has already fired" end
    if not t or not t.hex or t.owner == a.side then return false, "fire at an enemy ship" end
    if hex.distance(p.hex, t.hex) > p.stats.range then return false, "out of range" end
    return true
  end,
  apply = function(ctx, a)
    ctx:set(a.piece, "fired", true)
    if ctx:roll("d6", "to hit") >= 4 then
      ctx:destroy(a.target)
      ctx:log("ship " .. a.target .. " is destroyed")
    end
  end,
}

game.on("turn_start", function(ctx)
  for _, p in ipairs(ctx:pieces {}) do
    ctx:set(p.id, "moved", false)
    ctx:set(p.id, "fired", false)
  end
end)

-- Only the ids: the engine asks victory again only when what it read changes (a ship appears or
-- goes), not after every move (see docs/API.md, game.victory).
local function ships(ctx, side) return #ctx:pieces { owner = side, fields = { "id" } } end

game.victory(function(ctx)
  local blue, red = ships(ctx, "blue"), ships(ctx, "red")
  if red == 0 and blue > 0 then return { winners = { "blue" }, reason = "red has no ships left" } end
  if blue == 0 and red > 0 then return { winners = { "red" }, reason = "blue has no ships left" } end
  if blue == 0 and red == 0 then return { winners = {}, reason = "no ships left" } end
  return nil
end)

game.on("turn_limit", function(ctx)
  local blue, red = ships(ctx, "blue"), ships(ctx, "red")
  if blue == red then
    ctx:end_game { winners = {}, reason = "as many ships each" }
  else
    ctx:end_game { winners = { blue > red and "blue" or "red" }, reason = "more ships left" }
  end
end)
