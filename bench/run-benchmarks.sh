#!/usr/bin/env bash
# Runs the benchmark suite of docs/BENCHMARKS.md and prints its tables.
#
#   bench/run-benchmarks.sh [micro|macro|all|rerun|queries|n1m|paired|paired-n200m|thread-pairs|add-thread-pairs] [results-dir]
#
# Build first: mvn -B -pl bench -am package -DskipTests
# About 15 min (micro) + 15 min (macro) on 2 cores, plus the billion-key build (BILLION=n to size
# it down). Files go to $BLOOMSTORE_BENCH_DIR (default /tmp/bloomstore-bench): ~10 GB at most;
# filled 200 M filters and the macro inputs are kept there between runs.
set -euo pipefail
cd "$(dirname "$0")/.."

what=${1:-all}
out=${2:-bench/results/$(date -u +%Y-%m-%d)}
java=${JAVA:-java}
jar=bench/target/benchmarks.jar
mkdir -p "$out"

jmh() { # name, then JMH arguments; every run also records CPU time per op (see CpuTimeProfiler)
  local name=$1; shift
  "$java" -jar "$jar" "$@" -prof io.bloomstore.bench.micro.CpuTimeProfiler -rf csv -rff "$out/$name.csv" \
    > "$out/$name.log" 2>&1 \
    || { tail -30 "$out/$name.log"; exit 1; }
  echo "$name done: $(date -u +%H:%M:%S)"
}

single='^io.bloomstore.bench.micro.(AddBenchmark.add|MightContainBenchmark.mightContain(Present|Absent))$'
batch='^io.bloomstore.bench.micro.(AddBenchmark.add|MightContainBenchmark.mightContain(Present|Absent))Batch$'
bloomstore='-p impl=STANDARD,BLOCKED' # Guava has no batch call: its twin is the single-call result

