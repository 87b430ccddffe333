#!/usr/bin/env python3
"""Medians and ranges of InterleaveLatency's rounds, ns per key, per layout, variant and key set."""
import glob, os, re, statistics

here = os.path.dirname(os.path.abspath(__file__))
for layout in ("standard", "blocked"):
    rows = {}
    for log in sorted(glob.glob(os.path.join(here, layout + "-*.log"))):
        for line in open(log):
            for cell in line.split("|"):
                m = re.match(r"\s*(\S+) ([AP])\s+(\d+) \(\d+\)", cell)
                if m:
                    rows.setdefault((m.group(1), m.group(2)), []).append(int(m.group(3)))
    print(f"\n{layout}: ns per key, all rounds of all runs\n")
    print("| variant | absent: median (range) | present: median (range) | rounds |")
    print("| --- | --- | --- | --- |")
    for name in dict.fromkeys(k[0] for k in rows):
        cells = []
        for kind in "AP":
            v = rows[(name, kind)]
            cells.append(f"{statistics.median(v):.0f} ({min(v)} to {max(v)})")
        print(f"| {name} | {cells[0]} | {cells[1]} | {len(rows[(name, 'A')])} |")

# Ratios within a round (one line of a log holds one round of every variant).
PAIRS = {"standard": [("ilv-loadall", "prod"), ("ilv-loadall", "fixed"), ("prod", "fixed")],
         "blocked": [("ilv-lean", "v2-lean"), ("ilv-floorR", "v2-floorR"), ("prod", "fixed")]}
for layout, pairs in PAIRS.items():
    ratios = {}
    for log in sorted(glob.glob(os.path.join(here, layout + "-*.log"))):
        for line in open(log):
            got = {(m.group(1), m.group(2)): int(m.group(3))
                   for m in re.finditer(r"(\S+) ([AP])\s+(\d+) \(\d+\)", line)}
            for a, b in pairs:
                for kind in "AP":
                    if (a, kind) in got:
                        ratios.setdefault((a, b, kind), []).append(got[(a, kind)] / got[(b, kind)])
    print(f"\n{layout}: ratios within a round, median (range)\n")
    print("| ratio | absent | present |")
    print("| --- | --- | --- |")
    for a, b in pairs:
        cells = [f"{statistics.median(r):.2f} ({min(r):.2f} to {max(r):.2f})" for r in (ratios[(a, b, k)] for k in "AP")]
        print(f"| {a} / {b} | {cells[0]} | {cells[1]} |")
