#!/usr/bin/env bash
# 40 interleaved rounds of: java -version, the launcher of the checkout $BEFORE (built with
# mvn -o -pl store-cli -am package -DskipTests), this one; medians in ms. Needs /tmp/x/s.bloom:
#   bin/bloomstore create /tmp/x/s.bloom --expected 1000 --fpp 0.01
cd "$(dirname "$0")/../../.."   # the repository root
BEFORE=${BEFORE:?set BEFORE to a checkout of the commit to compare with}
declare -a a b c
t() { local s=$(date +%s%N); "$@" >/dev/null 2>&1; echo $(( ($(date +%s%N) - s) / 1000 )); }
for i in $(seq 40); do
  a+=($(t java -version)); b+=($(t "$BEFORE"/bin/bloomstore contains /tmp/x/s.bloom k1)); c+=($(t bin/bloomstore contains /tmp/x/s.bloom k1))
done
med() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {printf "%.1f", (v[int((NR+1)/2)] + v[int(NR/2)+1]) / 2000}'; }
ma=$(med "${a[@]}"); mb=$(med "${b[@]}"); mc=$(med "${c[@]}")
echo "medians: java -version $ma ms, before $mb ms, after $mc ms; before/java $(echo "scale=2; $mb/$ma" | bc), after/java $(echo "scale=2; $mc/$ma" | bc)"
