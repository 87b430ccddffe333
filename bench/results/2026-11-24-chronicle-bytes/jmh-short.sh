#!/usr/bin/env bash
# usage: jmh-short.sh BENCHMARKS_JAR OUT_PREFIX
# Short 1 M long-key runs with CPU time per op: single calls (Guava, standard, blocked), batch calls (standard, blocked).
jar=$1; out=$2
java -jar "$jar" '^io.bloomstore.bench.micro.(AddBenchmark.add|MightContainBenchmark.mightContain(Present|Absent))$' \
  -p n=1000000 -p keyType=LONG -p impl=GUAVA,STANDARD,BLOCKED -wi 3 -i 5 -f 1 \
  -prof io.bloomstore.bench.micro.CpuTimeProfiler -rf csv -rff "$out-single.csv" > "$out-single.log" 2>&1
java -jar "$jar" '^io.bloomstore.bench.micro.(AddBenchmark.add|MightContainBenchmark.mightContain(Present|Absent))Batch$' \
  -p n=1000000 -p keyType=LONG -p impl=STANDARD,BLOCKED -wi 3 -i 5 -f 1 \
  -prof io.bloomstore.bench.micro.CpuTimeProfiler -rf csv -rff "$out-batch.csv" > "$out-batch.log" 2>&1
