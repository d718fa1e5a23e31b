#!/usr/bin/env bash
# Plays every scenario of every bundled mod with seeds 1-3 (random bots, and each mod's greedy
# bot where it has one) and writes each game's `--log` to OUT/<mod>.<scenario>.<bots>.<seed>.log.
# Run it with the binary before and after a change and compare:
#   docs/tools/same_games.sh /tmp/hexforge-before /tmp/before
#   docs/tools/same_games.sh target/release/hexforge /tmp/after
#   diff -r /tmp/before /tmp/after && echo same games
set -euo pipefail
bin=${1:?usage: same_games.sh HEXFORGE_BINARY OUT_DIR}
out=${2:?usage: same_games.sh HEXFORGE_BINARY OUT_DIR}
cd "$(dirname "$0")/../.."
mkdir -p "$out"
for dir in mods/*/; do
  m=$(basename "$dir")
  [ -d "$dir/scenarios" ] || continue
  bots=(random)
  grep -q 'bots\.greedy' -r "$dir" --include='*.lua' && bots+=(greedy)
  for sc in "$dir"/scenarios/*.toml; do
    s=$(basename "$sc" .toml)
    for b in "${bots[@]}"; do
      for seed in 1 2 3; do
        "$bin" play "$dir" --scenario "$s" --seed "$seed" --bots "$b" --log \
          > "$out/$m.$s.$b.$seed.log" 2>&1 || echo "exit $?" >> "$out/$m.$s.$b.$seed.log"
      done
    done
  done
done
echo "$(ls "$out" | wc -l) games written to $out"
