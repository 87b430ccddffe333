#!/usr/bin/env bash
# A/B of batch adds at 200 M, one thread against two, alternating two jars pair by pair:
#   before.jar: bench/target/benchmarks.jar built at 740ab8c;  after.jar: built at the change.
#   bench/results/2026-11-23-two-thread-ab/run.sh before.jar after.jar
set -u
out=$(dirname "$0")
before=$1 after=$2
for pair in 1 2 3 4 5 6; do
  for side in before-740ab8c after; do
    jar=$before; [[ $side == after ]] && jar=$after
    mkdir -p "$out/$side/pair-$pair"
    for t in 1 2; do
      java -jar "$jar" 'AddBenchmark.addBatch$' -t $t -p n=200000000 -p keyType=LONG -p impl=STANDARD,BLOCKED \
        -wi 2 -i 4 -rf csv -rff "$out/$side/pair-$pair/add-batch-${t}t.csv" > "$out/$side/pair-$pair/add-batch-${t}t.log" 2>&1
    done
  done
done
for side in before-740ab8c after; do
  echo "== $side"; java -cp "$after" io.bloomstore.bench.report.PairedRatios "$out/$side"
done
