#!/usr/bin/env python3
"""CPU ns per call (CpuTimeProfiler's cpuNanosPerOp) from jmh/{before,after}-[BYTES16-]nN-rR.csv: for each n and
call, bloomstore's two layouts before and after in each round, their ratio after/before (median over the
rounds), and every peer's CPU in the after runs (median over the rounds); markdown on stdout."""
import csv, glob, os, re, statistics, sys

here = os.path.join(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)), "jmh")
runs = {}  # (side, (key type, n), round) -> {(call, impl): cpu ns}
for path in glob.glob(os.path.join(here, "*.csv")):
    side, key, n, r = re.match(r"(before|after)-(?:(BYTES16)-)?n(\d+)-r(\d+)\.csv", os.path.basename(path)).groups()
    n = (key or "LONG", int(n))
    cells = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            if row["Benchmark"].endswith(":cpuNanosPerOp"):
                cells[(row["Benchmark"].split(".")[-1].split(":")[0], row["Param: impl"])] = float(row["Score"])
    runs[(side, n, int(r))] = cells
peers = ["GUAVA", "DATASKETCHES", "FASTFILTER_BLOOM", "FASTFILTER_BLOCKED", "COMMONS", "SPARK"]
calls = ["add", "mightContainPresent", "mightContainAbsent"]
for n in sorted({k[1] for k in runs}):
    rounds = sorted({k[2] for k in runs if k[1] == n and ("before", n, k[2]) in runs and ("after", n, k[2]) in runs})
    print(f"\nn = {n[1]:,}, {n[0]} keys, CPU ns per call (rounds {', '.join(map(str, rounds))})\n")
    print("| call | layout | before | after | after / before (median) | " + " | ".join(peers) + " (after runs, median) |")
    print("| --- | --- | --- | --- | --- |" + " --- |" * len(peers))
    for call in calls:
        for layout in ["STANDARD", "BLOCKED"]:
            b = [runs[("before", n, r)][(call, layout)] for r in rounds]
            a = [runs[("after", n, r)][(call, layout)] for r in rounds]
            ratio = statistics.median(x / y for x, y in zip(a, b))
            peer = [f"{statistics.median(runs[('after', n, r)][(call, p)] for r in rounds):.0f}" for p in peers]
            print(f"| `{call}` | {layout.lower()} | {', '.join(f'{x:.0f}' for x in b)} | {', '.join(f'{x:.0f}' for x in a)} "
                  f"| **{ratio:.2f}** | " + " | ".join(peer) + " |")
