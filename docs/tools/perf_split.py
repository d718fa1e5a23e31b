#!/usr/bin/env python3
"""profile_split.py's split of a game's cost, by time instead of instructions: the same buckets
and the same caller-chain walks, over `perf` samples of the CPU clock.

Why: issue #4 asks where the *time* goes. Callgrind counts instructions, which are repeatable
but weigh an instruction of the Lua VM's dispatch loop the same as one of a cache-missing
table copy. This samples where the time really went.

Usage (docs/PERFORMANCE.md, "Round 16"):

    perf record -e cpu-clock -F 10000 --call-graph dwarf,16384 -o perf.data \\
        target/release/hexforge play mods/orbital-skirmish --scenario duel --games 300
    python3 docs/tools/perf_split.py perf.data cg.out <engine Lua %>

`cg.out` is a callgrind profile of the same binary (recorded as profile_split.py says, with
`--separate-callers`); it gives each function's source file and object, which the buckets go
by (perf names functions only). `<engine Lua %>` is as for profile_split.py.

Only samples taken inside `hexforge_game::play::play_game_with` count (the games, as
`--toggle-collect` does for callgrind). Each sample is one context: its function and its 16
nearest callers, weighted by the sample's period. A sample in the kernel (page faults, mostly)
is shown apart and counted in the total, in neither the rules nor the bookkeeping. A function
the callgrind profile does not know is shown as "unknown" and counted the same way.

Statistical error: with n samples a share p is known to about sqrt(p (1 - p) / n), 0.6 points
for 35% of 7,000 samples. `perf` must be able to sample (`perf_event_paranoid` at most 2 here:
`perf record -e cpu-clock true` tells); hardware cycle counters are not needed.
"""
import collections
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import profile_split as ps  # noqa: E402

GAME = "hexforge_game::play::play_game_with"
CALLERS = 16


def files_by_function(entries):
    """Each function's (file, object) holding most of its self instructions in callgrind."""
    cost = collections.Counter()
    for v, f in entries:
        fn, _, obj = ps.split_name(f)
        file, _, name = fn.partition(":")
        cost[(name, file, obj)] += v
    best = {}
    for (name, file, obj), v in cost.items():
        if name not in best or v > best[name][0]:
            best[name] = (v, file, obj)
    return {name: (file, obj) for name, (_, file, obj) in best.items()}


def samples(perf_data):
    """(period, [(leaf, its object), (caller, its object), ...]) for every sample, from
    `perf script`."""
    out = subprocess.run(["perf", "script", "-i", perf_data, "-F", "period,ip,sym,dso", "--no-inline"],
                         capture_output=True, text=True, check=True).stdout
    for block in out.split("\n\n"):
        lines = [x for x in block.splitlines() if x.strip()]
        if not lines:
            continue
        try:
            period = int(lines[0].split()[0])
        except (ValueError, IndexError):
            continue
        frames = []
        for x in lines[1:]:
            # "addr symbol (dso)"; a symbol may hold spaces and parentheses.
            m = re.match(r"\s*[0-9a-f]+ (.*) \(([^()]*)\)\s*$", x)
            if not m:
                frames.append(("[unknown]", ""))
                continue
            sym, dso = m.group(1).strip(), m.group(2)
            frames.append(("[kernel]" if "kernel" in dso else sym, dso))
        yield period, frames


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    perf_data, cg, engine_lua = sys.argv[1], sys.argv[2], float(sys.argv[3].rstrip("%")) / 100
    located = files_by_function(ps.annotate_entries(cg))
    where = ps.functions(cg)
    entries = collections.Counter()
    outside = 0
    for period, frames in samples(perf_data):
        if not any(f.startswith(GAME) for f, _ in frames):
            outside += period
            continue
        (leaf, dso), chain = frames[0], "'".join(f for f, _ in frames[1:1 + CALLERS])
        # libc's functions go by several names (perf says __memmove_avx_unaligned_erms and
        # __snprintf where callgrind says __memcpy_avx_unaligned_erms and snprintf): its object
        # is what the buckets and the walks need.
        for name, obj in frames[:1 + CALLERS]:
            if name not in where and any(x in obj for x in ps.LIBC):
                where[name] = {(obj, obj)}
        if leaf not in located and any(x in dso for x in ps.LIBC):
            located[leaf] = (dso, f" [{dso}]")
        if leaf not in located:
            entries[("kernel" if leaf == "[kernel]" else "unknown", leaf)] += period
            continue
        file, obj = located[leaf]
        entries[(f"{file}:{leaf}'{chain}{obj}", None)] += period
    plain = [(v, f) for (f, extra), v in entries.items() if extra is None]
    apart = collections.Counter()
    for (kind, _), v in entries.items():
        if kind in ("kernel", "unknown"):
            apart[kind] += v
    total = sum(v for v, _ in plain) + sum(apart.values())
    print(f"samples inside the games: {total / 1e6:.0f} ms of CPU clock "
          f"({outside / 1e6:.0f} ms outside them: loading, printing)")
    for k, v in apart.items():
        print(f"  apart from both splits: {k} {100 * v / total:.1f}% of the games' time")
    # The kernel and the unknown count in the total, in neither side.
    plain += [(v, f"apart:{k}") for k, v in apart.items()]
    ps.report(plain, lambda: where, engine_lua, unit="of CPU time", scale=1e6,
              suffix="ms")


if __name__ == "__main__":
    main()
