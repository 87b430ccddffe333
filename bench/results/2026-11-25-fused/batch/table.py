#!/usr/bin/env python3
"""Medians of BatchAB's per-round ratios in ab-*.txt, round 0 left out (the first pass over the
200 M fixture faults its pages in); markdown on stdout."""
import glob, os, re, statistics
here = os.path.dirname(os.path.abspath(__file__))
print("| layout | keys | after / before, time (median) | range | rounds |")
print("| --- | --- | --- | --- | --- |")
for f in sorted(glob.glob(os.path.join(here, "ab-*.txt"))):
    layout, ratios = os.path.basename(f)[3:-4], {}
    for line in open(f):
        if line.startswith("round 0 "):
            continue
        for keys, r in re.findall(r"(present|absent|mixed) before\.jar [\d.]+ after\.jar [\d.]+ ratio ([\d.]+)", line):
            ratios.setdefault(keys, []).append(float(r))
    for keys, v in ratios.items():
        print(f"| {layout} | {keys} | **{statistics.median(v):.2f}** | {min(v):.2f} to {max(v):.2f} | {len(v)} |")
