#!/usr/bin/env bash
# Issue #32's check: two copies of the tutorial whose move writes 4 MB into the game state on
# every move (one through `ctx:log`, one through `ctx:set` of a table), each played by the
# random bots; prints how each game ended and its peak memory. Both must end with a clear
# budget error and stay well under 256 MB. With RAISED=1 the copies ask for the largest
# per-action budget (`write_kib = 16384`), so the total budget (or the VM's memory) stops them.
#   docs/tools/state_bombs.sh target/release/hexforge
set -euo pipefail
bin=$(realpath "${1:?usage: state_bombs.sh HEXFORGE_BINARY}")
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for m in logbomb setbomb; do
  cp -r mods/tutorial "$tmp/$m"
  sed -i "s/^id = \"tutorial\"/id = \"$m\"/" "$tmp/$m/mod.toml"
  [ "${RAISED:-0}" = 1 ] && echo 'write_kib = 16384' >> "$tmp/$m/mod.toml"
done
python3 - "$tmp" <<'PY'
import sys
root = sys.argv[1]
bombs = {
    "logbomb": '    ctx:log(string.rep("x", 4 * 1024 * 1024))\n',
    "setbomb": '    local big = {} for i = 1, 4 * 1024 * 1024 // 8 do big[i] = i end ctx:set(p.id, "ballast", big)\n',
}
for m, line in bombs.items():
    p = f"{root}/{m}/main.lua"
    s = open(p).read()
    anchor = '    ctx:set(p.id, "moved", true)\n'
    assert anchor in s, "the tutorial's move changed: update this script"
    open(p, "w").write(s.replace(anchor, anchor + line, 1))
PY
for m in logbomb setbomb; do
  echo "== $m"
  (cd "$tmp" && /usr/bin/time -f "peak memory: %M KB" "$bin" play "$m" --scenario picket --seed 1 2>&1 | grep -v "^Command exited" | tail -2) || true
done
