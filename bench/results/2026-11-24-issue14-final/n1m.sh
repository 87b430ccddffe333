#!/usr/bin/env bash
# usage: jmh-pair.sh OUTDIR ; runs before/after jars back to back, 1 M and 200 M, single and batch, long keys
set -u
out=$1; mkdir -p "$out"
before=/tmp/bench-before/benchmarks.jar
after=/tmp/bench-after/benchmarks.jar
export BLOOMSTORE_BENCH_DIR=/work/bench-fixtures
single='^io.bloomstore.bench.micro.(AddBenchmark.add|MightContainBenchmark.mightContain(Present|Absent))$'
batch='^io.bloomstore.bench.micro.(AddBenchmark.add|MightContainBenchmark.mightContain(Present|Absent))Batch$'
run() { # name jar args...
  local name=$1 jar=$2; shift 2
  java -jar "$jar" "$@" -f 1 -prof io.bloomstore.bench.micro.CpuTimeProfiler -rf csv -rff "$out/$name.csv" > "$out/$name.log" 2>&1 \
    || { echo "$name failed"; tail -20 "$out/$name.log"; }
  echo "$name done $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)"
}
for order in "before after" "after before"; do
  for side in $order; do
    jar=$before; [[ $side == after ]] && jar=$after
    r=${order%% *}
    run "$side-n1m-single-$r-first" "$jar" "$single" -p n=1000000 -p keyType=LONG -p impl=GUAVA,STANDARD,BLOCKED -wi 3 -i 5 -r 1s
    run "$side-n1m-batch-$r-first" "$jar" "$batch" -p n=1000000 -p keyType=LONG -p impl=STANDARD,BLOCKED -wi 3 -i 5 -r 1s
  done
done
