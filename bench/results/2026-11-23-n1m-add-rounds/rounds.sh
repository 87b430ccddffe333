#!/usr/bin/env bash
# Adds at n = 1 M, single and batch calls, Guava and both layouts, in three back-to-back rounds:
# on a shared host the speed drifts within minutes, so each round's ratios are taken from results
# measured within about two minutes of each other, and the rounds show the spread.
#   bench/results/2026-11-23-n1m-add-rounds/rounds.sh   (from the checkout's root, after building bench)
set -euo pipefail
out=$(dirname "$0")
for round in 1 2 3; do
  mkdir -p "$out/round-$round"
  java -jar bench/target/benchmarks.jar '^io.bloomstore.bench.micro.AddBenchmark.add(Batch)?$' -p n=1000000 \
    -prof io.bloomstore.bench.micro.CpuTimeProfiler -rf csv -rff "$out/round-$round/n1m-add.csv" \
    > "$out/round-$round/n1m-add.log" 2>&1
  java -cp bench/target/benchmarks.jar io.bloomstore.bench.report.BenchReport "$out/round-$round"/*.csv \
    > "$out/round-$round/micro-tables.md"
  echo "round $round done: $(date -u +%H:%M:%S)"
done
