#!/bin/bash
# The recorded runs: jars alternate; every invocation's start/end time and load go to conditions.txt.
OUT=/tmp/amac/rec
RE_STD='^io.bloomstore.bench.micro.MightContainBenchmark.mightContain(Absent|Present|Mixed)Batch$'
RE_FF='^io.bloomstore.bench.micro.MightContainBenchmark.mightContain(Absent|Present)$'
run() { # name jar regex params...
  local name=$1 jar=$2 re=$3; shift 3
  echo "$name start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $OUT/conditions.txt
  java -jar /tmp/amac/$jar.jar "$re" "$@" -f 1 -prof io.bloomstore.bench.micro.CpuTimeProfiler -rf csv -rff $OUT/$name.csv > $OUT/$name.log 2>&1
  echo "$name end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $OUT/conditions.txt
}
P200="-p n=200000000 -p keyType=LONG -wi 8 -i 4"
for rep in 1 2; do
  run n200m-standard-batch-before-$rep main "$RE_STD" $P200 -p impl=STANDARD
  run n200m-standard-batch-after-$rep final "$RE_STD" $P200 -p impl=STANDARD
  run n200m-fastfilter-single-$rep final "$RE_FF" $P200 -p impl=FASTFILTER_BLOOM
done
run n200m-standard-batch-before-3 main "$RE_STD" $P200 -p impl=STANDARD
run n200m-standard-batch-after-3 final "$RE_STD" $P200 -p impl=STANDARD
for rep in 1 2; do
  run n10m-standard-batch-before-$rep main "$RE_STD" -p n=10000000 -p keyType=LONG -p impl=STANDARD -wi 4 -i 4
  run n10m-standard-batch-after-$rep final "$RE_STD" -p n=10000000 -p keyType=LONG -p impl=STANDARD -wi 4 -i 4
done
for rep in 1 2; do
  run n200m-blocked-batch-before-$rep main "$RE_STD" $P200 -p impl=BLOCKED
  run n200m-blocked-batch-after-$rep final "$RE_STD" $P200 -p impl=BLOCKED
done
echo done >> $OUT/conditions.txt
