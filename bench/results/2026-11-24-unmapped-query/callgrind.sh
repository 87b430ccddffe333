#!/usr/bin/env bash
# usage: callgrind.sh ROOT FILTER [KEY...]  -- instructions (user space, all threads) of the java command
# ROOT/bin/bloomstore execs for 'contains FILTER KEY...' (JDK 17, its CDS archive), and of java -version.
root=$1; filter=$2; shift 2
jsa=$(ls "$root"/store-cli/target/bloomstore-*.jsa | head -1)
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | grep -o 'Collected : [0-9]*'; }
echo "java -version: $(count java -version)"
echo "contains: $(count java -XX:-UsePerfData -Dchronicle.analytics.disable=true -XX:TieredStopAtLevel=1 \
  -XX:CICompilerCount=1 -XX:SharedArchiveFile="$jsa" -Xlog:cds=off -jar "$root/store-cli/target/bloomstore.jar" \
  contains "$filter" "${@:-k}")"
