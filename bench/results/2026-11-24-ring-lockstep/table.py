"""Prints docs/BENCHMARKS.md's LOCKSTEP table from the CSVs here: python3 table.py [DIR].

Which runs are which side: before = main at 46eea52 (jar before5) in r8, r9, r12; after = the
landed query: jar after5 (r8, r9) and final2 (r12) in the blocked layout, after6 (r11) and final2
(r12) in the standard layout (after5 still asked a standard ring's slots one after another).
CPU ns per key (CpuTimeProfiler), medians over the runs, each ring's value over FIXED's in the
same run.
"""
import csv, glob, sys, collections, statistics, os

d = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
SIDES = {
    'blocked': {'before': {('r8', 'before5'), ('r9', 'before5'), ('r12', 'before5')},
                'after': {('r8', 'after5'), ('r9', 'after5'), ('r12', 'final2')}},
    'standard': {'before': {('r8', 'before5'), ('r9', 'before5'), ('r12', 'before5')},
                 'after': {('r11', 'after6'), ('r12', 'final2')}},
}
runs = collections.defaultdict(list)  # (n, layout, call, side) -> [(fixed, windowed)]
for f in sorted(glob.glob(d + '/*.csv')):
    jar, rep, n, layout = os.path.basename(f)[:-4].split('-')
    side = next((s for s, keys in SIDES[layout].items() if (rep, jar) in keys), None)
    if side is None:
        continue
    scores = {}
    for r in csv.DictReader(open(f)):
        name = r['Benchmark'].split('.')[-1]
        if name.endswith(':cpuNanosPerOp'):
            scores[(name.split(':')[0], r['Param: kind'])] = float(r['Score'])
    for (call, kind), v in scores.items():
        if kind == 'WINDOWED' and (call, 'FIXED') in scores:
            runs[(n, layout, call, side)].append((scores[(call, 'FIXED')], v))

print('| n | call | layout | FIXED ns/key | WINDOWED before | WINDOWED after | before / FIXED | after / FIXED | runs |')
print('| --- | --- | --- | --- | --- | --- | --- | --- | --- |')
for n, layout, call in sorted({k[:3] for k in runs}, key=lambda k: (-int(k[0][1:-1]), k[2], k[1])):
    b, a = runs[(n, layout, call, 'before')], runs[(n, layout, call, 'after')]
    if not b or not a:
        continue
    fixed = statistics.median([x[0] for x in b + a])
    med = lambda xs: statistics.median([x[1] for x in xs])
    ratio = lambda xs: statistics.median([x[1] / x[0] for x in xs])
    print(f'| {n[1:].upper()} | `{call}` | {layout} | {fixed:.0f} | {med(b):.0f} | **{med(a):.0f}** | {ratio(b):.2f} | **{ratio(a):.2f}** | {len(b)} / {len(a)} |')
