#!/usr/bin/env python3
"""Every before/after pair of runs in this directory and rounds/, per key size and call: CPU ns per call of
each layout and of FastFilter's BlockedBloom and Commons, and Guava's CPU over the layout's in the same
run, before -> after, one entry per pair, then the median; markdown on stdout."""
import csv, glob, os, re, statistics

here = os.path.dirname(os.path.abspath(__file__))

def load(path):
    cells = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            if row["Benchmark"].endswith(":cpuNanosPerOp"):
                call = row["Benchmark"].split(".")[-1].split(":")[0]
                cells[(call, row["Param: impl"])] = float(row["Score"])
    return cells

pairs = {}  # spec -> list of (before, after)
for after_path in sorted(glob.glob(os.path.join(here, "after-*.csv")) + glob.glob(os.path.join(here, "rounds", "after-*.csv"))):
    before_path = after_path.replace("after-", "before-")
    name = os.path.basename(after_path)[len("after-"):-len(".csv")]
    m = re.search(r"n(\d+)m?-(LONG|BYTES16)", name)
    spec = ("1 M" if name.find("n1m") >= 0 or (m and m.group(1) == "1000000") else "10 M") + " " + (m.group(2) if m else "LONG")
    if os.path.exists(before_path):
        pairs.setdefault(spec, []).append((name, load(before_path), load(after_path)))

def fmt(xs):
    return ", ".join(f"{b:.2f} -> {a:.2f}" for b, a in xs)

for spec, runs in sorted(pairs.items()):
    print(f"\n{spec} keys: Guava's CPU per call over the layout's, before -> after, per pair "
          f"({', '.join(r[0] for r in runs)}); median last\n")
    print("| call | standard | median | blocked | median |")
    print("| --- | --- | --- | --- | --- |")
    calls = sorted({k[0] for _, _, a in runs for k in a})
    for call in calls:
        row = []
        for impl in ("STANDARD", "BLOCKED"):
            xs = [(b[(call, "GUAVA")] / b[(call, impl)], a[(call, "GUAVA")] / a[(call, impl)])
                  for _, b, a in runs if all((call, i) in d for d in (b, a) for i in ("GUAVA", impl))]
            med = f"{statistics.median(x[0] for x in xs):.2f} -> **{statistics.median(x[1] for x in xs):.2f}**" if xs else ""
            row += [fmt(xs), med]
        print(f"| `{call}` | " + " | ".join(row) + " |")
    print(f"\n{spec} keys: CPU ns per call after the change, median over the pairs' after runs, beside the peers "
          f"measured in the same runs\n")
    impls = ["GUAVA", "STANDARD", "BLOCKED", "DATASKETCHES", "FASTFILTER_BLOOM", "FASTFILTER_BLOCKED", "COMMONS", "SPARK"]
    present = [i for i in impls if any((c, i) in a for _, _, a in runs for c in calls)]
    print("| call | " + " | ".join(present) + " |")
    print("| --- |" + " --- |" * len(present))
    for call in calls:
        row = []
        for impl in present:
            xs = [a[(call, impl)] for _, _, a in runs if (call, impl) in a]
            row.append(f"{statistics.median(xs):.0f} ({len(xs)})" if xs else "")
        print(f"| `{call}` | " + " | ".join(row) + " |")
