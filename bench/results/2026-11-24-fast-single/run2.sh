#!/usr/bin/env bash
# Second series after run.sh: the two layouts beside Guava, FastFilter's BlockedBloom and Commons only,
# single calls, 10 M long and 1 M 16-byte keys, in ROUNDS rounds that alternate which side goes first.
# Usage: run2.sh OUT-DIR [ROUNDS]
set -u
out=${1:?out dir}
rounds=${2:-2}
mkdir -p "$out"
source "$(dirname "$0")/jmh.sh"
for r in $(seq 1 "$rounds"); do
  if (( r % 2 )); then sides="after before"; else sides="before after"; fi
  for spec in "10000000 LONG" "1000000 BYTES16"; do
    set -- $spec
    for side in $sides; do
      jmh $side r$r-n$1-$2-single "^io.bloomstore.bench.micro.$ops\$" -p n=$1 -p keyType=$2 \
        -p impl=GUAVA,STANDARD,BLOCKED,FASTFILTER_BLOCKED,COMMONS
    done
  done
done
