#!/usr/bin/env bash
# bloomstore serve beside Redis 7 + RedisBloom 2.4.23 and Redis's own SETBIT/GETBIT, in one run,
# each BF command on bloomstore and at once on RedisBloom (a loaded host's load drifts within a run),
# with the same redis-benchmark command lines (those of ../shared/peers/redisbloom/bench.sh), p50
# and p99 from redis-benchmark's CSV, and each server's own CPU time per request (user + system, from
# /proc: on a loaded host it moves far less than req/s, which follows the host's load); then a one-key query through redis-cli against the warm
# server beside a one-key `bloomstore contains`.
#
#   bench/serve-bench.sh [OUT_DIR]        (needs store-cli/target/bloomstore.jar: mvn -DskipTests package)
#
# Environment: PEERS (../shared/peers/redisbloom beside the repository's folder), N (requests of a
# -P 16 run, 400000), N1 (of a -P 1 run, 100000), C (clients, 50), R (-r keyspace, 100000000),
# CAP (BF.RESERVE capacity, 10000000), REPS (1), QUERIES (one-key queries timed, 50).
# Ports: three free ones picked at start. Everything it starts it stops (trap).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
PEERS=${PEERS:-$(dirname "$ROOT")/shared/peers/redisbloom}
[ -d "$PEERS" ] || PEERS=/work/shared/peers/redisbloom
N=${N:-400000}
N1=${N1:-100000}
C=${C:-50}
R=${R:-100000000}
CAP=${CAP:-10000000}
REPS=${REPS:-1}
QUERIES=${QUERIES:-50}
OUT=${1:-$(mktemp -d -t serve-bench-XXXXXX)}
mkdir -p "$OUT"
WORK=$(mktemp -d -t serve-bench-work-XXXXXX)

for tool in redis-benchmark redis-cli redis-server; do
    command -v "$tool" >/dev/null || { echo "serve-bench: $tool not found (apt-get install redis-server redis-tools)" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "serve-bench: /usr/bin/time not found (apt-get install time)" >&2; exit 1; }
