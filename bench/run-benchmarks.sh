#!/usr/bin/env bash
# Runs the benchmarks of docs/BENCHMARKS.md (its results table names the mode behind each number;
# "How to run" says what each mode measures).
#
#   bench/run-benchmarks.sh [-n] MODE [RESULTS-DIR]
#
#   micro          the JMH matrix: limit probes, every call at n = 1 M and 200 M against Guava,
#                  16-byte keys at 200 M, two threads; BenchReport's tables in micro-tables.md
#   paired         PAIRS (8) pairs of short runs: 1 M standard adds against Guava, 200 M batch adds
#                  on 1 thread against 2; PairedRatios' medians in paired-ratios.md
#   paired-n200m   PAIRS (4) pairs at 200 M: the limit probe, Guava's single calls, both layouts'
#                  batch calls; PairedRatios' medians in paired-ratios.md
#   macro          MacroBench all: open + first query, build from a key file (API and bin/bloomstore),
#                  OR-merge against the copy probes, BILLION (10^9) keys with -Xmx64m; macro-tables.md
#   build          ROUNDS (5) rounds, each the Guava program then `bin/bloomstore build` of each layout
#                  on the 100 M-line key file; build-rounds.txt, with the medians of the ratios
#   programs       what a user types against the plain programs they would write with Guava and
#                  FastFilter (UserPrograms): build, contains --from and dedup of PROGRAM_LINES
#                  (1 M, 3 M, 10 M) lines, PROGRAM_ROUNDS (3) interleaved rounds, bloomstore's files in each
#                  of PROGRAM_LAYOUTS (standard; e.g. "standard blocked sectorized"), wall and CPU time
#                  (user + sys) of each whole process; programs.tsv and programs.md (median ratios)
#   writeback      bytes written for a 1 GiB filter (WRITEBACK_LINES, 50 M, keys): build in memory
#                  against build in the mapped file, then add into the built file; the process's
#                  write_bytes (getrusage) and the device's sectors written; writeback.txt
#   checkpoint     a live 1 GiB filter in /dev/shm, checkpointed to disk after each round of adds
#                  (CHECKPOINT_ROUNDS keys: 1k 10k 100k 1M 10M), against the same filter mapped from
#                  disk and synced after each round (add --sync); the bytes each process wrote
#                  (write_bytes), the device's, and the pages that changed; checkpoint.txt (a mapped
#                  add is stopped after CHECKPOINT_TIMEOUT, 600 s: under reclaim it can last hours);
#                  then a paced live run of each (LiveWriteback: CHECKPOINT_RATE keys a second,
#                  durable every CHECKPOINT_SECONDS, CHECKPOINT_INTERVALS times); paced.txt
#   startup        STARTUP_ROUNDS (40) interleaved rounds of `java -version` and a one-key
#                  `bin/bloomstore contains`; startup.txt, with the medians and their ratio
#   peers          every JVM peer (DataSketches, FastFilter's Bloom and BlockedBloom, Commons
#                  Collections, Spark's sketch) beside Guava and both layouts: single calls at 1 M and
#                  10 M (long and 16-byte keys) and 200 M (long), the batch calls, the accuracy table
#                  at the target p; micro-tables.md and fpp-at-target.md
#   segmented      SegmentedBenchmark at n = 1 M and 10 M: growing chains and windowed rings against
#                  a fixed filter of the same n, every call, both layouts; one CSV and log per n
#   window         SegmentedBenchmark's single queries and latency chains at WINDOW_N (64 M) keys: the
#                  fixed filter against the ring of 8 epochs, each of WINDOW_LAYOUTS (BLOCKED STANDARD)
#                  in its own run, WINDOW_REPS (3) repetitions; one CSV and log per repetition and layout
#   window-dedup   DEDUP_ROUNDS (4) alternating rounds of `bin/bloomstore dedup` of 10 M new lines
#                  into a new ring of 80 M keys a window at 1 % (L = 8), slots of each of DEDUP_LAYOUTS
#                  (standard blocked) taking turns to go first, then a fixed filter of 10 M keys at 1 %; window-dedup.tsv (wall and user + sys CPU
#                  of each process)
#   grow-dedup     the same into a new growing file from 100 k keys at 0.1 % (7 segments at 10 M),
#                  segments of each of DEDUP_LAYOUTS, then a fixed filter of 10 M keys at 0.1 %;
#                  grow-dedup.tsv
#   all            each of the above, into RESULTS-DIR/<mode>/
#
#   -n             print the commands instead of running them
#   -h, --help     this text
#
# Build first: mvn -B -pl bench -am package -DskipTests (and store-cli for bin/bloomstore).
# RESULTS-DIR defaults to bench/results/<UTC date>. Benchmark files go to $BLOOMSTORE_BENCH_DIR
# (default /tmp/bloomstore-bench): ~10 GB at most; filled 200 M filters and the key files are kept
# there between runs.
set -euo pipefail
cd "$(dirname "$0")/.."

