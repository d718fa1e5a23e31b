-- R.save_ship with a group set writes exactly those groups (and any missing scalar), so an apply
-- that names what it changed stores the same record as a full save.
local R = require("rules")
local H = require("tests._helpers")

test("save_ship writes the named groups only, and missing scalars as a full save would", function(t)
  local g = t:game { scenario = "range", seed = 2 }
  local id = H.ship(g, "red").id
  g:edit(function(ctx)
    local s = assert(ctx:piece(id), "red's ship").values
    s.comps[1].charge = s.comps[1].charge + 1
    s.hull[1] = 1
    s.bank_mv = 5
    s.crew[1].used_round = 9
    R.save_ship(ctx, id, s, R.SAVE_MOVE)
  end)
  local v = g:piece(id).values
  t:eq(v.bank_mv, 5, "bank saved")
  t:eq(v.hull[1], 4, "hull not saved")
  t:eq(v.crew[1].used_round, 0, "crew not saved")
  local before = v.comps[1].charge
  g:edit(function(ctx)
    local s = assert(ctx:piece(id), "red's ship").values
    s.hull[2] = 2
    s.bank_mv = 7
    s.pool_round = nil
    R.save_ship(ctx, id, s, R.SAVE_DAMAGE)
  end)
  v = g:piece(id).values
  t:eq(v.hull[2], 2, "hull saved")
  t:eq(v.bank_mv, 5, "bank not saved")
  t:eq(v.pool_round, 0, "a missing scalar is written as 0")
  t:eq(v.comps[1].charge, before)
  g:edit(function(ctx)
    local s = assert(ctx:piece(id), "red's ship").values
    s.crew[1].used_round = 3
    s.pool = 2
    R.save_ship(ctx, id, s)
  end)
  v = g:piece(id).values
  t:eq(v.crew[1].used_round, 3, "a full save writes the crew")
  t:eq(v.pool, 2, "a full save writes the pool")
end)
