#!/usr/bin/env python3
"""usage: table.py DIR -- CPU ns/op of DIR/before-R.csv and DIR/after-R.csv by round R, and after/before
round by round (each pair ran back to back), with the median and geometric mean of those ratios."""
import csv, glob, re, statistics, sys
rows = {}
for f in glob.glob(sys.argv[1] + '/*-*.csv'):
    side, rnd = re.match(r'.*/(before|after)-(\d+)\.csv$', f).groups()
    for r in csv.DictReader(open(f)):
        if r['Benchmark'].endswith(':cpuNanosPerOp'):
            name = r['Benchmark'].split('.')[-1].split(':')[0]
            rows.setdefault((name, r['Param: impl'].lower()), {}).setdefault(int(rnd), {})[side] = float(r['Score'])
print('| call | layout | before, CPU ns/op by round | after | after / before by round | median | geometric mean |')
print('| --- | --- | ---: | ---: | ---: | ---: | ---: |')
for (name, layout), rounds in sorted(rows.items()):
    rs = [r for r in sorted(rounds) if len(rounds[r]) == 2]
    ratios = [rounds[r]['after'] / rounds[r]['before'] for r in rs]
    fmt = lambda xs: ', '.join(f'{x:.0f}' for x in xs)
    print(f"| {name} | {layout} | {fmt(rounds[r]['before'] for r in rs)} | {fmt(rounds[r]['after'] for r in rs)} | "
          f"{', '.join(f'{x:.2f}' for x in ratios)} | {statistics.median(ratios):.2f} | {statistics.geometric_mean(ratios):.2f} |")
