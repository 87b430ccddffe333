#!/bin/bash
# before (main's jar) / after (this branch's) of `bloomstore build`, interleaved rounds: CPU (user+sys) and wall
F=/tmp/bloomstore-bench/fixtures
for lines in $LINES; do
  for r in $(seq $ROUNDS); do
    for side in main branch; do
      if [[ $side == main ]]; then cli=/tmp/x/mainco/bin/bloomstore; else cli=/work/wt/perf/bin/bloomstore; fi
      t=$(/usr/bin/time -f '%e %U %S' $cli build /tmp/x/ba.bloom --from $F/keys-$lines.txt --expected $lines --fpp 0.01 --force 2>&1 >/dev/null | tail -1)
      read -r w u s <<< "$t"
      printf '%s\t%s\t%s\t%s\t%.2f\t%s\n' $lines $side $r $w $(awk -v u=$u -v s=$s 'BEGIN{print u+s}') "$(cut -d' ' -f1 /proc/loadavg)"
    done
  done
done
rm -f /tmp/x/ba.bloom
