#!/usr/bin/env bash
# usage: ab.sh BEFORE_JAR AFTER_JAR OUT [ROUNDS [KEY_TYPE [N...]]]
# Single calls (add, present and absent queries) of every peer, LONG keys unless KEY_TYPE says
# BYTES16, at the sizes N (1 M and 10 M unless given); the two jars (bench/target/benchmarks.jar of
# main before and after the change) take turns going first.
set -u
before=$1 after=$2 out=$3 rounds=${4:-2} key=${5:-LONG}
sizes=("${@:6}"); ((${#sizes[@]})) || sizes=(1000000 10000000)
mkdir -p "$out"
java=${JAVA:-java}
ops='^io.bloomstore.bench.micro.(AddBenchmark.add|MightContainBenchmark.mightContain(Present|Absent))$'
impls=GUAVA,STANDARD,BLOCKED,DATASKETCHES,FASTFILTER_BLOOM,FASTFILTER_BLOCKED,COMMONS,SPARK
first=${FIRST_ROUND:-1} # rounds are numbered from FIRST_ROUND, so that a later run adds rounds
for ((r = first; r < first + rounds; r++)); do
  order="before after"; ((r % 2 == 0)) && order="after before"
  for side in $order; do
    jar=$before; [[ $side == after ]] && jar=$after
    for n in "${sizes[@]}"; do
      name="$side-n$n-r$r"; [[ $key == LONG ]] || name="$side-$key-n$n-r$r"
      echo "$name start $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)" >> "$out/conditions.txt"
      "$java" -jar "$jar" "$ops" -p n=$n -p keyType=$key -p impl=$impls -f 1 -wi 3 -i 4 -r 500ms \
        -prof io.bloomstore.bench.micro.CpuTimeProfiler -rf csv -rff "$out/$name.csv" > "$out/$name.log" 2>&1 \
        || echo "$name failed" >> "$out/conditions.txt"
      echo "$name end $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)" >> "$out/conditions.txt"
    done
  done
done
