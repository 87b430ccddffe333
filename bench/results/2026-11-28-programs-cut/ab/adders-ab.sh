#!/usr/bin/env bash
cd /tmp/procs
E=/tmp/procs/exp3/bin/bloomstore; O=/tmp/procs/adders2.tsv
for lines in 3000000 10000000; do
  K=/tmp/bloomstore-bench/fixtures/keys-$lines.txt
  for layout in standard sectorized blocked; do
    C="$E build /tmp/procs/ad.bloom --from $K --expected $lines --fpp 0.01 --layout $layout --force"
    ./ab2.sh "$lines $layout: 1 plain adder (new) / 2 adders (base)" 5 $O "BLOOMSTORE_JAVA_OPTS=-Dbloomstore.adders=2 $C" "BLOOMSTORE_JAVA_OPTS=-Dbloomstore.adders=1 $C"
  done
done
echo done