[ -f "$ROOT/store-cli/target/bloomstore.jar" ] || { echo "serve-bench: build the jar first: mvn -B -DskipTests package" >&2; exit 1; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PB=$(free_port); PR=$(free_port); PP=$(free_port)
PIDS=()
declare -A SPID # server name -> its pid, for its CPU time
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# every thread's context switches: each time a thread slept (an event loop waiting for work) or was preempted
ctx_switches() { cat "/proc/$1"/task/*/status 2>/dev/null | awk '/ctxt_switches/ {n += $2} END {print n + 0}'; }
TICK_US=$(( 1000000 / $(getconf CLK_TCK) ))
cleanup() { # the servers write their last log lines as they stop: the folder goes once they are gone
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do
        for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    done
    rm -rf "$WORK"
}
trap cleanup EXIT

mkdir -p "$WORK/data"
"$ROOT/bin/bloomstore" serve "$WORK/data" --port "$PB" >"$OUT/bloomstore-serve.log" 2>&1 &
SPID[bloomstore]=$!
SPID[redisbloom]=$(LOGDIR=$WORK "$PEERS/start.sh" "$PR")
SPID[redis]=$(MODULE=none LOGDIR=$WORK "$PEERS/start.sh" "$PP")
PIDS+=("${SPID[bloomstore]}" "${SPID[redisbloom]}" "${SPID[redis]}")
for _ in $(seq 1 120); do redis-cli -p "$PB" PING >/dev/null 2>&1 && break; sleep 0.5; done

R10="__rand_int__ __rand_int__ __rand_int__ __rand_int__ __rand_int__ __rand_int__ __rand_int__ __rand_int__ __rand_int__ __rand_int__"
# one CSV row per run: server,label,P,n,rps,avg,min,p50,p95,p99,max,cpu_us (the server's CPU per
# request), then the server's and redis-benchmark's context switches per request (how often each
# slept waiting for the other: a wakeup costs both sides kernel time)
bench() { # server port label pipeline requests command...
    local server=$1 port=$2 label=$3 p=$4 n=$5
    shift 5
    local row before switches client
    before=$(cpu_ticks "${SPID[$server]}")
    switches=$(ctx_switches "${SPID[$server]}")
    row=$(/usr/bin/time -f "%w %c" -o "$WORK/client-switches" \
        redis-benchmark -p "$port" -n "$n" -r "$R" -P "$p" -c "$C" --csv "$@" 2>/dev/null | tail -1 | tr -d '"')
    local used=$(( ($(cpu_ticks "${SPID[$server]}") - before) * TICK_US ))
    switches=$(( $(ctx_switches "${SPID[$server]}") - switches ))
    client=$(awk '{print $1 + $2}' "$WORK/client-switches")
    echo "$server,$label,$p,$n,${row#*,},$(python3 -c "print(round($used / $n, 2), round($switches / $n, 3), round($client / $n, 3), sep=',')")" \
        | tee -a "$WORK/rows.csv"
}
reserve() { redis-cli -p "$1" DEL bench >/dev/null; redis-cli -p "$1" BF.RESERVE bench 0.01 "$CAP" >/dev/null; }
both() { # label pipeline requests command...: on bloomstore, then at once on RedisBloom, so both see the same load
    bench bloomstore "$PB" "$@"
    bench redisbloom "$PR" "$@"
}
bf_suite() {
    local p n
    for p in 16 1; do
        if [ "$p" = 16 ]; then n=$N; else n=$N1; fi
        reserve "$PB"; reserve "$PR"
        both BF.ADD "$p" "$n" BF.ADD bench __rand_int__
        both BF.EXISTS "$p" "$n" BF.EXISTS bench __rand_int__
        reserve "$PB"; reserve "$PR"
        # shellcheck disable=SC2086
        both "BF.MADD(10)" "$p" "$n" BF.MADD bench $R10
        # shellcheck disable=SC2086
        both "BF.MEXISTS(10)" "$p" "$n" BF.MEXISTS bench $R10
    done
    redis-cli -p "$PB" DEL bench >/dev/null
    redis-cli -p "$PR" DEL bench >/dev/null
}
bitmap_suite() { # server port (a fixed offset: redis-benchmark's zero-padded __rand_int__ is no bit offset)
    local p n
    for p in 16 1; do
        if [ "$p" = 16 ]; then n=$N; else n=$N1; fi
        redis-cli -p "$2" DEL bits >/dev/null
        redis-cli -p "$2" SETBIT bits 95850624 0 >/dev/null
        bench "$1" "$2" SETBIT "$p" "$n" SETBIT bits 95850624 1
        bench "$1" "$2" GETBIT "$p" "$n" GETBIT bits 95850624
    done
    bench "$1" "$2" PING 16 "$N" PING
}

{
    echo "# serve-bench $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "# $(java -version 2>&1 | head -1); $(redis-server --version | cut -d' ' -f1-3); RedisBloom $(cat "$PEERS/VERSION" | head -1)"
    echo "# redis-benchmark -c $C -r $R, -P 16 runs -n $N, -P 1 runs -n $N1; BF.RESERVE bench 0.01 $CAP (scaling) before each pair"
    # warm-up of the JVM's compiler, not recorded
    reserve "$PB"
    redis-benchmark -p "$PB" -n "$N" -r "$R" -P 16 -c "$C" -q BF.ADD bench __rand_int__ >/dev/null 2>&1
    # shellcheck disable=SC2086
    redis-benchmark -p "$PB" -n "$N" -r "$R" -P 16 -c "$C" -q BF.MEXISTS bench $R10 >/dev/null 2>&1
    echo "server,test,P,n,rps,avg_ms,min_ms,p50_ms,p95_ms,p99_ms,max_ms,cpu_us_per_request,server_switches_per_request,client_switches_per_request"
    for rep in $(seq 1 "$REPS"); do
        echo "# rep $rep load: $(cut -d' ' -f1-3 /proc/loadavg)"
        bf_suite
        bitmap_suite redis "$PP"
    done
    echo "# bloomstore / RedisBloom req/s, each rep's pair run back to back; then the servers' CPU per request, RedisBloom / bloomstore"
    python3 - "$WORK/rows.csv" <<'RATIOS'
import sys, collections
rps, cpu = {}, {}
for line in open(sys.argv[1]):
    fields = line.strip().split(",")
    server, label, p = fields[:3]
    rps.setdefault((label, p), collections.defaultdict(list))[server].append(float(fields[4]))
    cpu.setdefault((label, p), collections.defaultdict(list))[server].append(float(fields[11]))
for (label, p), by in rps.items():
    if "bloomstore" in by and "redisbloom" in by:
        ratios = [b / r for b, r in zip(by["bloomstore"], by["redisbloom"])]
        print(f"ratio,{label},{p}," + ",".join(f"{x:.2f}" for x in ratios))
for (label, p), by in cpu.items():
    if "bloomstore" in by and "redisbloom" in by:
        ratios = [r / b if b else float("nan") for b, r in zip(by["bloomstore"], by["redisbloom"])]
        print(f"cpu_ratio,{label},{p}," + ",".join(f"{x:.2f}" for x in ratios))
RATIOS
    echo "# one-key query: $QUERIES runs each, wall time of the whole loop"
    redis-cli -p "$PB" BF.ADD one k >/dev/null
    start=$(date +%s%N)
    for _ in $(seq 1 "$QUERIES"); do redis-cli -p "$PB" BF.EXISTS one k >/dev/null; done
    cli_ns=$(( $(date +%s%N) - start ))
    start=$(date +%s%N)
    for _ in $(seq 1 "$QUERIES"); do "$ROOT/bin/bloomstore" contains "$WORK/data/one.bloom" k >/dev/null; done
    contains_ns=$(( $(date +%s%N) - start ))
    echo "one-key redis-cli BF.EXISTS (served): $(( cli_ns / QUERIES / 1000 )) us per query"
    echo "one-key bloomstore contains: $(( contains_ns / QUERIES / 1000 )) us per query"
    echo "ratio served/contains: $(python3 -c "print(round($cli_ns/$contains_ns, 3))")"
    echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$OUT/serve-bench.csv"
