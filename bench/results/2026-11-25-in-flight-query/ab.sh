#!/usr/bin/env bash
# usage: ab.sh OUT: the in-flight batch query against the groups of 16 (-Dbloomstore.inflight.off), alternating JVMs
set -eu
out=$1; mkdir -p $out
cp="$CLASSPATH"
flags="--add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-exports=java.base/sun.nio.ch=ALL-UNNAMED --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED -Dchronicle.analytics.disable=true"
fixture=/tmp/bloomstore-bench/scratch/std200m.bloom
for rep in 1 2 3 4; do
  for side in groups inflight; do
    off=false; [[ $side == groups ]] && off=true
    echo "$rep $side $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)" >> $out/conditions.txt
    java -Xmx1g $flags ${EXTRA:-} -Dbloomstore.inflight.off=$off -cp "$cp" InFlightAB $fixture 200000000 4 > $out/$rep-$side.txt 2>/dev/null
  done
done
