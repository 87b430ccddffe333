#!/usr/bin/env bash
d=$(cd "$(dirname "$0")" && pwd) # jars: JAR_DIR/peers200.jar (main at 0bbe354) and JAR_DIR/tworound.jar (the patch here applied)
mkdir -p $d
for rep in 1 2; do
  order="peers200 tworound"; [ $rep = 2 ] && order="tworound peers200"
  for jar in $order; do
    name=$jar-r$rep
    echo "$name start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $d/conditions.txt
    java -Djmh.ignoreLock=true -jar ${JAR_DIR:?directory of the jars}/$jar.jar '^io.bloomstore.bench.micro.MightContainBenchmark.mightContain(Present|Absent)Batch$' \
      -p n=200000000 -p keyType=LONG -p impl=STANDARD,BLOCKED -wi 8 \
      -prof io.bloomstore.bench.micro.CpuTimeProfiler -rf csv -rff $d/$name.csv > $d/$name.log 2>&1
    echo "$name end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $d/conditions.txt
  done
done
echo DONE >> $d/conditions.txt
