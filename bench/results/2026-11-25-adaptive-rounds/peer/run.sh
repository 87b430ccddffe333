#!/usr/bin/env bash
# FastFilter's Bloom (single calls; it has no batch call) beside bloomstore's standard batch query, adaptive jar, 200 M long keys, one run each, back to back.
d=$(cd "$(dirname "$0")" && pwd)
J=${JAR_DIR:?directory of the jars}/adaptive.jar
echo "peer start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $d/conditions.txt
java -Djmh.ignoreLock=true -jar $J '^io.bloomstore.bench.micro.MightContainBenchmark.mightContain(Present|Absent)$' \
  -p n=200000000 -p keyType=LONG -p impl=FASTFILTER_BLOOM -wi 8 \
  -prof io.bloomstore.bench.micro.CpuTimeProfiler -rf csv -rff $d/fastfilter-single.csv > $d/fastfilter-single.log 2>&1
echo "batch start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $d/conditions.txt
java -Djmh.ignoreLock=true -jar $J '^io.bloomstore.bench.micro.MightContainBenchmark.mightContain(Present|Absent|Mixed)Batch$' \
  -p n=200000000 -p keyType=LONG -p impl=STANDARD -wi 8 \
  -prof io.bloomstore.bench.micro.CpuTimeProfiler -rf csv -rff $d/standard-batch.csv > $d/standard-batch.log 2>&1
echo "end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $d/conditions.txt
