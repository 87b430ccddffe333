#!/usr/bin/env bash
# usage: ab.sh BEFORE_JAR AFTER_JAR OUT ; two rounds, sides alternating, single queries at 1 M and 10 M, long keys
set -u
before=$1 after=$2 out=$3; mkdir -p "$out"
export BLOOMSTORE_BENCH_DIR=${BLOOMSTORE_BENCH_DIR:-/work/bench-fixtures}
for order in "before after" "after before"; do
  for side in $order; do
    jar=$before; [[ $side == after ]] && jar=$after
    for n in 10000000 1000000; do
      name="$side-n$n-${order%% *}-first"
      java -jar "$jar" '^io.bloomstore.bench.micro.MightContainBenchmark.mightContain(Present|Absent)$' -p n=$n -p keyType=LONG \
        -p impl=GUAVA,STANDARD,BLOCKED -f 1 -wi 3 -i 5 -r 1s -prof io.bloomstore.bench.micro.CpuTimeProfiler \
        -rf csv -rff "$out/$name.csv" > "$out/$name.log" 2>&1 || echo "$name failed"
      echo "$name $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)"
    done
  done
done
