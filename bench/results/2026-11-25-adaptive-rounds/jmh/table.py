#!/usr/bin/env python3
"""ops/µs of each jar and rep, and adaptive / before per rep (throughput: above 1 is faster), all runs here."""
import csv, glob, os, re, statistics
from collections import defaultdict

here = os.path.dirname(os.path.abspath(__file__))
score = defaultdict(dict)  # (call, impl) -> {(prefix, rep, jar): ops/us}
for path in glob.glob(os.path.join(here, "*-r*.csv")):
    prefix, jar, rep = re.match(r"(.+)-(before|adaptive)-r(\d+)\.csv", os.path.basename(path)).groups()
    for row in csv.DictReader(open(path)):
        if row["Unit"] == "ops/us":
            call = row["Benchmark"].rsplit(".", 1)[1]
            score[(call, row["Param: impl"])][(prefix, int(rep), jar)] = float(row["Score"])
print("| call | layout | before, ops/µs | after | after / before, per rep | median |")
print("| --- | --- | --- | --- | --- | --- |")
for (call, impl), s in sorted(score.items(), key=lambda kv: (kv[0][1] != "STANDARD", kv[0][0])):
    pairs = sorted({(p, r) for p, r, _ in s if (p, r, "before") in s and (p, r, "adaptive") in s})
    b = [s[(p, r, "before")] for p, r in pairs]
    a = [s[(p, r, "adaptive")] for p, r in pairs]
    ratios = [x / y for x, y in zip(a, b)]
    print(f"| `{call}` | {impl.lower()} | {', '.join(f'{x:.2f}' for x in b)} | {', '.join(f'{x:.2f}' for x in a)} | "
          f"{', '.join(f'{r:.2f}' for r in ratios)} | **{statistics.median(ratios):.2f}** |")
