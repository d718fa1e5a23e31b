#!/usr/bin/env python3
"""Where a game's time goes: the rules (the mod's Lua and the engine's rule services) against
the engine's own bookkeeping, from a callgrind profile of `hexforge play`.

Usage (docs/PERFORMANCE.md, "Round 9", "Round 11" and "Round 12"):

    valgrind --tool=callgrind --separate-callers=16 --callgrind-out-file=cg.out \\
        '--toggle-collect=hexforge_game::play::play_game_with*' \\
        target/release/hexforge play mods/orbital-skirmish --scenario duel --games 10
    target/release/hexforge play mods/orbital-skirmish --scenario duel --games 10 --profile
    python3 docs/tools/profile_split.py cg.out <engine Lua %>

`--toggle-collect` counts only the games themselves (each game's setup and every action, as
the `games` bench plays them), not loading the mod or printing the report; without it the
whole run is counted (loading still apart, see below), as rounds 9 and 10 did.

`--separate-callers=16` makes callgrind keep each function's costs apart by the chain of its
16 nearest callers: a "context", shown by callgrind_annotate as
`file:fn'caller'caller's caller'... [object]` (a recursion depth shows as `fn'2`), e.g.
`vfprintf-internal.c:__vfprintf_internal'__vsnprintf_internal'snprintf'str_format'luaD_precall'...`.
The exact attribution below needs it. 16 leaves room: the deepest chain from a library
function down to what runs for it was 8 frames in orbital-skirmish (`luaB_tostring` ->
`luaL_tolstring` -> `lua_pushfstring` -> `luaO_pushvfstring` -> `tostringbuff` -> `snprintf` ->
`__vsnprintf_internal` -> `__vfprintf_internal` -> `_IO_default_xsputn`) and 7 in solar-flare
(`tconcat` -> `luaL_addvalue` -> `lua_tolstring` -> `luaO_tostring` -> `snprintf` -> ...);
float formatting (`__printf_fp`) goes a few deeper. If a chain is cut off before it can be
decided, the script prints a warning with the instructions left undecided (they keep their old
bucket): record again with a larger number. The option does not change what is counted (the
same functions have the same self counts; totals differ only by the run-to-run noise, about
0.2% for 10 duels, up to 1% in solar-flare where the collector's timing varies); the profile
file is about 20 times larger. A profile recorded without the option still works: the split "as
before" is printed and the script says the exact attribution was not possible.
Buckets go by a context's own function, never by its callers' names (the script before this
one, run on such a profile, would count e.g. a memcpy called from engine/core as rules services
and print 43.7/43.8/12.6 instead of 41.7/45.1/13.1 for 10 duels).

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
  clones), mlua, the Lua C API (lapi, and the rest of the Lua runtime not listed above:
  ldebug, lstate), the engine's C copies, serde, std and libc.

That is the split "as before". Its known error: the standard-library C functions the mod's
Lua calls (`string.format` in lstrlib, `table.insert`/`table.sort` in ltablib, lmathlib,
`tostring`/`ipairs` in lbaselib, ...) do much of their work by calling the Lua C API (lapi:
`lua_geti`, `lua_settop`, ...), lauxlib helpers and libc (`snprintf` -> `vfprintf`,
`strspn`, `memcpy`, ...). Those instructions are the mod's rules running, but by their files
lapi and libc land in bookkeeping.

The exact split moves them. For every context in a bookkeeping bucket (not the C copies), the
script walks up its caller chain (callers are named without their file, so each is looked up
by name among the profile's functions to find the file or library it was compiled into):
- through "helper" frames: the Lua C API and the runtime's C helpers (lapi, lauxlib, ldebug,
  lobject, lstring, ltable, ltm, lfunc, lstate, lctype, ldo's call and pcall machinery, lvm's
  helpers such as luaV_concat, but not luaV_execute) and libc/libm: code that runs only
  because its caller asked for it;
- until a standard-library C function (lstrlib, ltablib, lmathlib, lbaselib, lutf8lib,
  lcorolib): the instructions are then that function's work, "Lua execution";
- or until any other frame, which keeps the old bucket: luaV_execute (Lua code running: what
  the VM itself has libc do, e.g. `..` on a number -> snprintf, stays where it was), the
  engine's Rust, mlua, memory (lmem, lgc, mimalloc, mlua's allocator), the parser, or one of
  the engine's own C functions in the patched lapi.c/lbaselib.c (`hexforge_*`,
  `lua_hexforge_*`, `clonetable`): they are the engine's copies, not the mod's library calls,
  so they and everything they call stay bookkeeping.
Why this is exact: a context's chain is the real call stack when its instructions ran, so a
lapi or libc function whose nearest non-helper caller is, say, `str_format` was running for
that `string.format` call and for nothing else, and a chain that meets Rust, mlua or a C copy
first belongs to the engine. Walking through ldo is safe because every call it makes ends in
luaV_execute (stop), a library function (itself "Lua execution"), or a Rust or C-copy function
(stop); it lets `pcall` count its own setjmp. Memory stays memory whatever the caller, and no
other bucket changes. The moved instructions join "Lua execution" and, like the library
functions themselves, are divided between the mod and the engine's helper chunks by the
`--profile` share (the chain shows the Rust caller but not which Lua chunk was running).
The walk also runs the other way (added in session 11). The runtime's own files (ltable,
lstring, ldo, lauxlib, lobject, lfunc, ltm, lvm's helpers) count as "Lua execution" by file,
but much of their work there is done for the engine: `lua_createtable` and `lua_pushlstring`
resizing tables and interning strings while a C-API builder makes a snapshot, `luaH_resize`
inside the engine's clone, and ldo's `lua_pcall` machinery around every protected call and
around every callback the engine calls. A context in "Lua execution" whose own function is not
`luaV_execute` or a standard-library function, and whose walk up the helpers stops at the
engine's Rust, at mlua or at one of the engine's C copies, goes to "bookkeeping: Lua runtime
the engine asked for". A walk that stops at luaV_execute or a library function leaves it where
it was. Measured on 10 duels at the start of session 11, this direction moves 11.0 M
instructions (5.0% of the total), about as much as the first direction moves the other way.
Until then the exact split counted only the first direction, and so understated the
bookkeeping share by about 5 points.
A third walk (added in session 14) does for the engine's rule services what the first does for
Lua's standard library. A context in "bookkeeping: engine Rust, serde, std, libc" whose own
function is Rust's standard library or libc (by file: the toolchain's `/rustc/` sources, or
libc's object; a function named `hexforge...` or `mlua...` inlined into such a file stays the
engine's) and whose nearest caller that is neither is an engine/core function goes to "rules
services (engine/core)": the move search sorting and growing its own listing is the search's
work, as `snprintf` under `string.format` is the mod's. Measured on session 13's 10 duels it
moves 1.7 M instructions (1.0% of the total; bookkeeping 35.9% -> 34.9%), almost all of it the
sort in `hexforge_core::search::listing::move_listing`.
Left as they were (the script's breakdown shows their size): libc the VM calls directly
(under luaV_execute), and libc memcpy inside the allocators' realloc (under "memory", but the
memcpy itself is counted in bookkeeping).
"""
import collections
import re
import subprocess
import sys

