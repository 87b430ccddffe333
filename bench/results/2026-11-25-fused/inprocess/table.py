#!/usr/bin/env python3
"""From out/: per n, layout and call, the library's loop ("lib") in ns per call, median over the rounds
printed, before and after, and each over the hand-written fused loop of the same run (the yardstick);
markdown on stdout."""
import glob, os, re, statistics, sys
out = os.path.join(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)), "out")
def med(xs): return statistics.median(xs)
rows = []
for n in (1000000, 10000000):
    for layout in ("STANDARD", "BLOCKED"):
        for call in ("present", "absent", "add"):
            cells = []
            for side in ("before", "after"):
                path = os.path.join(out, f"{'adds' if call == 'add' else 'queries'}-{side}-n{n}-{layout}.txt")
                lib, fused = [], []
                for line in open(path):
                    if not line.startswith("round"): continue
                    if call == "add":
                        vals = dict(re.findall(r"(lib|fused) ([\d.]+)", line))
                    else:
                        vals = dict(re.findall(rf"{call}/(lib|fused-volatile) ([\d.]+)", line))
                        vals["fused"] = vals.pop("fused-volatile")
                    lib.append(float(vals["lib"])); fused.append(float(vals["fused"]))
                cells.append((med(lib), med(l / f for l, f in zip(lib, fused)), len(lib)))
            (bl, br, r1), (al, ar, r2) = cells
            rows.append(f"| {n:,} | {layout.lower()} | {call} | {bl:.1f} | {al:.1f} | **{al / bl:.2f}** | {br:.2f} | {ar:.2f} | {r1}, {r2} |")
print("| n | layout | call | lib before, ns | lib after, ns | after / before | before / fused loop | after / fused loop | rounds |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
print("\n".join(rows))
