#!/usr/bin/env bash
# Third series: the 1 M long-key Guava ratio invocation of run.sh once more, before first this time.
# Usage: run3.sh OUT-DIR
set -u
out=${1:?out dir}
mkdir -p "$out"
source "$(dirname "$0")/jmh.sh"
for side in before after; do
  jmh $side r2-guava-n1m-LONG "^io.bloomstore.bench.micro.$ops(Batch)?\$" -p n=1000000 -p keyType=LONG \
    -p impl=GUAVA,STANDARD,BLOCKED
done
