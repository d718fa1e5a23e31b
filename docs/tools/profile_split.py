#!/usr/bin/env python3
"""Where a game's time goes: the rules (the mod's Lua and the engine's rule services) against
the engine's own bookkeeping, from a callgrind profile of `hexforge play`.

Usage (docs/PERFORMANCE.md, "Round 9" and "Round 11"):

    valgrind --tool=callgrind --callgrind-out-file=cg.out \\
        '--toggle-collect=hexforge::session::play_game_with*' \\
        target/release/hexforge play mods/orbital-skirmish --scenario duel --games 10
    target/release/hexforge play mods/orbital-skirmish --scenario duel --games 10 --profile
    python3 docs/tools/profile_split.py cg.out <engine Lua %>

`--toggle-collect` counts only the games themselves (each game's setup and every action, as
the `games` bench plays them), not loading the mod or printing the report; without it the
whole run is counted (loading still apart, see below), as rounds 9 and 10 did.

`<engine Lua %>` is the share of Lua samples in the engine's own Lua helpers that `--profile`
prints ("the engine's Lua helpers ...: X%").

Each function's own instructions (exclusive, so nothing is counted twice) go to one bucket by
the file it was compiled from:
- Lua execution: the VM and the runtime it calls while running Lua code (lvm, ltable, ldo,
  lstring, ltm, lfunc, lobject, the standard libraries and lauxlib, which they use), split
  between the mod and the engine's helper chunks by the `--profile` share;
- rules services: engine/core (hex geometry, searches, dice), also where inlined elsewhere;
- memory: allocation (lmem, mimalloc, mlua's allocator) and the collector (lgc), shown apart,
  because both the mod's tables and the engine's copies make garbage;
- loading: the Lua parser and the mod's content hash (once per run, left out of the total);
- bookkeeping: everything else: the engine's Rust (rules bridge, game loop, snapshots, state
  clones), mlua, the Lua C API (lapi; the standard library's own calls to it land here too,
  so this errs towards bookkeeping), the engine's C copies, serde, std and libc.
"""
import collections
import re
import subprocess
import sys

LUA_RUN = ("lvm", "ltable", "ldo", "lstring", "ltm", "lfunc", "lobject", "lstrlib",
           "lmathlib", "ltablib", "lutf8lib", "lctype", "lcorolib", "lbaselib", "lauxlib")
LOAD = ("lparser", "llex", "lcode", "lundump", "lzio", "ldump")


def bucket(f):
    # Inlined code keeps its function's name but may carry the file of what was inlined.
    if "hexforge_core::" in f.split(":", 1)[-1].split("[")[0] and "engine/script" not in f:
        return "rules services (engine/core)"
    c = re.search(r"lua-5\.4\.9/(\w+)\.c:(\S+)", f)
    if c:
        mod, fn = c.group(1), c.group(2)
        if mod in LOAD:
            return "loading: Lua parser"
        if mod == "lgc":
            return "memory: collector"
        if mod == "lmem":
            return "memory: allocation"
        if fn.startswith("hexforge_") or fn.startswith("lua_hexforge") or fn.startswith("clonetable"):
            return "bookkeeping: C copies (frozen-table patch)"
        if mod in LUA_RUN:
            return "Lua execution"
        return "bookkeeping: Lua C API"
    if "mimalloc" in f or "memory.rs" in f:
        return "memory: allocation"
    if "engine/core/" in f:
        return "rules services (engine/core)"
    if "sha2" in f or "loader.rs" in f:
        return "loading: content hash"
    if "mlua" in f:
        return "bookkeeping: mlua"
    return "bookkeeping: engine Rust, serde, std, libc"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    engine_lua = float(sys.argv[2].rstrip("%")) / 100
    out = subprocess.run(["callgrind_annotate", "--auto=no", "--threshold=100", sys.argv[1]],
                         capture_output=True, text=True, check=True).stdout
    cat = collections.Counter()
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(\S.*)", line)
        if m and "PROGRAM TOTALS" not in line:
            cat[bucket(m.group(2))] += int(m.group(1).replace(",", ""))
    total = sum(v for k, v in cat.items() if not k.startswith("loading"))
    lua = cat["Lua execution"]
    rules = lua * (1 - engine_lua) + cat["rules services (engine/core)"]
    book = sum(v for k, v in cat.items() if k.startswith("bookkeeping")) + lua * engine_lua
    mem = sum(v for k, v in cat.items() if k.startswith("memory"))
    pct = lambda v: 100 * v / total
    for k, v in sorted(cat.items(), key=lambda kv: -kv[1]):
        print(f"{v / 1e6:9.1f} M  {pct(v):5.1f}%  {k}")
    print(f"total without loading: {total / 1e6:.1f} M instructions")
    print(f"rules (the mod's Lua, engine services):  {pct(rules):5.1f}%")
    print(f"engine bookkeeping:                       {pct(book):5.1f}%")
    print(f"memory (allocation, collector), shared:   {pct(mem):5.1f}%")


if __name__ == "__main__":
    main()
