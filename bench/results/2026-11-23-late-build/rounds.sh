#!/usr/bin/env bash
# Interleaved rounds on the 100 M-line key file that "MacroBench build" makes in its fixtures: in each,
# the Guava program, then `bloomstore build` of each tree and layout. Prints one line per round:
# seconds and the ratio to that round's Guava program.
#   ROUNDS=5 TREES="/path/to/old/checkout ." LAYOUTS="standard blocked" bench/results/2026-11-23-late-build/rounds.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."   # the repository root
K=/tmp/bloomstore-bench/fixtures/keys-100000000.txt
S=/tmp/bloomstore-bench/scratch
mkdir -p "$S"
rm -f "$S/g.bin" "$S/c.bloom"
t() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc; }
for round in $(seq 1 "${ROUNDS:-5}"); do
  g=$(t java -cp bench/target/benchmarks.jar io.bloomstore.bench.macro.MacroTask build-guava $K "$S/g.bin" 100000000)
  rm -f "$S/g.bin"
  line="round $round  guava $g s"
  for tree in ${TREES:-.}; do
    for layout in ${LAYOUTS:-standard blocked}; do
      x=$(t "$tree/bin/bloomstore" build "$S/c.bloom" --from $K --expected 100000000 --fpp 0.01 --layout "$layout")
      rm -f "$S/c.bloom"
      line="$line | $tree $layout $x s, ratio $(echo "scale=3; $x / $g" | bc)"
    done
  done
  echo "$line"
done