LUA_RUN = ("lvm", "ltable", "ldo", "lstring", "ltm", "lfunc", "lobject", "lstrlib",
           "lmathlib", "ltablib", "lutf8lib", "lctype", "lcorolib", "lbaselib", "lauxlib")
LOAD = ("lparser", "llex", "lcode", "lundump", "lzio", "ldump")
# For the exact attribution (caller chains):
STDLIB = ("lstrlib", "ltablib", "lmathlib", "lbaselib", "lutf8lib", "lcorolib")
HELPER = ("lapi", "lauxlib", "ldebug", "lobject", "lstring", "ltable", "ltm", "lfunc", "lstate",
          "lctype", "lvm", "ldo")
# Where a walk up from Lua runtime code that ends means the engine asked for that work.
ENGINE_FRAMES = ("engine Rust, std, other", "mlua", "engine C copy")
ASKED = "bookkeeping: Lua runtime the engine asked for"
LIBC = ("/libc.so", "/libm.so", "/ld-linux", "/libc-", "/libm-", "vdso")


def is_copy(fn):
    return fn.startswith("hexforge_") or fn.startswith("lua_hexforge") or fn.startswith("clonetable")


def split_name(f):
    """An entry of callgrind_annotate, "file:fn'caller'...'caller [object]", as (file:fn,
    [callers], " [object]"). Names may hold spaces (Rust) but no "'"; an object has no "[]"."""
    o = re.search(r" \[[^\[\]]*\]$", f)
    obj = o.group(0) if o else ""
    name = f[:len(f) - len(obj)].split("'")
    return name[0], name[1:], obj