if [[ $what == rerun ]]; then
  # The subset rerun on 2026-11-22 with the CPU-time profiler, after the full run without it.
  jmh rerun-limits 'MemoryLimitsBenchmark.(dependentLoad|independentLoads8)$' -p regionBytes=268435456
  jmh rerun-copy 'MemoryLimitsBenchmark.sequentialCopy' -p regionBytes=1073741824
  jmh rerun-n200m-add '^io.bloomstore.bench.micro.AddBenchmark.add$' -p n=200000000 -p keyType=LONG
  jmh rerun-n200m-add-batch 'AddBenchmark.addBatch$' -p n=200000000 -p keyType=LONG $bloomstore
  jmh rerun-n200m-query 'MightContainBenchmark.mightContainPresent$' -p n=200000000 -p keyType=LONG
  jmh rerun-n200m-query-batch 'MightContainBenchmark.mightContainPresentBatch$' -p n=200000000 -p keyType=LONG $bloomstore
  jmh rerun-n1m-add-batch 'AddBenchmark.addBatch$' -p n=1000000 -p keyType=LONG -p impl=STANDARD
  "$java" -cp "$jar" io.bloomstore.bench.report.BenchReport "$out"/*.csv | tee "$out/micro-tables.md"
fi

queries() { # 16-byte keys at 200 M (their filters take ~4 min to fill the first time), and 1 against 2 query
  # threads; 8 warm-up iterations, as the first seconds of a fork still fault the fresh mapping's pages in
  local warm='-wi 8'
  jmh n200m-bytes16-query-single 'MightContainBenchmark.mightContain(Present|Absent)$' -p n=200000000 \
    -p keyType=BYTES16 $warm
  jmh n200m-bytes16-query-batch 'MightContainBenchmark.mightContain(Present|Absent)Batch$' -p n=200000000 \
    -p keyType=BYTES16 $bloomstore $warm
  jmh n200m-query-batch-2threads 'MightContainBenchmark.mightContainPresentBatch$' -t 2 -p n=200000000 \
    -p keyType=LONG $bloomstore $warm
}

if [[ $what == queries ]]; then
  # Run on 2026-11-23 after the quiet rerun, into a folder of its own (bench/results/2026-11-23-queries),
  # with the 1-thread twin of the 2-thread run made the same way
  jmh n200m-query-batch-1thread 'MightContainBenchmark.mightContainPresentBatch$' -p n=200000000 \
    -p keyType=LONG $bloomstore -wi 8
  queries
  "$java" -cp "$jar" io.bloomstore.bench.report.BenchReport "$out"/*.csv | tee "$out/micro-tables.md"
fi

if [[ $what == thread-pairs || $what == add-thread-pairs ]]; then
  # 1 and 2 threads querying (or adding), back to back, three rounds: on a shared host the memory
  # path's speed drifts within minutes, so only results taken close together make a fair 2 / 1 ratio.
  method=MightContainBenchmark.mightContainPresentBatch name=query-batch
  [[ $what == add-thread-pairs ]] && method=AddBenchmark.addBatch name=add-batch
  for round in 1 2 3; do
    mkdir -p "$out/round-$round"
    for threads in 1 2; do
      jmh "round-$round/$name-${threads}t" "$method\$" -t $threads \
        -p n=200000000 -p keyType=LONG $bloomstore -wi 5 -i 5
    done
    "$java" -cp "$jar" io.bloomstore.bench.report.BenchReport "$out/round-$round"/*.csv > "$out/round-$round/micro-tables.md"
    sed -n '/Two threads/,$p' "$out/round-$round/micro-tables.md"
  done
fi

if [[ $what == paired ]]; then
  # The two ratios closest to their targets, in many short pairs: each pair runs both sides within
  # seconds of each other, so the minutes-long drifts of a shared host cancel within a pair, and
  # the median of the pairs' ratios is read instead of one long run's (docs/BENCHMARKS.md, "Paired
  # runs"). Each run: 2 warm-up and 4 measured iterations of 0.5 s.
  short='-wi 2 -i 4'
  for pair in 1 2 3 4 5 6 7 8; do
    mkdir -p "$out/pair-$pair"
    for key in BYTES16 LONG; do # n = 1 M adds, Guava against the standard layout
      jmh "pair-$pair/n1m-add-$key" '^io.bloomstore.bench.micro.AddBenchmark.add(Batch)?$' -p n=1000000 \
        -p impl=GUAVA,STANDARD -p keyType=$key $short
    done
    for threads in 1 2; do # 200 M batch adds, one thread against two
      jmh "pair-$pair/add-batch-${threads}t" 'AddBenchmark.addBatch$' -t $threads -p n=200000000 \
        -p keyType=LONG $bloomstore $short
    done
  done
  "$java" -cp "$jar" io.bloomstore.bench.report.PairedRatios "$out" | tee "$out/paired-ratios.md"
fi

if [[ $what == paired-n200m ]]; then
  # The 200 M targets (batch calls against Guava's single calls, long keys) the same way, PAIRS
  # pairs (4 by default), each with the limit probe of overlapped random loads, which the queries'
  # line rates are set against (PairedRatios: "lines loaded / the limit probe's loads")
  for pair in $(seq "${PAIRS:-4}"); do
    mkdir -p "$out/pair-$pair"
    jmh "pair-$pair/limits" 'MemoryLimitsBenchmark.independentLoads8$' -p regionBytes=268435456 -wi 2 -i 3
    jmh "pair-$pair/n200m-guava" '^io.bloomstore.bench.micro.(AddBenchmark.add|MightContainBenchmark.mightContainPresent)$' \
      -p n=200000000 -p keyType=LONG -p impl=GUAVA -wi 3 -i 4
    jmh "pair-$pair/n200m-batch" '(AddBenchmark.addBatch|MightContainBenchmark.mightContainPresentBatch)$' \
      -p n=200000000 -p keyType=LONG $bloomstore -wi 3 -i 4
  done
  "$java" -cp "$jar" io.bloomstore.bench.report.PairedRatios "$out" | tee "$out/paired-ratios.md"
fi

n1m() { # every call at n = 1 M, single calls with their Guava twins, then the batch calls
  jmh n1m-single "$single" -p n=1000000
  jmh n1m-batch "$batch" -p n=1000000 $bloomstore
}

if [[ $what == n1m ]]; then
  n1m
  "$java" -cp "$jar" io.bloomstore.bench.report.BenchReport "$out"/*.csv | tee "$out/micro-tables.md"
fi

if [[ $what == micro || $what == all ]]; then
  jmh limits 'MemoryLimitsBenchmark' -p regionBytes=1073741824,268435456
  n1m
  jmh n200m-add-single 'AddBenchmark.add$' -p n=200000000
  jmh n200m-add-batch 'AddBenchmark.addBatch$' -p n=200000000 $bloomstore
  jmh n200m-query-single 'MightContainBenchmark.mightContain(Present|Absent)$' -p n=200000000 -p keyType=LONG
  jmh n200m-query-batch 'MightContainBenchmark.mightContain(Present|Absent)Batch$' -p n=200000000 -p keyType=LONG $bloomstore
  queries
  jmh threads2-single '(AddBenchmark.add|MightContainBenchmark.mightContainPresent)$' -t 2 -p keyType=LONG
  jmh threads2-batch 'AddBenchmark.addBatch$' -t 2 -p keyType=LONG $bloomstore
  "$java" -cp "$jar" io.bloomstore.bench.report.BenchReport "$out"/*.csv | tee "$out/micro-tables.md"
fi

if [[ $what == macro || $what == all ]]; then
  df -h "${BLOOMSTORE_BENCH_DIR:-/tmp}"
  "$java" -cp "$jar" io.bloomstore.bench.macro.MacroBench --out "$out/macro-tables.md" \
    --billion "${BILLION:-1000000000}" all \
    2> "$out/macro.log"
fi
