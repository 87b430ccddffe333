#!/usr/bin/env bash
# A ring's batch queries changed: SegmentedBenchmark's batch queries of a ring (WINDOWED, L = 8) at n = N,
# JAR_DIR/before.jar (main at 062bd9e) and JAR_DIR/AFTER.jar (lockbatch: lockstep-batch.patch applied, the default;
# inturn: in-turn/inturn-batch.patch) alternating, one JMH run per layout, jar and rep, into OUT (default: here).
# Usage: JAR_DIR=DIR BLOOMSTORE_BENCH_DIR=FIXTURES [AFTER=inturn OUT=in-turn] ./run.sh REPS N LAYOUT...
set -euo pipefail
reps=$1; n=$2; shift 2
after=${AFTER:-lockbatch}
out=${OUT:-$(cd "$(dirname "$0")" && pwd)}
mkdir -p "$out"
for rep in $(seq 1 "$reps"); do
  order=(before "$after"); (( rep % 2 == 0 )) && order=("$after" before)
  for layout in "$@"; do
    for jar in "${order[@]}"; do
      name=$jar-r$rep-n$((n / 1000000))m-$(echo "$layout" | tr A-Z a-z)
      echo "$name start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $out/conditions.txt
      java -Djmh.ignoreLock=true -jar "${JAR_DIR:?directory of the jars}/$jar.jar" 'SegmentedBenchmark.mightContain(Absent|Present)Batch$' \
        -p n=$n -p layout=$layout -p kind=WINDOWED -prof io.bloomstore.bench.micro.CpuTimeProfiler \
        -rf csv -rff $out/$name.csv > $out/$name.log 2>&1
      echo "$name end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $out/conditions.txt
    done
    order=("${order[1]}" "${order[0]}")
  done
done
echo DONE >> $out/conditions.txt
