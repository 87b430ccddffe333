#!/usr/bin/env bash
# The runs of docs/BENCHMARKS.md, "Growing and windowed filters", latency (2026-11-24): main's core
# (before.jar) and the single-key load-ahead (after.jar), both with the same bench module,
# interleaved per n and layout (the order of the two jars alternating), each JMH run logging the
# load average at its start and end into conditions.txt; an even REP starts with after.jar.
#   run.sh DIR-OF-JARS REP
set -euo pipefail
jars=$1
rep=$2
out=$(cd "$(dirname "$0")" && pwd)
export BLOOMSTORE_BENCH_DIR=${BLOOMSTORE_BENCH_DIR:-/tmp/ring-latency/files}
order=(before after)
if (( rep % 2 == 0 )); then
  order=(after before)
fi
for n in 64000000 1000000; do
  for layout in STANDARD BLOCKED; do
    for jar in "${order[@]}"; do
      name=$jar-r$rep-n$((n / 1000000))m-$(echo "$layout" | tr A-Z a-z)
      echo "$name start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/conditions.txt"
      java -Djmh.ignoreLock=true -jar "$jars/$jar.jar" 'SegmentedBenchmark.mightContain(Absent|Present)(Latency)?$' \
        -p n=$n -p layout=$layout -prof io.bloomstore.bench.micro.CpuTimeProfiler \
        -rf csv -rff "$out/$name.csv" > "$out/$name.log" 2>&1
      echo "$name end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/conditions.txt"
    done
    order=("${order[1]}" "${order[0]}")
  done
done
