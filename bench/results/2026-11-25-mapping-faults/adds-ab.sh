#!/usr/bin/env bash
# usage: adds-ab.sh BEFORE_CLASSPATH AFTER_CLASSPATH OUT
# Single adds by hash, the library's loop against the same probing written by hand (Adds.java of
# ../2026-11-25-fused/inprocess), with store-core before and after the MappingFaults change, taking
# turns: 3 repetitions x n = 1 M and 10 M x standard and blocked layouts, 5 rounds each.
# A classpath is store-core's jar, its dependencies (mvn -pl store-core dependency:build-classpath),
# and bench's classes (for io.bloomstore.bench.Keys).
set -eu
before=$1 after=$2 out=$3; mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
adds=$here/../2026-11-25-fused/inprocess/Adds.java
flags="--add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-exports=java.base/sun.nio.ch=ALL-UNNAMED --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED -Dchronicle.analytics.disable=true"
classes=$(mktemp -d); javac -cp "$after" -d "$classes" "$adds"
for rep in 1 2 3; do
 for n in 1000000 10000000; do
  for layout in STANDARD BLOCKED; do
   for side in before after; do
     cp=$before; [[ $side == after ]] && cp=$after
     echo "$rep $side n=$n $layout $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)" >> "$out/conditions.txt"
     java -Xmx3g $flags -cp "$cp:$classes" Adds $n $layout 5 2>/dev/null > "$out/adds-$rep-$side-n$n-$layout.txt"
   done
  done
 done
done
