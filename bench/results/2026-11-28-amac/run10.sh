#!/bin/bash
OUT=/tmp/amac/rec
run() { local name=$1 jar=$2 re=$3; shift 3
  echo "$name start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $OUT/conditions.txt
  java -jar /tmp/amac/$jar.jar "$re" "$@" -f 1 -prof io.bloomstore.bench.micro.CpuTimeProfiler -rf csv -rff $OUT/$name.csv > $OUT/$name.log 2>&1
  echo "$name end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $OUT/conditions.txt; }
for rep in 3 4 5 6; do
  run n10m-standard-batch-before-$rep main '^io.bloomstore.bench.micro.MightContainBenchmark.mightContainPresentBatch$' -p n=10000000 -p keyType=LONG -p impl=STANDARD -wi 4 -i 4
  run n10m-standard-batch-after-$rep final '^io.bloomstore.bench.micro.MightContainBenchmark.mightContainPresentBatch$' -p n=10000000 -p keyType=LONG -p impl=STANDARD -wi 4 -i 4
done
echo done10 >> $OUT/conditions.txt