dry=false
if [[ ${1:-} == -n ]]; then
  dry=true
  shift
fi
what=${1:-}
results=${2:-bench/results/$(date -u +%Y-%m-%d)}
java=${JAVA:-java}
jar=bench/target/benchmarks.jar

usage() { # exit status (2 unless asked for)
  if [[ ${1:-2} == 0 ]]; then
    sed -n '/^#   bench/,/^#   -h/p' "$0" | sed 's/^# \{0,1\}//'
  else
    sed -n '/^#   bench/,/^#   -h/p' "$0" | sed 's/^# \{0,1\}//' >&2
  fi
  exit "${1:-2}"
}

run() { # a command, or in a dry run its text
  if $dry; then
    printf '%q ' "$@"
    echo
  else
    "$@"
  fi
}

jmh() { # dir, name, then JMH arguments; every run also records CPU time per op (see CpuTimeProfiler)
  local dir=$1 name=$2
  shift 2
  if $dry; then
    run "$java" -jar "$jar" "$@" -prof io.bloomstore.bench.micro.CpuTimeProfiler -rf csv -rff "$dir/$name.csv"
    return
  fi
  mkdir -p "$(dirname "$dir/$name")"
  "$java" -jar "$jar" "$@" -prof io.bloomstore.bench.micro.CpuTimeProfiler -rf csv -rff "$dir/$name.csv" \
    > "$dir/$name.log" 2>&1 \
    || { tail -30 "$dir/$name.log"; exit 1; }
  echo "$name done: $(date -u +%H:%M:%S)"
}

report() { # dir, tool (BenchReport or PairedRatios), output file; then the tool's arguments
  local dir=$1 tool=$2 file=$3
  shift 3
  if $dry; then
    run "$java" -cp "$jar" "io.bloomstore.bench.report.$tool" "$@"
  else
    "$java" -cp "$jar" "io.bloomstore.bench.report.$tool" "$@" | tee "$dir/$file"
  fi
}

ops='(AddBenchmark.add|MightContainBenchmark.mightContain(Present|Absent))'
bloomstore='-p impl=STANDARD,BLOCKED' # Guava has no batch call: its twin of a batch is its single-call result
guava='-p impl=GUAVA,STANDARD,BLOCKED' # the modes against Guava alone (the peers have a mode of their own)
peers='-p impl=GUAVA,STANDARD,BLOCKED,DATASKETCHES,FASTFILTER_BLOOM,FASTFILTER_BLOCKED,COMMONS,SPARK'

