//! The board's ctx methods (methods/board.rs) on the test rule set of `tests.rs`: terrain
//! filters, timed terrain, and move listings on the game's board.

use super::tests::{run, setup};
use super::*;

#[test]
fn board_hexes_filtered_by_terrain_are_the_hexes_with_it() {
    let (_d, rules, mut state) = setup();
    rules
        .loaded
        .sandbox
        .guarded(|lua| {
            rules.with_ctx(lua, Access::Write(&mut state), |lua, ctx| {
                lua.load(
                    "local ctx = ... ctx:set_terrain({ q = 1, r = 0 }, { 'rock' })
                     ctx:set_terrain({ q = -2, r = 1 }, { 'dust', 'rock' })
                     ctx:set_terrain({ q = 0, r = 0 }, { 'dust' })",
                )
                .set_name("=test")
                .call::<()>(ctx)
            })
        })
        .unwrap();
    let code = r"
local ctx = ...
local rock = ctx:board_hexes { terrain = 'rock' }
local want = {}
for _, h in ipairs(ctx:board_hexes()) do
  for _, id in ipairs(ctx:terrain(h)) do if id == 'rock' then want[#want + 1] = h end end
end
assert(#rock == 2 and #want == 2)
for i = 1, 2 do assert(rock[i].q == want[i].q and rock[i].r == want[i].r) end
assert(#ctx:board_hexes { terrain = 'ice' } == 0)
assert(#ctx:board_hexes {} == #ctx:board_hexes())
local ok, err = pcall(function() return ctx:board_hexes { terrain = 3 } end)
assert(not ok and tostring(err):find('terrain: expected a terrain id'), tostring(err))
";
    run(&rules, &state, code).unwrap();
}

#[test]
fn timed_terrain_lists_every_label_s_terrain_present_now_or_not() {
    let (_d, rules, mut state) = setup();
    let board = std::sync::Arc::make_mut(&mut state.board);
    for (q, id, label) in [(2, "planetoid", "red"), (-1, "planetoid", "blue")] {
        board.timed_terrain.push(hexforge_game::TimedTerrain {
            hex: Hex::new(q, 0),
            terrain: id.into(),
            labels: vec![label.into()],
        });
    }
    // No time-track label this round: ctx:terrain sees neither, the list has both.
    let code = r"
local ctx = ...
local t = ctx:timed_terrain()
assert(#t == 2, #t)
assert(t[1].hex.q == 2 and t[1].hex.r == 0 and t[1].terrain == 'planetoid' and t[1].labels[1] == 'red')
assert(t[2].hex.q == -1 and t[2].labels[1] == 'blue' and #t[2].labels == 1)
assert(#ctx:terrain(t[1].hex) == 0)
";
    run(&rules, &state, code).unwrap();
}

#[test]
fn ctx_move_listing_and_choices_are_search_s_on_the_games_board() {
    let (_d, rules, state) = setup();
    // The board is a hexagon of radius 4: from (0,3) facing N or S at speed 3 some moves
    // leave it. Every list, field and plan must equal the listing with a Lua on_board.
    let code = r"
local ctx = ...
local function show(...)
  local out = {}
  for i = 1, 3 do
for _, m in ipairs((select(i, ...))) do
  out[#out + 1] = ('%d:%d,%d:%d/%d/%s/%d/%s/%s/%d'):format(i, m.to.q, m.to.r, m.facing, m.turns,
    m.plan, m.start_facing, tostring(m.exited), tostring(m.crashed), #m.path)
end
  end
  out[#out + 1] = tostring(select(4, ...))
  return table.concat(out, ' ')
end
local blocked = function(h) return h.q == 1 and h.r == 0 end
for _, crash in ipairs({ false, true }) do
  local rules = { speed = 3, max_turns = 2, paths = true }
  local lua_env = { on_board = function(h) return ctx:on_board(h) end, blocked = blocked, crash = crash }
  local a = show(search.move_listing({ q = 0, r = 3 }, { 0, 3 }, rules, lua_env))
  local b = show(ctx:move_listing({ q = 0, r = 3 }, { 0, 3 }, rules, { blocked = blocked, crash = crash }))
  assert(a == b, a .. '\n~=\n' .. b)
  assert(a:find('true/false'), 'some move leaves the board: ' .. a)
  -- ctx:move_choices: the same moves as choice lists, as search.move_choices gives them.
  local function plans(...)
local out = {}
for i = 1, 3 do
  for _, c in ipairs((select(i, ...))) do
    out[#out + 1] = ('%d:%d,%d:%d/%s/%d/%d/%d'):format(i, c.to.q, c.to.r, c.facing, c.plan,
      c.start_facing, c.piece, #c.path)
  end
end
return table.concat(out, ' ')
  end
  local c = plans(search.move_choices({ q = 0, r = 3 }, { 0, 3 }, rules, lua_env, { piece = 4 }))
  local d = plans(ctx:move_choices({ q = 0, r = 3 }, { 0, 3 }, rules, { blocked = blocked, crash = crash },
{ piece = 4 }))
  assert(c == d and #c > 0, c .. '\n~=\n' .. d)
end
local ok, err = pcall(function() return ctx:move_choices({ q = 0, r = 3 }, 0, { speed = 1 }, nil, { to = 1 }) end)
assert(not ok and tostring(err):find('ctx:move_choices: argument 5: params: .to. is set by each move'), tostring(err))
-- env.on_board still wins; errors name ctx:move_listing.
local e = ctx:move_listing({ q = 0, r = 3 }, 0, { speed = 3 }, { on_board = function() return true end })
assert(#e > 0)
local ok, err = pcall(function() return ctx:move_listing({ q = 0 }, 0, { speed = 1 }) end)
assert(not ok and tostring(err):find('ctx:move_listing: argument 1'), tostring(err))
";
    run(&rules, &state, code).unwrap();
}
