#!/usr/bin/env bash
# The runs of docs/BENCHMARKS.md, LOCKSTEP: SegmentedBenchmark's FIXED and WINDOWED kinds at n = N,
# one JMH run per layout and jar, the two jars (JARS, default "before after", each JAR_DIR/NAME.jar)
# alternating first; an even REP starts with the second. BENCH picks other calls (default: the four
# single-key queries). Each run's CSV and log land beside this script, its load in conditions.txt.
#   JAR_DIR=DIR JARS="before5 final2" run.sh REP N LAYOUT...
set -euo pipefail
rep=$1; n=$2; shift 2
export BLOOMSTORE_BENCH_DIR=${BLOOMSTORE_BENCH_DIR:-/tmp/ring-lockstep/files}
out=$(cd "$(dirname "$0")" && pwd)
order=(${JARS:-before after}); (( rep % 2 == 0 )) && order=($(echo ${JARS:-before after} | awk "{print \$2, \$1}"))
for layout in "$@"; do
  for jar in "${order[@]}"; do
    name=$jar-r$rep-n$((n / 1000000))m-$(echo "$layout" | tr A-Z a-z)
    echo "$name start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $out/conditions.txt
    java -Djmh.ignoreLock=true -jar ${JAR_DIR:?directory of the jars}/$jar.jar "SegmentedBenchmark.${BENCH:-mightContain(Absent|Present)(Latency)?$}" \
      -p n=$n -p layout=$layout -p kind=FIXED,WINDOWED -prof io.bloomstore.bench.micro.CpuTimeProfiler \
      -rf csv -rff $out/$name.csv > $out/$name.log 2>&1
    echo "$name end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $out/conditions.txt
  done
  order=("${order[1]}" "${order[0]}")
done