micro() { # dir
  local d=$1
  jmh "$d" limits 'MemoryLimitsBenchmark' -p regionBytes=1073741824,268435456
  jmh "$d" n1m-single "^io.bloomstore.bench.micro.$ops\$" -p n=1000000 $guava
  jmh "$d" n1m-batch "^io.bloomstore.bench.micro.${ops}Batch\$" -p n=1000000 $bloomstore
  jmh "$d" n200m-add-single 'AddBenchmark.add$' -p n=200000000 $guava
  jmh "$d" n200m-add-batch 'AddBenchmark.addBatch$' -p n=200000000 $bloomstore
  jmh "$d" n200m-query-single 'MightContainBenchmark.mightContain(Present|Absent)$' -p n=200000000 -p keyType=LONG \
    $guava
  jmh "$d" n200m-query-batch 'MightContainBenchmark.mightContain(Present|Absent)Batch$' -p n=200000000 \
    -p keyType=LONG $bloomstore
  # 16-byte keys at 200 M (their filters take minutes to fill the first time) and two threads
  # querying; 8 warm-up iterations, as a fork's first seconds still fault the fresh mapping's pages in
  jmh "$d" n200m-bytes16-query-single 'MightContainBenchmark.mightContain(Present|Absent)$' -p n=200000000 \
    -p keyType=BYTES16 $guava -wi 8
  jmh "$d" n200m-bytes16-query-batch 'MightContainBenchmark.mightContain(Present|Absent)Batch$' -p n=200000000 \
    -p keyType=BYTES16 $bloomstore -wi 8
  jmh "$d" n200m-query-batch-2threads 'MightContainBenchmark.mightContainPresentBatch$' -t 2 -p n=200000000 \
    -p keyType=LONG $bloomstore -wi 8
  jmh "$d" threads2-single '(AddBenchmark.add|MightContainBenchmark.mightContainPresent)$' -t 2 -p keyType=LONG \
    $guava
  jmh "$d" threads2-batch 'AddBenchmark.addBatch$' -t 2 -p keyType=LONG $bloomstore
  report "$d" BenchReport micro-tables.md "$d"/*.csv
}

peers() { # dir. A peer has no batch call for distinct keys: its twin of a batch is its single-call
  # result, as Guava's is. Two threads are not run: only bloomstore and Guava take adds from threads.
  local d=$1 n key
  for n in 1000000 10000000; do
    for key in LONG BYTES16; do
      jmh "$d" "peers-n$n-$key-single" "^io.bloomstore.bench.micro.$ops\$" -p n=$n -p keyType=$key $peers
      jmh "$d" "peers-n$n-$key-batch" "^io.bloomstore.bench.micro.${ops}Batch\$" -p n=$n -p keyType=$key $bloomstore
    done
  done
  jmh "$d" peers-n200m-LONG-single "^io.bloomstore.bench.micro.$ops\$" -p n=200000000 -p keyType=LONG $peers -wi 8
  jmh "$d" peers-n200m-LONG-batch "^io.bloomstore.bench.micro.${ops}Batch\$" -p n=200000000 -p keyType=LONG \
    $bloomstore -wi 8
  if $dry; then
    run "$java" '<bench flags>' -cp "$jar" io.bloomstore.bench.accuracy.FppTable target
  else
    "$java" $(sed -n 's/^jvm\.flags\(\.peers\)\?=//p' bench/target/classes/io/bloomstore/bench/bench-jvm.properties) \
      -cp "$jar" io.bloomstore.bench.accuracy.FppTable target | tee "$d/fpp-at-target.md"
  fi
  report "$d" BenchReport micro-tables.md "$d"/*.csv
}

paired() { # dir. Each pair runs both sides seconds apart, so a drift of a shared host moves both;
  # the median of the pairs' ratios is read (docs/BENCHMARKS.md, "Paired runs"). 2 warm-up and 4
  # measured iterations of 0.5 s per run.
  local d=$1 pair key threads short='-wi 2 -i 4'
  for pair in $(seq "${PAIRS:-8}"); do
    for key in BYTES16 LONG; do # n = 1 M adds, Guava against the standard layout
      jmh "$d" "pair-$pair/n1m-add-$key" '^io.bloomstore.bench.micro.AddBenchmark.add(Batch)?$' -p n=1000000 \
        -p impl=GUAVA,STANDARD -p keyType=$key $short
    done
    for threads in 1 2; do # 200 M batch adds, one thread against two
      jmh "$d" "pair-$pair/add-batch-${threads}t" 'AddBenchmark.addBatch$' -t $threads -p n=200000000 \
        -p keyType=LONG $bloomstore $short
    done
  done
  report "$d" PairedRatios paired-ratios.md "$d"
}

paired_n200m() { # dir. The 200 M targets the same way, each pair with the limit probe of overlapped
  # random loads, which the queries' line rates are set against (PairedRatios)
  local d=$1 pair
  for pair in $(seq "${PAIRS:-4}"); do
    jmh "$d" "pair-$pair/limits" 'MemoryLimitsBenchmark.independentLoads8$' -p regionBytes=268435456 -wi 2 -i 3
    jmh "$d" "pair-$pair/n200m-guava" \
      '^io.bloomstore.bench.micro.(AddBenchmark.add|MightContainBenchmark.mightContainPresent)$' \
      -p n=200000000 -p keyType=LONG -p impl=GUAVA -wi 3 -i 4
    jmh "$d" "pair-$pair/n200m-batch" '(AddBenchmark.addBatch|MightContainBenchmark.mightContainPresentBatch)$' \
      -p n=200000000 -p keyType=LONG $bloomstore -wi 3 -i 4
  done
  report "$d" PairedRatios paired-ratios.md "$d"
}

macro() { # dir
  local d=$1
  $dry || df -h "${BLOOMSTORE_BENCH_DIR:-/tmp}"
  run "$java" -cp "$jar" io.bloomstore.bench.macro.MacroBench --out "$d/macro-tables.md" \
    --billion "${BILLION:-1000000000}" all
}

seconds() { # runs a command quietly and prints its wall time in seconds; fails as the command does
  local start end
  start=$(date +%s.%N)
  "$@" > /dev/null 2>&1 || return
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.4f", e - s }'
}

absent() { # a query of an absent key: exit status 1 is its answer, not a failure
  "$@" || (($? == 1))
}

median() { # label, then ratios: one line with their median and range
  local label=$1
  shift
  printf '%s\n' "$@" | sort -n | awk -v l="$label" '{ r[NR] = $1 } END {
    m = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
    printf "median, %s: %.3f of the Guava program (%d rounds, %.3f to %.3f)\n", l, m, NR, r[1], r[NR] }'
}

build() { # dir. What a user types against the plain Guava program, interleaved round by round, since
  # the Guava program's own time drifts by a fifth within an hour on a shared host
  local d=$1 lines=100000000 round layout g x r line
  local dir=${BLOOMSTORE_BENCH_DIR:-/tmp/bloomstore-bench}
  local keys=$dir/fixtures/keys-$lines.txt scratch=$dir/scratch
  local -a standard=() blocked=()
  run "$java" -cp "$jar" io.bloomstore.bench.macro.MacroTask key-file "$keys" "$lines" # made once, then kept
  if $dry; then
    echo "# then ROUNDS=${ROUNDS:-5} rounds of:"
    run "$java" -cp "$jar" io.bloomstore.bench.macro.MacroTask build-guava "$keys" "$scratch/guava.bin" "$lines"
    for layout in standard blocked; do
      run bin/bloomstore build "$scratch/cli.bloom" --from "$keys" --expected "$lines" --fpp 0.01 --layout "$layout"
    done
    return
  fi
  mkdir -p "$scratch"
  rm -f "$scratch/guava.bin" "$scratch/cli.bloom"
  echo "# $(date -u +%FT%TZ), $(git rev-parse --short HEAD 2>/dev/null || echo '?'): seconds, and the ratio to the round's Guava program" \
    | tee -a "$d/build-rounds.txt"
  for round in $(seq "${ROUNDS:-5}"); do
    g=$(seconds "$java" -cp "$jar" io.bloomstore.bench.macro.MacroTask build-guava "$keys" "$scratch/guava.bin" "$lines")
    rm -f "$scratch/guava.bin"
    line="round $round: guava $g s"
    for layout in standard blocked; do
      x=$(seconds bin/bloomstore build "$scratch/cli.bloom" --from "$keys" --expected "$lines" --fpp 0.01 \
        --layout "$layout") || { echo "round $round: bloomstore build --layout $layout failed" >&2; exit 1; }
      rm -f "$scratch/cli.bloom"
      r=$(awk -v x="$x" -v g="$g" 'BEGIN { printf "%.3f", x / g }')
      if [[ $layout == standard ]]; then standard+=("$r"); else blocked+=("$r"); fi
      line="$line | $layout $x s, ratio $r"
    done
    echo "$line" | tee -a "$d/build-rounds.txt"
  done
  { median standard "${standard[@]}"; median blocked "${blocked[@]}"; } | tee -a "$d/build-rounds.txt"
}

timed() { # file, label, then a command: appends "label wall cpu load1" (wall and user + sys CPU seconds)
  local file=$1 label=$2 t
  shift 2
  if $dry; then
    run "$@"
    return
  fi
  t=$(/usr/bin/time -f '%e %U %S' "$@" 2>&1 > /dev/null | tail -1) \
    || { echo "$label failed: $t" >&2; exit 1; }
  read -r wall user sys <<< "$t"
  printf '%s\t%s\t%.2f\t%s\n' "$label" "$wall" "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" \
    "$(cut -d' ' -f1 /proc/loadavg)" | tee -a "$file"
}

programs() { # dir. Each round runs every side of a job one after the other, so a drift of the shared
  # host hits them alike; the ratios are taken within a round, and their medians reported
  local d=$1 lines round keys dir=${BLOOMSTORE_BENCH_DIR:-/tmp/bloomstore-bench}
  local scratch=$dir/scratch/programs tsv=$d/programs.tsv programs=io.bloomstore.bench.macro.UserPrograms
  local layouts=${PROGRAM_LAYOUTS:-standard}
  side() { if [[ $1 == standard ]]; then echo bloomstore; else echo "bloomstore-$1"; fi; } # the default layout keeps its old name
  $dry || { mkdir -p "$scratch"; printf 'lines\tjob\tside\tround\twall\tcpu\tload1\n' >> "$tsv"; }
  for lines in ${PROGRAM_LINES:-1000000 3000000 10000000}; do
    keys=$dir/fixtures/keys-$lines.txt
    run "$java" -cp "$jar" io.bloomstore.bench.macro.MacroTask key-file "$keys" "$lines"
    $dry || cat "$keys" > /dev/null # a warm page cache for every side
    for round in $(seq "${PROGRAM_ROUNDS:-3}"); do
      local t="$lines	build" r="	$round"
      timed "$tsv" "$t	guava$r" "$java" -cp "$jar" io.bloomstore.bench.macro.MacroTask build-guava "$keys" \
        "$scratch/guava.bin" "$lines"
      timed "$tsv" "$t	fastfilter$r" "$java" -cp "$jar" $programs fastfilter-build "$keys" "$lines"
      for layout in $layouts; do
        timed "$tsv" "$t	$(side "$layout")$r" bin/bloomstore build "$scratch/cli-$layout.bloom" --from "$keys" \
          --expected "$lines" --fpp 0.01 --layout "$layout" --force
      done
      t="$lines	contains"
      timed "$tsv" "$t	guava$r" "$java" -cp "$jar" $programs guava-contains "$scratch/guava.bin" "$keys" /dev/null
      for layout in $layouts; do
        timed "$tsv" "$t	$(side "$layout")$r" bin/bloomstore contains "$scratch/cli-$layout.bloom" --from "$keys"
      done
      t="$lines	dedup"
      timed "$tsv" "$t	guava$r" "$java" -cp "$jar" $programs guava-dedup "$keys" "$scratch/guava-dedup.bin" /dev/null \
        "$lines"
      timed "$tsv" "$t	fastfilter$r" "$java" -cp "$jar" $programs fastfilter-dedup "$keys" /dev/null "$lines"
      for layout in $layouts; do
        run rm -f "$scratch/dedup.bloom"
        timed "$tsv" "$t	$(side "$layout")$r" bin/bloomstore dedup "$scratch/dedup.bloom" --expected "$lines" \
          --fpp 0.01 --layout "$layout" --from "$keys"
      done
    done
  done
  $dry && return
  rm -rf "$scratch"
  { # per lines, job and side: the medians over rounds of CPU and wall time as fractions of the round's Guava program
    echo "# $(date -u +%FT%TZ), $(git rev-parse --short HEAD 2>/dev/null || echo '?'), rounds: ${PROGRAM_ROUNDS:-3}"
    echo '| lines | job | side | CPU / Guava (median) | wall / Guava (median) | CPU s (median) | wall s (median) | load1 (range) |'
    echo '| --- | --- | --- | --- | --- | --- | --- | --- |'
    awk -F'\t' 'NR > 1 && $1 != "lines" { key = $1 FS $2 FS $4; if ($3 == "guava") { gc[key] = $6; gw[key] = $5 } }
      NR > 1 && $1 != "lines" { rows[NR] = $0 }
      END { for (i in rows) { split(rows[i], f, FS); key = f[1] FS f[2] FS f[4]; side = f[1] FS f[2] FS f[3]
              n[side]++; c[side, n[side]] = f[6] / gc[key]; w[side, n[side]] = f[5] / gw[key]
              cs[side, n[side]] = f[6]; ws[side, n[side]] = f[5]
              if (!(side in lo) || f[7] < lo[side]) lo[side] = f[7]; if (f[7] > hi[side]) hi[side] = f[7] }
            for (side in n) { split(side, s, FS)
              printf "| %s | %s | %s | %.2f | %.2f | %.2f | %.2f | %s to %s |\n", s[1], s[2], s[3],
                med(c, side, n[side]), med(w, side, n[side]), med(cs, side, n[side]), med(ws, side, n[side]), lo[side], hi[side] } }
      function med(a, side, k,   v, i, j, t) { for (i = 1; i <= k; i++) v[i] = a[side, i]
        for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
        return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2 }' "$tsv" | sort -t'|' -k2,2n -k3,3 -k4,4
  } | tee -a "$d/programs.md"
}

writeback() { # dir. Bytes written for a filter far larger than the caches: a 1 GiB standard filter
  # (2^33 cells, k = 7) built from WRITEBACK_LINES keys by `bloomstore build` (in memory, the default)
  # and in the mapped file (FilterBuilder.inMemory(false): MacroTask build-in-file), then `add` of as
  # many other keys into the built file. write_bytes counts a page each time the process makes a
  # clean page dirty (or writes it): the bytes the kernel writes back for it, however late
  local d=$1 lines=${WRITEBACK_LINES:-50000000} dir=${BLOOMSTORE_BENCH_DIR:-/tmp/bloomstore-bench}
  local all=$dir/fixtures/keys-$((2 * lines)).txt first=$dir/fixtures/writeback-first.txt
  local second=$dir/fixtures/writeback-second.txt scratch=$dir/scratch/writeback file=$d/writeback.txt
  local dev cells=8589934592 side
  run "$java" -cp "$jar" io.bloomstore.bench.macro.MacroTask key-file "$all" "$((2 * lines))"
  if $dry; then
    run bin/bloomstore build "$scratch/memory.bloom" --from "$first" --cells $cells --hashes 7
    run "$java" '<bench flags>' -cp "$jar" io.bloomstore.bench.macro.MacroTask build-in-file "$first" \
      "$scratch/mapped.bloom" $cells 7
    run bin/bloomstore add "$scratch/memory.bloom" --from "$second"
    return
  fi
  [[ -f $first && -f $second ]] || { head -n "$lines" "$all" > "$first"; tail -n "$lines" "$all" > "$second"; }
  mkdir -p "$scratch"
  dev=$(basename "$(df --output=source "$scratch" | tail -1)")
  echo "# $(date -u +%FT%TZ), $(git rev-parse --short HEAD 2>/dev/null || echo '?'): $lines keys each," \
    "a $((cells / 8 / 1048576)) MiB filter; device $dev" | tee -a "$file"
  for side in memory mapped add; do # each stopped after WRITEBACK_TIMEOUT (900) s: a writeback storm can last hours
    local before after t limit=(timeout "${WRITEBACK_TIMEOUT:-900}")
    sync
    before=$(awk '{ print $7 }' "/sys/block/$dev/stat")
    case $side in
      memory) t=$(/usr/bin/time -f '%e %U %S %O' "${limit[@]}" bin/bloomstore build "$scratch/memory.bloom" --from "$first" \
        --cells $cells --hashes 7 2>&1 > /dev/null | tail -1) ;;
      mapped) t=$(/usr/bin/time -f '%e %U %S %O' "${limit[@]}" "$java" $(sed -n 's/^jvm\.flags=//p' \
        bench/target/classes/io/bloomstore/bench/bench-jvm.properties) -cp "$jar" \
        io.bloomstore.bench.macro.MacroTask build-in-file "$first" "$scratch/mapped.bloom" $cells 7 2>&1 > /dev/null \
        | tail -1) ;;
      add) t=$(/usr/bin/time -f '%e %U %S %O' "${limit[@]}" bin/bloomstore add "$scratch/memory.bloom" --from "$second" 2>&1 \
        > /dev/null | tail -1) ;;
    esac || true # a run stopped by the timeout is reported with what it wrote until then
    sync
    after=$(awk '{ print $7 }' "/sys/block/$dev/stat")
    read -r wall user sys blocks <<< "$t"
    awk -v s="$side" -v w="$wall" -v u="$user" -v y="$sys" -v b="$blocks" -v d=$((after - before)) -v c=$cells \
      -v n="$lines" -v l="$(cut -d' ' -f1-3 /proc/loadavg)" 'BEGIN {
      f = c / 8 + 4096; if (w >= '"${WRITEBACK_TIMEOUT:-900}"') s = s " (stopped by the timeout)"
      printf "%-6s wall %7.1f s, CPU %6.1f s, write_bytes %6.2f GB = %5.2fx the file, %6.1f bytes a key;" \
        " device %6.2f GB (every process); load %s\n", s, w, u + y, b * 512 / 1e9, b * 512 / f, b * 512 / n, d * 512 / 1e9, l }' \
      | tee -a "$file"
    [[ $side == mapped ]] && rm -f "$scratch/mapped.bloom"
  done
  rm -rf "$scratch"
}

checkpoint() { # dir. A live filter shared by processes, far larger than the caches (1 GiB: 2^33 cells,
  # k = 7), kept in /dev/shm and checkpointed to a copy on disk after each round of adds, against the
  # same filter mapped from a file on disk and synced after the same round (`add --sync`). Both get
  # the same keys, so the pages a round changes are the same on both sides: the checkpoint reports
  # them (pagesWritten), and they are the dirty part each side must write at least once
  local d=$1 dir=${BLOOMSTORE_BENCH_DIR:-/tmp/bloomstore-bench} cells=8589934592
  local -a rounds=(${CHECKPOINT_ROUNDS:-1000 10000 100000 1000000 10000000})
  local total=0 n from=1 file=$d/checkpoint.txt dev keys round json
  local live=${CHECKPOINT_LIVE_DIR:-/dev/shm}/bloomstore-checkpoint-live.bloom scratch=$dir/scratch/checkpoint
  for n in "${rounds[@]}"; do total=$((total + n)); done
  keys=$dir/fixtures/keys-$total.txt round=$scratch/round.txt
  $dry || mkdir -p "$dir/fixtures"
  run "$java" -cp "$jar" io.bloomstore.bench.macro.MacroTask key-file "$keys" "$total"
  if $dry; then
    run bin/bloomstore create "$live" --cells $cells --hashes 7
    run bin/bloomstore create "$scratch/mapped.bloom" --cells $cells --hashes 7
    run bin/bloomstore checkpoint "$live" "$scratch/copy.bloom"
    echo "# then for each round of ${rounds[*]} keys:"
    run bin/bloomstore add "$live" --from "$round"
    run bin/bloomstore checkpoint "$live" "$scratch/copy.bloom" --json
    run bin/bloomstore add "$scratch/mapped.bloom" --from "$round" --sync
    return
  fi
  mkdir -p "$scratch"
  rm -f "$live" "$scratch"/*.bloom
  dev=$(basename "$(df --output=source "$scratch" | tail -1)")
  bin/bloomstore create "$live" --cells $cells --hashes 7 > /dev/null
  bin/bloomstore create "$scratch/mapped.bloom" --cells $cells --hashes 7 > /dev/null
  bin/bloomstore checkpoint "$live" "$scratch/copy.bloom" > /dev/null # the first copy is written whole
  echo "# $(date -u +%FT%TZ), $(git rev-parse --short HEAD 2>/dev/null || echo '?'): a $((cells / 8 / 1048576)) MiB" \
    "filter, k = 7; live in $(dirname "$live"), copy and mapped file on $dev; load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$file"
  echo "# keys | changed MB | step | wall s | CPU s | write_bytes MB | x changed | device MB (every process) | x changed" \
    | tee -a "$file"
  for n in "${rounds[@]}"; do
    sed -n "${from},$((from + n - 1))p" "$keys" > "$round"
    from=$((from + n))
    local pages="" step t before after
    for step in live-add checkpoint mapped-add-sync; do
      sync
      before=$(awk '{ print $7 }' "/sys/block/$dev/stat")
      [[ $step == live-add ]] && pages=""
      case $step in
        live-add) t=$(/usr/bin/time -f '%e %U %S %O' bin/bloomstore add "$live" --from "$round" 2>&1 > /dev/null | tail -1) ;;
        checkpoint) t=$(/usr/bin/time -o "$scratch/time" -f '%e %U %S %O' bin/bloomstore checkpoint "$live" \
          "$scratch/copy.bloom" --json > "$scratch/json"; cat "$scratch/time")
          pages=$(sed -n 's/.*"pagesWritten" : \([0-9]*\).*/\1/p' "$scratch/json") ;;
        mapped-add-sync) t=$(/usr/bin/time -f '%e %U %S %O' timeout "${CHECKPOINT_TIMEOUT:-600}" bin/bloomstore add \
          "$scratch/mapped.bloom" --from "$round" --sync 2>&1 > /dev/null | tail -1) ;;
      esac
      sync
      after=$(awk '{ print $7 }' "/sys/block/$dev/stat")
      read -r wall user sys blocks <<< "$t"
      awk -v n="$n" -v p="$pages" -v s="$step" -v w="$wall" -v u="$user" -v y="$sys" -v b="$blocks" \
        -v dv=$((after - before)) -v lim="${CHECKPOINT_TIMEOUT:-600}" 'BEGIN {
        mb = p * 4096 / 1e6; wb = b * 512 / 1e6; dev = dv * 512 / 1e6; if (w >= lim) s = s " (stopped)"
        printf "%9d | %8s | %-15s | %7.2f | %6.2f | %9.1f | %6s | %9.1f | %6s\n", n, p == "" ? "-" : sprintf("%.1f", mb), s,
          w, u + y, wb, p == "" ? "-" : sprintf("%.2f", wb / mb), dev, p == "" ? "-" : sprintf("%.2f", dev / mb) }' | tee -a "$file"
    done
  done
  rm -rf "$scratch" "$live"
  paced_checkpoints "$d"
}

