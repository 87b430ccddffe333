#!/usr/bin/env bash
# AddBenchmark add/addBatch, BLOCKED and STANDARD, n = 1 M and 10 M, long keys: main against blind, alternating
set -u
cd /tmp/var
mkdir -p out2
for rep in $(seq 1 ${REPS:-3}); do
  jars="main blind"; [ $((rep % 2)) = 0 ] && jars="blind main"
  for jar in $jars; do
    echo "$(date +%T) rep $rep $jar load $(cut -d' ' -f1 /proc/loadavg)" >> out2/conditions.txt
    java -Djmh.ignoreLock=true -jar j/$jar.jar 'AddBenchmark.add' -p impl=BLOCKED,STANDARD -p n=1000000,10000000 -p keyType=LONG \
      -prof io.bloomstore.bench.micro.CpuTimeProfiler -rf csv -rff out2/$jar-$rep.csv > out2/$jar-$rep.log 2>&1
  done
done
echo "$(date +%T) done load $(cut -d' ' -f1 /proc/loadavg)" >> out2/conditions.txt
