#!/usr/bin/env bash
# usage: run.sh BEFORE_JAR AFTER_JAR OUT: the harnesses of this directory against each jar (the
# library's loop is "lib"; the hand-written loops are the same in both runs, the yardstick).
set -eu
before=$1 after=$2 out=$3; mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
flags="--add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-exports=java.base/sun.nio.ch=ALL-UNNAMED --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED -Dchronicle.analytics.disable=true"
classes=$(mktemp -d); javac -cp "$after" -d "$classes" "$here/Fused.java" "$here/Adds.java"
for n in 1000000 10000000; do
  for layout in STANDARD BLOCKED; do
    for side in before after; do
      jar=$before; [[ $side == after ]] && jar=$after
      echo "$side n=$n $layout $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)" >> "$out/conditions.txt"
      java -Xmx3g $flags -cp "$jar:$classes" Fused $n $layout 10 2>/dev/null > "$out/queries-$side-n$n-$layout.txt"
      java -Xmx3g $flags -cp "$jar:$classes" Adds $n $layout 7 2>/dev/null > "$out/adds-$side-n$n-$layout.txt"
    done
  done
done