paced_checkpoints() { # dir. A live filter as a service keeps it (LiveWriteback): CHECKPOINT_RATE (100)
  # keys a second for CHECKPOINT_INTERVALS (4) intervals of CHECKPOINT_SECONDS (60), made durable at
  # the end of each: the filter mapped from disk and synced, then the filter in /dev/shm checkpointed.
  # Between syncs the kernel may write the mapped file's pages back, and again after later adds
  local d=$1 dir=${BLOOMSTORE_BENCH_DIR:-/tmp/bloomstore-bench} cells=8589934592 mode filter dev
  local live=${CHECKPOINT_LIVE_DIR:-/dev/shm}/bloomstore-paced-live.bloom scratch=$dir/scratch/paced
  local -a args=("${CHECKPOINT_RATE:-100}" "${CHECKPOINT_SECONDS:-60}" "${CHECKPOINT_INTERVALS:-4}")
  local -a flags=()
  $dry || read -r -a flags <<< "$(sed -n 's/^jvm\.flags=//p' bench/target/classes/io/bloomstore/bench/bench-jvm.properties)"
  $dry || mkdir -p "$scratch"
  dev=$($dry && echo vda || basename "$(df --output=source "$scratch" | tail -1)")
  for mode in sync checkpoint; do
    filter=$([[ $mode == sync ]] && echo "$scratch/mapped.bloom" || echo "$live")
    run rm -f "$filter" "$scratch/copy.bloom"
    run bin/bloomstore create "$filter" --cells $cells --hashes 7
    $dry || sync
    run "$java" "${flags[@]}" -cp "$jar" io.bloomstore.bench.macro.LiveWriteback $mode "$filter" "$scratch/copy.bloom" \
      "${args[@]}" "$dev" | grep '^RESULT' | sed "s/\$/ load=$(cut -d' ' -f1 /proc/loadavg)/" | tee -a "$d/paced.txt"
  done
  run rm -rf "$scratch" "$live"
}

