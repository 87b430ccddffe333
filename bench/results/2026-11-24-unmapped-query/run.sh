#!/usr/bin/env bash
# usage: run.sh BEFORE_BENCHMARKS_JAR AFTER_BENCHMARKS_JAR  (ROUNDS="1 2 3 4 5 6 7" by default)
# MightContainBenchmark's single calls at n = 1 M, long keys, both layouts, with CPU time per op;
# each round runs the before jar, then the after jar; CSVs side-round.csv here; table.py makes the table.
set -u
before=$1; after=$2
cd "$(dirname "$0")"
for round in ${ROUNDS:-1 2 3 4 5 6 7}; do
  for side in before after; do
    jar=$before; [[ $side == after ]] && jar=$after
    echo "round $round $side load $(cut -d' ' -f1 /proc/loadavg) $(date -u +%T)"
    java -Djmh.ignoreLock=true -jar "$jar" '^io.bloomstore.bench.micro.MightContainBenchmark.mightContain(Present|Absent)$' \
      -p n=1000000 -p keyType=LONG -p impl=STANDARD,BLOCKED -wi 3 -i 5 -f 1 \
      -prof io.bloomstore.bench.micro.CpuTimeProfiler -rf csv -rff "$side-$round.csv" > "$side-$round.log" 2>&1
  done
done
