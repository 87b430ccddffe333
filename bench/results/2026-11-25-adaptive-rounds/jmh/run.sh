#!/usr/bin/env bash
# JAR_DIR/before.jar (main at a692753 plus the Mixed benchmark) against JAR_DIR/adaptive.jar (the change),
# 200 M long keys, the batch queries, REPS reps of one JMH run per jar, the jars alternating first.
# Usage: JAR_DIR=DIR ./run.sh PREFIX REPS IMPLS   e.g. ./run.sh standard-blocked 4 STANDARD,BLOCKED; ./run.sh blocked 6 BLOCKED
d=$(cd "$(dirname "$0")" && pwd)
prefix=${1:?prefix}; reps=${2:?reps}; impls=${3:?impls}
for rep in $(seq 1 "$reps"); do
  order="before adaptive"; [ $((rep % 2)) = 0 ] && order="adaptive before"
  for jar in $order; do
    name=$prefix-$jar-r$rep
    echo "$name start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $d/conditions.txt
    java -Djmh.ignoreLock=true -jar "${JAR_DIR:?directory of the jars}/$jar.jar" '^io.bloomstore.bench.micro.MightContainBenchmark.mightContain(Present|Absent|Mixed)Batch$' \
      -p n=200000000 -p keyType=LONG -p impl="$impls" -wi 8 \
      -prof io.bloomstore.bench.micro.CpuTimeProfiler -rf csv -rff "$d/$name.csv" > "$d/$name.log" 2>&1
    echo "$name end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $d/conditions.txt
  done
done
