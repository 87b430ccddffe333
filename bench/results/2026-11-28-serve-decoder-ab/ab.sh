#!/usr/bin/env bash
# A/B of the request decoder and the transport, each command on every server back to back:
#   main   = the jar built from main at 1aaaf22 (netty-codec-redis's decoder + RequestAssembler, NIO)
#   nio    = this branch's jar, its own RequestDecoder, -Dio.netty.transport.noNative=true
#   epoll  = this branch's jar, its own RequestDecoder, epoll
#   redisbloom = Redis 7 + RedisBloom 2.4.23 (../shared/peers/redisbloom/start.sh)
# usage: ab.sh OLD_JAR NEW_JAR PEERS REPS
set -euo pipefail
OLD=$1; NEW=$2; PEERS=$3; REPS=${4:-3}
N=${N:-200000}; N1=${N1:-50000}; C=${C:-50}; R=${R:-100000000}
WORK=$(mktemp -d -t serve-ab-XXXXXX)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; sleep 2; rm -rf "$WORK"; }
trap cleanup EXIT
declare -A PORT SPID
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; } # the server's user + system CPU, in clock ticks
for s in main nio epoll; do mkdir -p "$WORK/$s"; PORT[$s]=$(free_port); done
java -jar "$OLD" serve "$WORK/main" --port "${PORT[main]}" >"$WORK/main.log" 2>&1 & PIDS+=($!); SPID[main]=$!
java -Dio.netty.transport.noNative=true -jar "$NEW" serve "$WORK/nio" --port "${PORT[nio]}" >"$WORK/nio.log" 2>&1 & PIDS+=($!); SPID[nio]=$!
java -jar "$NEW" serve "$WORK/epoll" --port "${PORT[epoll]}" >"$WORK/epoll.log" 2>&1 & PIDS+=($!); SPID[epoll]=$!
PORT[redisbloom]=$(free_port)
SPID[redisbloom]=$(LOGDIR=$WORK "$PEERS/start.sh" "${PORT[redisbloom]}"); PIDS+=("${SPID[redisbloom]}")
for s in main nio epoll redisbloom; do
    for _ in $(seq 1 120); do redis-cli -p "${PORT[$s]}" PING >/dev/null 2>&1 && break; sleep 0.5; done
done
cat "$WORK"/nio.log "$WORK"/epoll.log
for s in main nio epoll; do # JIT warm-up, not recorded
    redis-cli -p "${PORT[$s]}" BF.RESERVE bench 0.01 10000000 >/dev/null
    redis-benchmark -p "${PORT[$s]}" -n "$N" -r "$R" -P 16 -c "$C" -q BF.ADD bench __rand_int__ >/dev/null 2>&1
    redis-benchmark -p "${PORT[$s]}" -n "$N" -r "$R" -P 16 -c "$C" -q BF.EXISTS bench __rand_int__ >/dev/null 2>&1
done
redis-cli -p "${PORT[redisbloom]}" BF.RESERVE bench 0.01 10000000 >/dev/null
echo "rep,test,P,server,rps,p50_ms,p99_ms,server_cpu_us_per_request"
TICK_US=$(( 1000000 / $(getconf CLK_TCK) ))
for rep in $(seq 1 "$REPS"); do
    echo "# rep $rep load: $(cut -d' ' -f1-3 /proc/loadavg)"
    for p in 16 1; do
        if [ "$p" = 16 ]; then n=$N; else n=$N1; fi
        for cmd in BF.ADD BF.EXISTS; do
            for s in main nio epoll redisbloom; do
                before=$(cpu "${SPID[$s]}")
                row=$(redis-benchmark -p "${PORT[$s]}" -n "$n" -r "$R" -P "$p" -c "$C" --csv "$cmd" bench __rand_int__ 2>/dev/null | tail -1 | tr -d '"')
                IFS=, read -r _ rps _ _ p50 _ p99 _ <<<"$row"
                used=$(( ($(cpu "${SPID[$s]}") - before) * TICK_US ))
                echo "$rep,$cmd,$p,$s,$rps,$p50,$p99,$(python3 -c "print(round($used / $n, 2))")"
            done
        done
    done
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