def base(f):
    fn, _, obj = split_name(f)
    return fn + obj


def bucket(f):
    # A context's name carries its callers after a "'" (and a recursion depth as "'2"):
    # bucket by the function itself.
    f = base(f)
    # perf_split.py's samples in the kernel or in functions callgrind did not see.
    if f.startswith("apart:"):
        return "apart (in neither split): " + f[len("apart:"):]
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
        if is_copy(fn):
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


def functions(path):
    """Each function's name -> the set of (file, object) it was compiled into, from the raw
    profile's `fl=`/`ob=` before each `fn=` (names and files are compressed to `(id)`)."""
    names = {"fl": {}, "fn": {}, "ob": {}}
    kind = {"fl": "fl", "fi": "fl", "fe": "fl", "cfl": "fl", "cfi": "fl",
            "fn": "fn", "cfn": "fn", "ob": "ob", "cob": "ob"}
    cur = {"fl": "", "ob": ""}
    where = collections.defaultdict(set)
    line_re = re.compile(r"(c?f[lien]|c?ob)=(?:\((\d+)\))? ?(.*)")
    with open(path, errors="replace") as fh:
        for line in fh:
            m = line_re.match(line)
            if not m:
                continue
            key, ident, name = m.group(1), m.group(2), m.group(3).rstrip("\n")
            table = names[kind[key]]
            if ident is not None:
                if name:
                    table[ident] = name
                name = table.get(ident, "")
            if key in ("fl", "ob"):
                cur[key] = name
            elif key == "fn":
                where[name.split("'")[0]].add((cur["fl"], cur["ob"]))
    return where


def frame_kind(name, where):
    """What a caller frame means for the walk up a chain: 'std', 'helper' or a reason to stop."""
    kinds = set()
    for fl, ob in where.get(name, ()):
        c = re.search(r"lua-5\.4\.9/(\w+)\.c$", fl)
        if c:
            mod = c.group(1)
            if is_copy(name):
                kinds.add("engine C copy")
            elif mod in STDLIB:
                kinds.add("std")
            elif name.startswith("luaV_execute"):
                kinds.add("the VM running Lua code (luaV_execute)")
            elif mod in ("lmem", "lgc"):
                kinds.add("memory")
            elif mod in LOAD:
                kinds.add("parser")
            elif mod in HELPER:
                kinds.add("helper")
            else:
                kinds.add("other Lua runtime")
        elif any(s in ob for s in LIBC):
            kinds.add("helper")
        elif "mimalloc" in fl or "memory.rs" in fl:
            kinds.add("memory")
        elif "mlua" in fl or "mlua" in name:
            kinds.add("mlua")
        else:
            kinds.add("engine Rust, std, other")
    if not kinds:
        return "unknown caller"
    if len(kinds) > 1:
        return "ambiguous caller name"
    return kinds.pop()


def walk(chain, where):
    """Decide a bookkeeping context by its callers: ('std', how many callers up the library
    function is) or (the reason the walk stopped, how far up)."""
    for i, caller in enumerate(chain):
        if caller.isdigit():  # recursion depth of the frame before
            continue
        k = frame_kind(caller, where)
        if k != "helper":
            return k, i + 1
    return "undecided (chain cut off: use a larger --separate-callers)", len(chain)


CORE = "rules services (engine/core)"
RUST_STD = ("/rustc/", "/rust/deps/")
ENGINE_NAMES = ("hexforge", "mlua", "<hexforge", "<mlua")


