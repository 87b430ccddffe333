#!/usr/bin/env bash
# dedup of 10 M new lines into a fresh windowed file (80 M keys per window (10 M per epoch), 1%, L = 8), standard vs blocked layout, alternating
set -u
cd "${WORK:-/tmp/lay}"
J=${JAR:-/tmp/lay/cli/bloomstore.jar}
out=dedup-ab.tsv
echo -e "round\tlayout\tuser_s\tsys_s\twall_s\tlines_out\tload1" > $out
for r in 1 2 3 4; do
  for l in standard blocked; do
    [ $((r % 2)) = 0 ] && l=$([ $l = standard ] && echo blocked || echo standard)
    rm -f ring.bloom
    /usr/bin/time -f "%U\t%S\t%e" -o t.txt java -jar $J dedup ring.bloom --expected 80M --fpp 0.01 --window 24h --layout $l --from keys10m.txt > lines.out
    echo -e "$r\t$l\t$(cat t.txt)\t$(wc -l < lines.out)\t$(cut -d' ' -f1 /proc/loadavg)" >> $out
  done
done
