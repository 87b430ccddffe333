#!/usr/bin/env bash
# 3 interleaved rounds: the Guava program, then bloomstore build standard and blocked, on the same key file
# (the 100 M-line file that "MacroBench build" makes in its fixtures)
set -euo pipefail
cd "$(dirname "$0")/../../.."   # the repository root
K=/tmp/bloomstore-bench/fixtures/keys-100000000.txt
S=/tmp/bloomstore-bench/scratch
for round in 1 2 3; do
  s=$(date +%s.%N); java -cp bench/target/benchmarks.jar io.bloomstore.bench.macro.MacroTask build-guava $K $S/g.bin 100000000 >/dev/null; e=$(date +%s.%N)
  g=$(echo "$e - $s" | bc); rm -f $S/g.bin
  for layout in standard blocked; do
    s=$(date +%s.%N); bin/bloomstore build $S/c.bloom --from $K --expected 100000000 --fpp 0.01 --layout $layout >/dev/null; e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc); rm -f $S/c.bloom
    printf 'round %d  guava %.1f s  %s %.1f s  ratio %.3f\n' $round $g $layout $t $(echo "$t / $g" | bc -l)
  done
done