def is_rust_std(fn, obj):
    """Whether a context's own function is Rust's standard library or libc (not engine code
    inlined into a library file: its name says whose it is)."""
    file, _, name = fn.rpartition(":")
    if any(s in obj for s in LIBC):
        return True
    return any(s in fn for s in RUST_STD) and not name.startswith(ENGINE_NAMES)


def walk_rust(chain, where):
    """The first caller above Rust std and libc frames: 'core' when it is engine/core (a rule
    service), else 'other'."""
    for caller in chain:
        if caller.isdigit():
            continue
        locs = where.get(caller, ())
        if not locs:
            return "other"
        kinds = set()
        for fl, ob in locs:
            if "engine/core/" in fl or ("hexforge_core::" in caller and "engine/script" not in fl
                                        and not caller.startswith(ENGINE_NAMES[2:])):
                kinds.add("core")
            elif (any(s in fl for s in RUST_STD) and not caller.startswith(ENGINE_NAMES)) \
                    or any(s in ob for s in LIBC):
                kinds.add("std")
            else:
                kinds.add("other")
        if kinds == {"std"}:
            continue
        return "core" if kinds == {"core"} else "other"
    return "other"


def annotate_entries(path):
    """A callgrind profile's contexts as (self instructions, "file:fn'caller'... [object]")."""
    out = subprocess.run(["callgrind_annotate", "--auto=no", "--threshold=100", path],
                         capture_output=True, text=True, check=True).stdout
    entries = []
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(\S.*)", line)
        if m and "PROGRAM TOTALS" not in line:
            entries.append((int(m.group(1).replace(",", "")), m.group(2)))
    return entries


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    engine_lua = float(sys.argv[2].rstrip("%")) / 100
    report(annotate_entries(sys.argv[1]), lambda: functions(sys.argv[1]), engine_lua)


