# Sourced by run.sh, run2.sh and run3.sh: jmh SIDE NAME ARGS... runs the benchmarks jar of /tmp/fs-SIDE with
# ARGS, 1 fork, 3 + 5 iterations of 0.5 s, CPU time per op, into $out/SIDE-NAME.{csv,log}, and notes the load
# average at its start and end in $out/conditions.txt.
ops='(AddBenchmark.add|MightContainBenchmark.mightContain(Present|Absent))'
jmh() {
  local side=$1 name=$2; shift 2
  echo "$(date -u +%H:%M:%S) start $side $name $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/conditions.txt"
  java -Djmh.ignoreLock=true -jar /tmp/fs-$side/bench/target/benchmarks.jar "$@" \
    -f 1 -wi 3 -i 5 -w 500ms -r 500ms -prof io.bloomstore.bench.micro.CpuTimeProfiler \
    -rf csv -rff "$out/$side-$name.csv" > "$out/$side-$name.log" 2>&1
  echo "$(date -u +%H:%M:%S) end   $side $name $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/conditions.txt"
}
