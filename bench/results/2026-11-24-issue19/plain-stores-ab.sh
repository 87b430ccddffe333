#!/bin/bash
# A/B: in-memory build, 1 adder (plain stores) vs 2 adders (CAS); interleaved rounds
F=/tmp/bloomstore-bench/fixtures
FL="--add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-exports=java.base/sun.nio.ch=ALL-UNNAMED --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED -Dchronicle.analytics.disable=true -Xmx64m"
keys=$1 cells=$2 rounds=$3
for r in $(seq $rounds); do
  for t in 1 2; do
    /usr/bin/time -f "$keys threads=$t wall %e cpu %U %S load $(cut -d' ' -f1 /proc/loadavg)" java $FL -cp /tmp/x/sw.jar:/tmp/x/cls BuildOnce $keys /tmp/x/ab.bloom $cells 7 STANDARD $t true 2>&1 | tail -1
  done
done
rm -f /tmp/x/ab.bloom
