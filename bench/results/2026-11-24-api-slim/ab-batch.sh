#!/usr/bin/env bash
# A/B of the batch calls, base (main at b7e8955) against api-slim (MembershipFilter's chunked addAll /
# mightContainAll), one JMH run per side and round, sides run one after the other in each round.
#   build each side: mvn -B -q -o -pl bench -am package -DskipTests; cp bench/target/benchmarks.jar SIDE.jar
#   ROUND=1 SIDES="base branch" KEYS=LONG,BYTES16 BENCH='(AddBenchmark.addBatch|MightContainBenchmark.mightContain(Present|Absent)Batch)$' ITER=5 ./ab-batch.sh
# Rounds 1-2: adds and queries, both key types, -i 5; rounds 3-4: LONG, -i 8; round 5: queries, LONG,
# -i 8, with a variant of 16-key chunks (chunk16); round 6: queries, LONG, branch run before base.
# python3 compare.py out  -> CPU ns/op (CpuTimeProfiler) per side and round, and the medians of the ratios.
set -u
export BLOOMSTORE_BENCH_DIR=${BLOOMSTORE_BENCH_DIR:-/tmp/api-slim-bench/dir}
mkdir -p out
for side in ${SIDES:-base branch}; do
  java -jar "$side.jar" "${BENCH:-MightContainBenchmark.mightContain(Present|Absent)Batch\$}" \
    -p impl=STANDARD,BLOCKED -p n=1000000,10000000 -p keyType="${KEYS:-LONG}" \
    -f 1 -wi 3 -i "${ITER:-8}" -w 1s -r 1s -prof io.bloomstore.bench.micro.CpuTimeProfiler \
    -rf csv -rff "out/r${ROUND:-1}-$side.csv" > "out/r${ROUND:-1}-$side.log" 2>&1
done
