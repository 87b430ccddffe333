#!/usr/bin/env python3
"""CPU and wall of the change over before's, per round, from times.txt."""
import os, statistics
from collections import defaultdict
here = os.path.dirname(os.path.abspath(__file__))
runs = defaultdict(dict)
for line in open(os.path.join(here, "times.txt")):
    f = line.split()
    if len(f) == 6 and f[0].isdigit():
        runs[(f[1], int(f[0]))][f[2]] = (float(f[3]) + float(f[4]), float(f[5]))
for keys in ("absent", "present"):
    rounds = sorted(r for k, r in runs if k == keys)
    cpu = [runs[(keys, r)]["adaptive"][0] / runs[(keys, r)]["before"][0] for r in rounds]
    wall = [runs[(keys, r)]["adaptive"][1] / runs[(keys, r)]["before"][1] for r in rounds]
    before = statistics.median(runs[(keys, r)]["before"][0] for r in rounds)
    print(f"{keys}: CPU after / before median {statistics.median(cpu):.2f} ({min(cpu):.2f} to {max(cpu):.2f}), "
          f"{sum(x < 1 for x in cpu)} of {len(cpu)} rounds lower; wall {statistics.median(wall):.2f}; before's CPU {before:.2f} s")