def report(entries, where_of, engine_lua, unit="instructions", scale=1e6, suffix="M"):
    """Prints both splits of `entries` (cost, context); `where_of()` gives [`functions`]'s map
    (made only when the contexts have caller chains)."""
    cat = collections.Counter()
    for v, f in entries:
        cat[bucket(f)] += v
    total = sum(v for k, v in cat.items() if not k.startswith("loading"))
    pct = lambda v: 100 * v / total

    def split(cat):
        lua = cat["Lua execution"]
        rules = lua * (1 - engine_lua) + cat["rules services (engine/core)"]
        book = sum(v for k, v in cat.items() if k.startswith("bookkeeping")) + lua * engine_lua
        mem = sum(v for k, v in cat.items() if k.startswith("memory"))
        for k, v in sorted(cat.items(), key=lambda kv: -kv[1]):
            print(f"{v / scale:9.1f} {suffix}  {pct(v):5.1f}%  {k}")
        print(f"total without loading: {total / scale:.1f} {suffix} {unit}")
        print(f"rules (the mod's Lua, engine services):  {pct(rules):5.1f}%")
        print(f"engine bookkeeping:                       {pct(book):5.1f}%")
        print(f"memory (allocation, collector), shared:   {pct(mem):5.1f}%")
        return rules, book, mem

    print("== as before (by file only) ==")
    before = split(cat)

    # Contexts: "file:fn'caller'caller's caller'... [object]".
    if not any(not c.isdigit() for _, f in entries for c in split_name(f)[1]):
        print("\n== exact ==\nnot possible: the profile has no caller chains; record it with "
              "valgrind --tool=callgrind --separate-callers=16 (see the docstring)")
        return
    where = where_of()
    exact = collections.Counter(cat)
    moved_from = collections.Counter()
    stops = collections.Counter()
    moved_ctx = collections.Counter()
    longest = max(sum(not c.isdigit() for c in split_name(f)[1]) for _, f in entries)
    engine_asked = collections.Counter()
    engine_ctx = collections.Counter()
    core_moved = collections.Counter()
    for v, f in entries:
        b = bucket(f)
        fn, chain, obj = split_name(f)
        if b == "Lua execution":
            # The other direction: runtime work (ltable, lstring, ldo, lauxlib, ...) that the
            # engine asked for is bookkeeping: building a table through the C API, calling a
            # callback, growing a stack for a protected call.
            own = fn.rsplit(":", 1)[-1]
            c = re.search(r"lua-5\.4\.9/(\w+)\.c:", fn)
            if not c or c.group(1) in STDLIB or own.startswith("luaV_execute"):
                continue
            kind, up = walk(chain, where)
            if kind in ENGINE_FRAMES:
                exact[b] -= v
                exact[ASKED] += v
                engine_asked[kind] += v
                engine_ctx["'".join([fn.rsplit("/", 1)[-1]] + chain[:up])] += v
            elif kind.startswith("undecided"):
                stops[kind] += v
            continue
        if not b.startswith("bookkeeping") or b.startswith("bookkeeping: C copies"):
            continue
        kind, up = walk(chain, where)
        if kind == "std":
            exact[b] -= v
            exact["Lua execution"] += v
            moved_from[b] += v
            # The context up to the library function, e.g. "lapi.c:lua_geti'ipairsaux".
            moved_ctx["'".join([fn.rsplit("/", 1)[-1]] + chain[:up])] += v
        elif is_rust_std(fn, obj) and walk_rust(chain, where) == "core":
            # Rust's standard library (or libc) working for a rule service: a search sorting
            # and growing its own results is that service's work.
            exact[b] -= v
            exact[CORE] += v
            core_moved[fn.rsplit("/", 1)[-1].split("<")[0][:70]] += v
        else:
            stops[kind] += v
    moved = sum(moved_from.values())
    print(f"\n== exact (caller chains of up to {longest} frames: what a standard-library function "
          f"had lapi, libc, ... do for it is Lua execution; what the engine had the runtime do "
          f"is bookkeeping) ==")
    rules, book, mem = split(+exact)
    print(f"MOVED from bookkeeping to Lua execution by the caller chains: {moved / scale:.1f} {suffix} "
          f"{unit}, {pct(moved):.1f}% of the total (of which {1 - engine_lua:.1%} to the "
          f"rules, the rest to the engine's helper chunks by the --profile share)")
    for k, v in moved_from.most_common():
        print(f"    {v / scale:9.2f} {suffix}  from {k}")
    print(f"rules {pct(before[0]):.1f}% -> {pct(rules):.1f}%, bookkeeping {pct(before[1]):.1f}% "
          f"-> {pct(book):.1f}%, memory {pct(before[2]):.1f}% -> {pct(mem):.1f}%")
    print("bookkeeping kept, by the first caller (after lapi, libc, ... frames) that decided it:")
    for k, v in stops.most_common():
        print(f"    {v / scale:9.2f} {suffix}  {k}")
    undecided = sum(v for k, v in stops.items() if k.startswith("undecided"))
    if undecided:
        print(f"WARNING: {undecided / scale:.2f} {suffix} {unit} undecided because chains were cut off "
              f"at {longest} frames: record again with a larger --separate-callers")
    print(f"top moved contexts (self {unit}, caller chain up to the library function):")
    for c, v in moved_ctx.most_common(15):
        print(f"    {v / scale:9.2f} {suffix}  {c}")
    to_core = sum(core_moved.values())
    print(f"MOVED from bookkeeping to rules services (Rust std or libc working for engine/core): "
          f"{to_core / scale:.1f} {suffix} {unit}, {pct(to_core):.1f}% of the total")
    for c, v in core_moved.most_common(5):
        print(f"    {v / scale:9.2f} {suffix}  {c}")
    asked = sum(engine_asked.values())
    print(f"MOVED from Lua execution to bookkeeping (runtime work the engine asked for): "
          f"{asked / scale:.1f} {suffix} {unit}, {pct(asked):.1f}% of the total")
    for k, v in engine_asked.most_common():
        print(f"    {v / scale:9.2f} {suffix}  asked by {k}")
    print(f"top contexts moved to bookkeeping (self {unit}, caller chain up to the engine):")
    for c, v in engine_ctx.most_common(10):
        print(f"    {v / scale:9.2f} {suffix}  {c}")


if __name__ == "__main__":
    main()
