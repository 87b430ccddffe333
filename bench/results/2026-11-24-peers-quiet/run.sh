#!/usr/bin/env bash
# peers at 10 M (long) and 1 M / 10 M (16-byte keys), single calls, CPU per op, on a quiet host
cd /work/main
jar=bench/target/benchmarks.jar
ops='(AddBenchmark.add|MightContainBenchmark.mightContain(Present|Absent))'
peers='-p impl=GUAVA,STANDARD,BLOCKED,DATASKETCHES,FASTFILTER_BLOOM,FASTFILTER_BLOCKED,COMMONS,SPARK'
for spec in "10000000 LONG" "1000000 BYTES16" "10000000 BYTES16"; do
  set -- $spec
  uptime >> /tmp/peers/conditions.txt
  java -Djmh.ignoreLock=true -jar $jar "^io.bloomstore.bench.micro.$ops\$" -p n=$1 -p keyType=$2 $peers \
    -f 1 -wi 3 -i 5 -w 500ms -r 500ms -prof io.bloomstore.bench.micro.CpuTimeProfiler \
    -rf csv -rff /tmp/peers/peers-n$1-$2-single.csv > /tmp/peers/peers-n$1-$2-single.log 2>&1
  echo "n=$1 $2 done $(date -u +%H:%M:%S)" >> /tmp/peers/conditions.txt
done
uptime >> /tmp/peers/conditions.txt