startup() { # dir. A one-key query from the shell, start-up included, against `java -version` of the
  # same JVM: STARTUP_ROUNDS (40) rounds, one command after the other, so a drift hits both alike
  local d=$1 filter=${BLOOMSTORE_BENCH_DIR:-/tmp/bloomstore-bench}/fixtures/startup-1000.bloom i
  local -a j=() q=()
  if $dry; then
    run bin/bloomstore create "$filter" --expected 1000 --fpp 0.01
    echo "# then STARTUP_ROUNDS=${STARTUP_ROUNDS:-40} rounds of:"
    run "$java" -version
    run bin/bloomstore contains "$filter" k1
    return
  fi
  mkdir -p "$(dirname "$filter")"
  [[ -f $filter ]] || bin/bloomstore create "$filter" --expected 1000 --fpp 0.01 > /dev/null
  bin/bloomstore contains "$filter" k1 > /dev/null 2>&1 || true # the class-data archive, on first use
  for i in $(seq "${STARTUP_ROUNDS:-40}"); do
    j+=("$(seconds "$java" -version)")
    q+=("$(seconds absent bin/bloomstore contains "$filter" k1)")
  done
  {
    echo "# $(date -u +%FT%TZ), $(git rev-parse --short HEAD 2>/dev/null || echo '?'): ${#j[@]} interleaved rounds"
    printf '%s\n' "${j[@]}" | sort -n | awk '{ v[NR] = $1 } END { printf "java -version, median: %.1f ms\n", 1000 * (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
    printf '%s\n' "${q[@]}" | sort -n | awk '{ v[NR] = $1 } END { printf "bin/bloomstore contains (one absent key), median: %.1f ms\n", 1000 * (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
  } | tee -a "$d/startup.txt"
  tail -2 "$d/startup.txt" | awk '{ ms[NR] = $(NF - 1) } END { printf "contains / java -version: %.2f\n", ms[2] / ms[1] }' \
    | tee -a "$d/startup.txt"
}

