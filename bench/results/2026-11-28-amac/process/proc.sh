#!/bin/bash
# proc.sh ROUNDS: whole-process `contains --from` of 10 M lines against a 10 M-key standard filter,
# main's CLI jar and the branch's alternating; prints user+sys CPU s and wall s per process.
for r in $(seq ${2:-1} $1); do for keys in absent-10m.txt /tmp/bloomstore-bench/fixtures/keys-10000000.txt; do for v in main after; do
  t=$( { /usr/bin/time -f "%U %S %e" java -jar $v-cli.jar contains s10m.bloom --from $keys -q > /dev/null; } 2>&1 | tail -1)
  echo "round $r $(basename $keys) $v load $(cut -d' ' -f1 /proc/loadavg) user_sys_wall $t"
done; done; done
