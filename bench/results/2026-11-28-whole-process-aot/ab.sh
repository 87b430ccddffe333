#!/usr/bin/env bash
# ab.sh RUNS OUT.tsv JOB VARIANT... : alternates variants, RUNS rounds; each row: job variant round user sys wall rss load1
set -u
runs=$1 out=$2 job=$3; shift 3
K=/tmp/aot-bench/fixtures/keys-3000000.txt S=/tmp/aot-bench/s W=/work/wt/aot
T=$W/store-cli/target
J17=/usr/lib/jvm/java-17-openjdk-amd64/bin/java J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
F="-XX:-UsePerfData -Dchronicle.analytics.disable=true"
F25="$F --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow"
case $job in
  create) args=(create $S/c.bloom --expected 1000 --fpp 0.01 --force); c1="-XX:TieredStopAtLevel=1 -XX:CICompilerCount=1";;
  one) args=(contains $S/cli.bloom e220a8397b1dcdaf); c1="-XX:TieredStopAtLevel=1 -XX:CICompilerCount=1";;
  build) args=(build $S/v.bloom --from $K --expected 3000000 --fpp 0.01 --force); c1="";;
  contains) args=(contains $S/cli.bloom --from $K); c1="";;
  dedup) args=(dedup $S/dedup.bloom --expected 3000000 --fpp 0.01 --from $K); c1="";;
esac
for r in $(seq $runs); do
  for v in "$@"; do
    [[ $job == dedup ]] && rm -f $S/dedup.bloom
    case $v in
      17cds) cmd=($J17 $F $c1 -XX:SharedArchiveFile=$T/bloomstore-17.0.15+6-Debian-1deb12u1.jsa -Xlog:cds=off -jar $T/bloomstore.jar);;
      25cds) cmd=($J25 $F25 $c1 -XX:SharedArchiveFile=$T/bloomstore-25.0.3+9-LTS.jsa -Xlog:cds=off -jar $T/bloomstore.jar);;
      25aot*) cmd=($J25 $F25 $c1 -XX:AOTCache=/tmp/aot-bench/${v#25aot}.aot -jar $T/bloomstore.jar);;
      launcher17) cmd=($W/bin/bloomstore);;
      jar17:*) cmd=($J17 $F $c1 -XX:SharedArchiveFile=${v#jar17:}.jsa -Xlog:cds=off -jar ${v#jar17:}.jar);;
    esac
    /usr/bin/time -o /tmp/aot-bench/t.$$ -f "%U %S %e %M" "${cmd[@]}" "${args[@]}" >/dev/null 2>/dev/null; t=$(tail -1 /tmp/aot-bench/t.$$)
    printf '%s\t%s\t%s\t%s\t%s\n' "$job" "$v" "$r" "$(tr ' ' '\t' <<<"$t")" "$(cut -d' ' -f1 /proc/loadavg)" >> "$out"
  done
done
