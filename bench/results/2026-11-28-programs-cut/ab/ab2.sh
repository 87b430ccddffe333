#!/usr/bin/env bash
# ab2.sh LABEL ROUNDS OUT.tsv CMD_A CMD_B: alternates two shell commands (A = "base", B = "new"), order
# swapped each round; appends label, round, side, user, sys, wall, load to OUT.tsv.
label=$1; rounds=$2; out=$3; a=$4; b=$5
for ((r = 1; r <= rounds; r++)); do
  if ((r % 2)); then order="base new"; else order="new base"; fi
  for side in $order; do
    if [[ $side == base ]]; then cmd=$a; else cmd=$b; fi
    load=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -o /tmp/procs/.t2 -f "%U %S %e" bash -c "$cmd" >/dev/null 2>/dev/null
    t=$(tail -1 /tmp/procs/.t2 | tr " " "\t")
    echo -e "$label\t$r\t$side\t$t\t$load" >> "$out"
  done
done
