#!/bin/bash
# ab.sh REPS VARIANT... : each VARIANT (JAR[:W], JAR a benchmarks jar under /tmp/amac, W its keys in
# flight through -Dbloomstore.rolling.w, read by the exploration builds only) in its own JVM, in turn.
# RollAB first checks 150 batches of 1,000 against single calls, then prints CPU ns per key.
F=${F:-/tmp/bloomstore-bench/fixtures/standard-long-n200000000-m1918590944-k7.bloom}; N=${N:-200000000}
REPS=$1; shift
for rep in $(seq 1 $REPS); do for v in "$@"; do
  jar=${v%%:*}; w=${v#*:}; [ "$w" = "$v" ] && w=16
  out=$(java -Xms1g -Xmx1g --add-exports=java.base/sun.nio.ch=ALL-UNNAMED --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED \
      -Dbloomstore.rolling.w=$w -cp /tmp/amac/$jar.jar:. RollAB $F $N ${ROUNDS:-4} ${PER:-2000000} $BITS 2>&1 \
      | grep -v WARN | tail -2 | tr '\n' ' ')
  echo "$v rep$rep load $(cut -d' ' -f1 /proc/loadavg) | $out"
done; done
