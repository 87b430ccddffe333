#!/usr/bin/env bash
# Before (main, 16d5f01 = bb12f47's store-core) against after (branch fast-single) in one sitting, alternating,
# CPU ns per call (CpuTimeProfiler). Jars built apart:
#   git archive <rev> | tar -x -C /tmp/fs-<side> && (cd /tmp/fs-<side> && mvn -B -q -o -pl bench -am package -DskipTests)
# Usage: run.sh OUT-DIR
set -u
out=${1:?out dir}
mkdir -p "$out"
source "$(dirname "$0")/jmh.sh"
peers='-p impl=GUAVA,STANDARD,BLOCKED,DATASKETCHES,FASTFILTER_BLOOM,FASTFILTER_BLOCKED,COMMONS,SPARK'
# 1. the peers, single calls, as PEERS-Q (and 1 M long keys), each spec before then after
for spec in "10000000 LONG" "1000000 BYTES16" "10000000 BYTES16" "1000000 LONG"; do
  set -- $spec
  for side in before after; do
    jmh $side peers-n$1-$2-single "^io.bloomstore.bench.micro.$ops\$" -p n=$1 -p keyType=$2 $peers
  done
done
# 2. the ratios to Guava at 1 M long keys, single and batch calls
for side in after before; do
  jmh $side guava-n1m-LONG "^io.bloomstore.bench.micro.$ops(Batch)?\$" -p n=1000000 -p keyType=LONG \
    -p impl=GUAVA,STANDARD,BLOCKED
done
