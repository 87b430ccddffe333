#!/usr/bin/env python3
"""CPU ns per key of each jar and rep, and after / before per rep (above 1 costs more): table.py [DIR [AFTER]]."""
import csv, glob, os, re, sys
from collections import defaultdict
here = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
after = sys.argv[2] if len(sys.argv) > 2 else "lockbatch"
cpu = defaultdict(dict)
for path in glob.glob(os.path.join(here, "*-r*-n*.csv")):
    jar, rep, layout = re.match(r"(\w+)-r(\d+)-n\d+m-(\w+)\.csv", os.path.basename(path)).groups()
    for row in csv.DictReader(open(path)):
        if row["Unit"] == "ns/op":
            cpu[(layout, row["Benchmark"].rsplit(".", 1)[1].split(":")[0])][(jar, int(rep))] = float(row["Score"])
print(f"| layout | call | before, CPU ns a key | {after} | {after} / before |")
print("| --- | --- | --- | --- | --- |")
for (layout, call), s in sorted(cpu.items()):
    reps = sorted(r for j, r in s if j == "before" and (after, r) in s)
    b = [s[("before", r)] for r in reps]
    a = [s[(after, r)] for r in reps]
    print(f"| {layout} | `{call}` | {', '.join(f'{x:.0f}' for x in b)} | {', '.join(f'{x:.0f}' for x in a)} | "
          f"{', '.join(f'{x / y:.2f}' for x, y in zip(a, b))} |")
