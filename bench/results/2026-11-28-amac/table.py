#!/usr/bin/env python3
"""Tables of the recorded runs: CPU ns per key (JMH's cpuNanosPerOp) and ops/us, per file, and ratios."""
import csv, glob, os, re, statistics, sys
d = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
runs = {}  # (set, side, bench) -> [(rep, cpu, ops)]
for f in sorted(glob.glob(os.path.join(d, '*.csv'))):
    name = os.path.basename(f)[:-4]
    m = re.match(r'(n\d+m)-(\w+?)-(batch|single)-?(before|after)?-?(\d+)$', name)
    if not m:
        continue
    size, impl, kind, side, rep = m.groups()
    side = side or impl
    scores = {}
    for r in csv.DictReader(open(f)):
        scores[r['Benchmark'].split('.')[-1]] = float(r['Score'])
    for b, v in scores.items():
        if b.endswith(':cpuNanosPerOp'):
            base = b.split(':')[0]
            runs.setdefault((size, impl, base), {}).setdefault(side, []).append((int(rep), v, scores.get(base)))
med = lambda xs: statistics.median(xs)
print('| filter | call | side | CPU ns per key, each run | median | ops/us, each run |')
print('| --- | --- | --- | --- | --- | --- |')
for (size, impl, bench), sides in sorted(runs.items()):
    for side, xs in sorted(sides.items()):
        xs.sort()
        print(f"| {size} {impl} | {bench} | {side} | {', '.join(f'{c:.1f}' for _, c, _ in xs)} | {med([c for _, c, _ in xs]):.1f} | {', '.join(f'{o:.2f}' for _, _, o in xs)} |")
print()
print('| filter | call | CPU after / before (medians) | each rep |')
print('| --- | --- | --- | --- |')
for (size, impl, bench), sides in sorted(runs.items()):
    if 'before' in sides and 'after' in sides:
        b = dict((r, c) for r, c, _ in sides['before']); a = dict((r, c) for r, c, _ in sides['after'])
        reps = sorted(set(a) & set(b))
        print(f"| {size} {impl} | {bench} | {med(list(a.values())) / med(list(b.values())):.2f} | {', '.join(f'{a[r] / b[r]:.2f}' for r in reps)} |")
ff = {bench: sides['fastfilter'] for (size, impl, bench), sides in runs.items() if impl == 'fastfilter' and size == 'n200m'}
if ff:
    print()
    print('| call | FastFilter `Bloom` single calls, CPU ns per key (median) | standard batch before | after | FastFilter CPU / ours: before | after |')
    print('| --- | --- | --- | --- | --- | --- |')
    for call in ('Absent', 'Present'):
        f = med([c for _, c, _ in ff.get('mightContain' + call, [])])
        s = runs.get(('n200m', 'standard', 'mightContain' + call + 'Batch'), {})
        b = med([c for _, c, _ in s['before']]); a = med([c for _, c, _ in s['after']])
        print(f"| {call.lower()} | {f:.1f} | {b:.1f} | {a:.1f} | {f / b:.2f}x | **{f / a:.2f}x** |")
