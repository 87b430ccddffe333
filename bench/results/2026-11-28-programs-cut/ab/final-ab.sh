#!/usr/bin/env bash
cd /tmp/procs
K3=/tmp/bloomstore-bench/fixtures/keys-3000000.txt; K10=/tmp/bloomstore-bench/fixtures/keys-10000000.txt
O=/tmp/procs/final2.tsv
/tmp/procs/base/bin/bloomstore build /tmp/procs/q3.bloom --from $K3 --expected 3000000 --fpp 0.01 --layout standard --force >/dev/null 2>&1
/tmp/procs/base/bin/bloomstore build /tmp/procs/q10.bloom --from $K10 --expected 10000000 --fpp 0.01 --layout standard --force >/dev/null 2>&1
./ab.sh "build 3M standard" 7 $O -- build /tmp/procs/ab3.bloom --from $K3 --expected 3000000 --fpp 0.01 --layout standard --force
./ab.sh "contains --from 3M" 7 $O -- contains /tmp/procs/q3.bloom --from $K3
./ab.sh "build 10M standard" 5 $O -- build /tmp/procs/ab10.bloom --from $K10 --expected 10000000 --fpp 0.01 --layout standard --force
./ab.sh "contains --from 10M" 5 $O -- contains /tmp/procs/q10.bloom --from $K10
./ab.sh "build 3M sectorized" 5 $O -- build /tmp/procs/ab3s.bloom --from $K3 --expected 3000000 --fpp 0.01 --layout sectorized --force
./ab2.sh "dedup 3M" 5 $O "rm -f /tmp/procs/dd.bloom; /tmp/procs/base/bin/bloomstore dedup /tmp/procs/dd.bloom --expected 3000000 --fpp 0.01 --layout standard --from $K3" "rm -f /tmp/procs/dd.bloom; /tmp/procs/new/bin/bloomstore dedup /tmp/procs/dd.bloom --expected 3000000 --fpp 0.01 --layout standard --from $K3"
echo done
