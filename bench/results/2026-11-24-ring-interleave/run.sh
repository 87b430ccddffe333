#!/usr/bin/env bash
# The runs of docs/BENCHMARKS.md, "Interleaved rings" (2026-11-24): one jar (bench/target/benchmarks.jar
# of this branch), whose SegmentedBenchmark has both rings: WINDOWED (format version 4, slots
# interleaved) and WINDOWED_V2 (format version 2, a region a slot), against FIXED, in the same runs.
# Each JMH run logs the load average at its start and end into conditions.txt.
#   run.sh JAR latency REP     the single-key queries, n = 64 M and 1 M, both layouts
#   run.sh JAR throughput      add, addBatch and the batch queries at n = 1 M, both layouts
set -euo pipefail
jar=$1
what=$2
out=$(cd "$(dirname "$0")" && pwd)
export BLOOMSTORE_BENCH_DIR=${BLOOMSTORE_BENCH_DIR:-/tmp/ri/files}
kinds=FIXED,WINDOWED,WINDOWED_V2
run() { # name, then JMH arguments
  local name=$1
  shift
  echo "$name start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/conditions.txt"
  java -Djmh.ignoreLock=true -jar "$jar" "$@" -p kind=$kinds -prof io.bloomstore.bench.micro.CpuTimeProfiler \
    -rf csv -rff "$out/$name.csv" > "$out/$name.log" 2>&1
  echo "$name end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/conditions.txt"
}
if [[ $what == latency ]]; then
  rep=$3
  for n in 64000000 1000000; do
    for layout in STANDARD BLOCKED; do
      run "latency-r$rep-n$((n / 1000000))m-$(echo "$layout" | tr A-Z a-z)" \
        'SegmentedBenchmark.mightContain(Absent|Present)(Latency)?$' -p n=$n -p layout=$layout
    done
  done
else
  run throughput-n1m 'SegmentedBenchmark.(add|addBatch|mightContain(Absent|Present)Batch)$' -p n=1000000 \
    -p layout=STANDARD,BLOCKED
fi
