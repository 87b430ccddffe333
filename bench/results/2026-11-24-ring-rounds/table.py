"""Prints docs/BENCHMARKS.md's ROUNDS table from the CSVs here: python3 table.py [DIR].

before = main at 87d2589 (jar before: a standard ring's rounds read one probe each), wide = the
change (two probes a round in the standard layout). CPU ns per key (CpuTimeProfiler) of the
ring (WINDOWED), medians over the runs, and the median of each rep's wide / before.
"""
import csv, glob, sys, collections, statistics, os

d = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
score = {}  # (n, layout, call, jar, rep) -> ns
for f in sorted(glob.glob(d + '/*.csv')):
    jar, rep, n, layout = os.path.basename(f)[:-4].split('-')
    for r in csv.DictReader(open(f)):
        name = r['Benchmark'].split('.')[-1]
        if name.endswith(':cpuNanosPerOp') and r['Param: kind'] == 'WINDOWED':
            score[(n, layout, name.split(':')[0], jar, rep)] = float(r['Score'])
print('| n | layout | call | before | wide | wide / before (each rep) | reps |')
print('| --- | --- | --- | --- | --- | --- | --- |')
for n, layout, call in sorted({k[:3] for k in score}, key=lambda k: (-int(k[0][1:-1]), k[1], k[2])):
    reps = sorted({k[4] for k in score if k[:3] == (n, layout, call)})
    pairs = [(score[(n, layout, call, 'before', r)], score[(n, layout, call, 'wide', r)]) for r in reps
             if (n, layout, call, 'before', r) in score and (n, layout, call, 'wide', r) in score]
    if not pairs:
        continue
    b = statistics.median(p[0] for p in pairs)
    w = statistics.median(p[1] for p in pairs)
    each = ', '.join(f'{p[1] / p[0]:.2f}' for p in pairs)
    print(f'| {n[1:].upper()} | {layout} | `{call}` | {b:.0f} | **{w:.0f}** | {each} | {len(pairs)} |')
