#!/usr/bin/env python3
"""Medians of BatchAB's per-round ratios (time of the second jar over the first's: below 1 is faster)."""
import os, re, statistics
here = os.path.dirname(os.path.abspath(__file__))
print("| layout | keys | after / before, time (median of 12 rounds) | range |")
print("| --- | --- | --- | --- |")
for layout in ("standard", "blocked"):
    ratios = {}
    for line in open(os.path.join(here, f"ab-{layout}.txt")):
        for m in re.finditer(r"(\w+) before\.jar [\d.]+ adaptive\.jar [\d.]+ ratio ([\d.]+)", line):
            ratios.setdefault(m.group(1), []).append(float(m.group(2)))
    for keys, r in ratios.items():
        print(f"| {layout} | {keys} | **{statistics.median(r):.2f}** | {min(r):.2f} to {max(r):.2f} |")
