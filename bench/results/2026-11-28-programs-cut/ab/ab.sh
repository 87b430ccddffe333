#!/usr/bin/env bash
# ab.sh LABEL ROUNDS OUT.tsv -- ARGS...: alternates base and new bloomstore on the same ARGS, ROUNDS rounds,
# order swapped each round; appends label, round, side, user, sys, wall, load to OUT.tsv.
label=$1; rounds=$2; out=$3; shift 4
for ((r = 1; r <= rounds; r++)); do
  if ((r % 2)); then order="base new"; else order="new base"; fi
  for side in $order; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -o /tmp/procs/.t -f "%U %S %e" ${AB_ENV:-} /tmp/procs/$side/bin/bloomstore "$@" >/dev/null 2>/dev/null
    t=$(tail -1 /tmp/procs/.t | tr " " "\t")
    echo -e "$label\t$r\t$side\t$t\t$load" >> "$out"
  done
done
