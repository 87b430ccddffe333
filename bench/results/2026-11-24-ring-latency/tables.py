#!/usr/bin/env python3
"""The tables of docs/BENCHMARKS.md ("Growing and windowed filters", latency) from this directory's
CSVs (NAME-rREP-nNm-LAYOUT.csv, NAME before or after): per n, call, layout and metric (wall-clock
ns per key, converting throughput; CPU ns per key from CpuTimeProfiler), FIXED's ns per key and the
ratios GROWING / FIXED and WINDOWED / FIXED within each JMH run, before / after: the median over the
repetitions, then each repetition's value in brackets."""
import csv, glob, os, re, statistics
from collections import defaultdict

here = os.path.dirname(os.path.abspath(__file__))
runs = defaultdict(dict)  # (jar, n, layout, call, metric, rep) -> {kind: ns per key}
for path in sorted(glob.glob(os.path.join(here, '*-r*-n*m-*.csv'))):
    jar, rep = re.match(r'(before|after)-r(\d+)-', os.path.basename(path)).groups()
    for r in csv.DictReader(open(path)):
        call, _, secondary = r['Benchmark'].rsplit('.', 1)[1].partition(':')
        metric = 'CPU' if secondary == 'cpuNanosPerOp' else 'wall'
        score = float(r['Score'])
        if metric == 'wall' and r['Mode'] == 'thrpt':
            score = 1000.0 / score  # ops/us to ns per key
        runs[(jar, int(r['Param: n']) // 1000000, r['Param: layout'].lower(), call, metric, int(rep))][r['Param: kind']] = score


def cell(jar, n, layout, call, metric, of):
    values = [of(kinds) for key, kinds in sorted(runs.items())
              if key[:5] == (jar, n, layout, call, metric) and 'FIXED' in kinds]
    values = [v for v in values if v is not None]
    if not values:
        return '-'
    fmt = '%.0f' if values[0] > 20 else '%.2f'
    return (fmt % statistics.median(values)) + ' [' + ' '.join(fmt % v for v in values) + ']'


print('| n | call | layout | ns/key | FIXED ns/key, before / after | GROWING / FIXED, before / after'
      ' | WINDOWED / FIXED, before / after | WINDOWED ns/key, before / after |')
print('| --- | --- | --- | --- | --- | --- | --- | --- |')
for n in (64, 1):
    for call in ('mightContainAbsentLatency', 'mightContainPresentLatency', 'mightContainAbsent', 'mightContainPresent'):
        for layout in ('standard', 'blocked'):
            for metric in ('CPU', 'wall'):
                cols = []
                for of in (lambda k: k.get('FIXED'),
                           lambda k: k['GROWING'] / k['FIXED'] if 'GROWING' in k else None,
                           lambda k: k['WINDOWED'] / k['FIXED'] if 'WINDOWED' in k else None,
                           lambda k: k.get('WINDOWED')):
                    cols.append(cell('before', n, layout, call, metric, of) + ' / ' + cell('after', n, layout, call, metric, of))
                print(f'| {n} M | `{call}` | {layout} | {metric} | ' + ' | '.join(cols) + ' |')
