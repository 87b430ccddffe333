#!/usr/bin/env bash
# The runs of docs/BENCHMARKS.md, ROUNDS: SegmentedBenchmark's single-key queries of a ring
# (KINDS, default WINDOWED) at n = N, one JMH run per layout and jar, the jars (JARS, default
# "before after", each JAR_DIR/NAME.jar) alternating first; an even REP starts with the second.
# Each run's CSV and log land beside this script, its load in conditions.txt.
#   JAR_DIR=DIR JARS="before wide" run.sh REP N LAYOUT...
set -euo pipefail
rep=$1; n=$2; shift 2
export BLOOMSTORE_BENCH_DIR=${BLOOMSTORE_BENCH_DIR:-/tmp/ring-rounds/files}
out=$(cd "$(dirname "$0")" && pwd)
order=(${JARS:-before after}); (( rep % 2 == 0 )) && order=("${order[1]}" "${order[0]}")
for layout in "$@"; do
  for jar in "${order[@]}"; do
    name=$jar-r$rep-n$((n / 1000000))m-$(echo "$layout" | tr A-Z a-z)
    echo "$name start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $out/conditions.txt
    java -Djmh.ignoreLock=true -jar ${JAR_DIR:?directory of the jars}/$jar.jar "SegmentedBenchmark.mightContain(Absent|Present)(Latency)?$" \
      -p n=$n -p layout=$layout -p kind=${KINDS:-WINDOWED} -prof io.bloomstore.bench.micro.CpuTimeProfiler \
      -rf csv -rff $out/$name.csv > $out/$name.log 2>&1
    echo "$name end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $out/conditions.txt
  done
  order=("${order[1]}" "${order[0]}")
done