segmented() { # dir. Each n in one run, so the three kinds' ratios are read within it
  local d=$1 n
  for n in 1000000 10000000; do
    jmh "$d" "segmented-n$((n / 1000000))m" 'SegmentedBenchmark' -p n=$n
  done
}

window() { # dir. A ring's query against the fixed filter's, beyond the caches: the latency chains ask one
  # key at a time, each chosen by the previous answer, so they show how long one query waits. The
  # ratios are read within a run, and the repetitions' medians, since this host drifts between runs
  local d=$1 n=${WINDOW_N:-64000000} rep layout
  for rep in $(seq "${WINDOW_REPS:-3}"); do
    for layout in ${WINDOW_LAYOUTS:-BLOCKED STANDARD}; do
      jmh "$d" "window-r$rep-n$((n / 1000000))m-${layout,,}" 'SegmentedBenchmark.mightContain(Absent|Present)(Latency)?$' \
        -p n=$n -p layout=$layout -p kind=FIXED,WINDOWED
    done
  done
}

layout_dedup() { # dir, name, the options of the file after --layout. What a dedup index pays for its file's
  # layout, whole processes, the layouts taking turns going first so that a drift of the shared host hits
  # both alike
  local d=$1 name=$2 dir=${BLOOMSTORE_BENCH_DIR:-/tmp/bloomstore-bench} lines=10000000 round layout i
  shift 2
  local keys=$dir/fixtures/keys-$lines.txt file=$dir/scratch/$name.bloom
  local tsv=$d/$name.tsv
  run "$java" -cp "$jar" io.bloomstore.bench.macro.MacroTask key-file "$keys" "$lines"
  $dry || { mkdir -p "$(dirname "$file")"; cat "$keys" > /dev/null; printf 'label\tround\twall\tcpu\tload1\n' >> "$tsv"; }
  local -a layouts
  read -r -a layouts <<< "${DEDUP_LAYOUTS:-standard blocked}"
  for round in $(seq "${DEDUP_ROUNDS:-4}"); do
    for i in "${!layouts[@]}"; do # round r starts with layout r - 1 (mod their number)
      layout=${layouts[$(( (i + round - 1) % ${#layouts[@]} ))]}
      run rm -f "$file"
      timed "$tsv" "$layout	$round" bin/bloomstore dedup "$file" --layout "$layout" "$@" --from "$keys"
    done
    run rm -f "$file"
    timed "$tsv" "fixed	$round" bin/bloomstore dedup "$file" --expected $lines "${@:3:2}" --from "$keys"
  done
  $dry || rm -f "$file"
}

mode() { # mode, dir
  $dry || mkdir -p "$2"
  case $1 in
    micro) micro "$2" ;;
    paired) paired "$2" ;;
    paired-n200m) paired_n200m "$2" ;;
    macro) macro "$2" ;;
    build) build "$2" ;;
    programs) programs "$2" ;;
    writeback) writeback "$2" ;;
    checkpoint) checkpoint "$2" ;;
    startup) startup "$2" ;;
    peers) peers "$2" ;;
    segmented) segmented "$2" ;;
    window) window "$2" ;;
    window-dedup) layout_dedup "$2" window-dedup --expected 80M --fpp 0.01 --window 24h ;;
    grow-dedup) layout_dedup "$2" grow-dedup --expected 100k --fpp 0.001 --grow ;;
    *) usage ;;
  esac
}

case $what in
  micro | paired | paired-n200m | macro | build | programs | writeback | checkpoint | startup | peers | segmented \
    | window | window-dedup | grow-dedup | all) ;;
  -h | --help) usage 0 ;;
  *) usage ;;
esac
$dry || [[ -f $jar ]] || { echo "no $jar: mvn -B -pl bench -am package -DskipTests" >&2; exit 2; }
if [[ $what == all ]]; then
  for m in micro paired paired-n200m macro build programs writeback checkpoint startup peers segmented window \
    window-dedup grow-dedup; do
    mode "$m" "$results/$m"
  done
else
  mode "$what" "$results"
fi
