#!/usr/bin/env bash
# usage: cli-startup.sh BEFORE_ROOT AFTER_ROOT FILTER [N]
# N interleaved rounds (default 30) of: java -version, BEFORE_ROOT/bin/bloomstore contains FILTER k, the same
# with AFTER_ROOT; prints medians of wall time and of user+sys CPU (bash's time, ms resolution).
before=$1; after=$2; filter=$3; n=${4:-30}; TIMEFORMAT='%3R %3U %3S'
run() { local t; t=$( { time "$@" >/dev/null 2>&1; } 2>&1 ); echo "$t"; }
jw=(); jc=(); bw=(); bc=(); aw=(); ac=()
for i in $(seq "$n"); do
  read -r r u s <<<"$(run java -version)"; jw+=("$r"); jc+=("$(echo "$u+$s" | bc)")
  read -r r u s <<<"$(run "$before/bin/bloomstore" contains "$filter" k)"; bw+=("$r"); bc+=("$(echo "$u+$s" | bc)")
  read -r r u s <<<"$(run "$after/bin/bloomstore" contains "$filter" k)"; aw+=("$r"); ac+=("$(echo "$u+$s" | bc)")
done
med() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
mj=$(med "${jw[@]}"); mb=$(med "${bw[@]}"); ma=$(med "${aw[@]}")
echo "n=$n wall: java -version $mj s; before $mb s ($(echo "$mb/$mj" | bc -l | cut -c1-4)x); after $ma s ($(echo "$ma/$mj" | bc -l | cut -c1-4)x)"
echo "      cpu: java -version $(med "${jc[@]}") s; before $(med "${bc[@]}") s; after $(med "${ac[@]}") s; load $(cut -d' ' -f1 /proc/loadavg)"
