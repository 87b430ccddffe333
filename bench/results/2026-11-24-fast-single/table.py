#!/usr/bin/env python3
"""CPU ns per call (CpuTimeProfiler's cpuNanosPerOp) from before-*.csv and after-*.csv in a directory
(the argument; this script's own by default): one table per invocation, a row per call, a column per impl
and side, then Guava's CPU over each layout's in the same run; markdown on stdout."""
import csv, glob, os, re, sys

here = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))

def load(path):
    cells = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            name = row["Benchmark"]
            if not name.endswith(":cpuNanosPerOp"):
                continue
            call = name.split(".")[-1].split(":")[0]
            cells[(call, row["Param: impl"])] = float(row["Score"])
    return cells

order = ["GUAVA", "STANDARD", "BLOCKED", "DATASKETCHES", "FASTFILTER_BLOOM", "FASTFILTER_BLOCKED", "COMMONS", "SPARK"]
for after_path in sorted(glob.glob(os.path.join(here, "after-*.csv"))):
    name = os.path.basename(after_path)[len("after-"):-len(".csv")]
    before_path = os.path.join(here, "before-" + name + ".csv")
    if not os.path.exists(before_path):
        continue
    before, after = load(before_path), load(after_path)
    impls = [i for i in order if any(k[1] == i for k in after)]
    calls = sorted({k[0] for k in after}, key=lambda c: (c.replace("Batch", "~"), c))
    print(f"\n{name} (CPU ns per call; before / after)\n")
    print("| call | " + " | ".join(impls) + " |")
    print("| --- |" + " --- |" * len(impls))
    for call in calls:
        out = []
        for impl in impls:
            b, a = before.get((call, impl)), after.get((call, impl))
            text = lambda x: "-" if x is None else f"{x:.0f}"
            if b is None and a is None:
                out.append("")
            elif impl in ("STANDARD", "BLOCKED"):
                out.append(f"{text(b)} / **{text(a)}**")
            else:
                out.append(f"{text(b)} / {text(a)}")
        print(f"| `{call}` | " + " | ".join(out) + " |")
    # ratios to Guava within each run (CPU per call: Guava's / bloomstore's; > 1 means bloomstore is cheaper)
    if any(k[1] == "GUAVA" for k in after):
        print(f"\nratio Guava / bloomstore, same run (before -> after)\n")
        print("| call | STANDARD | BLOCKED |")
        print("| --- | --- | --- |")
        for call in calls:
            row = []
            for impl in ("STANDARD", "BLOCKED"):
                gb, ga = before.get((call, "GUAVA")), after.get((call, "GUAVA"))
                b, a = before.get((call, impl)), after.get((call, impl))
                row.append(f"{gb / b:.2f} -> {ga / a:.2f}" if None not in (gb, ga, b, a) else "")
            print(f"| `{call}` | " + " | ".join(row) + " |")
