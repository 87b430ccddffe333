#!/usr/bin/env python3
"""The tables of docs/BENCHMARKS.md ("Interleaved rings") from this directory's CSVs
(latency-rREP-nNm-LAYOUT.csv, throughput-n1m.csv): per n, call and layout, CPU ns per key
(CpuTimeProfiler) of FIXED, WINDOWED (format version 4) and WINDOWED_V2 (format version 2), and the
rings' ratios to FIXED within each JMH run: the median over the repetitions, then each repetition's
value in brackets when there are several. An argument names another directory of such CSVs
(probe-major/, the first query loop's runs)."""
import csv, glob, os, re, statistics, sys
from collections import defaultdict

here = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
runs = defaultdict(dict)  # (n, layout, call, rep) -> {kind: CPU ns per key}
for path in sorted(glob.glob(os.path.join(here, '*.csv'))):
    m = re.match(r'latency-r(\d+)-', os.path.basename(path))
    rep = int(m.group(1)) if m else 1
    for r in csv.DictReader(open(path)):
        call, _, secondary = r['Benchmark'].rsplit('.', 1)[1].partition(':')
        if secondary != 'cpuNanosPerOp':
            continue
        runs[(int(r['Param: n']) // 1000000, r['Param: layout'].lower(), call, rep)][r['Param: kind']] = float(r['Score'])


def cell(n, layout, call, of):
    values = [of(kinds) for key, kinds in sorted(runs.items()) if key[:3] == (n, layout, call)]
    values = [v for v in values if v is not None]
    if not values:
        return '-'
    fmt = '%.0f' if values[0] > 20 else '%.2f'
    text = fmt % statistics.median(values)
    return text + (' [' + ' '.join(fmt % v for v in values) + ']' if len(values) > 1 else '')


print('| n | call | layout | FIXED ns/key | WINDOWED v4 ns/key | v4 / FIXED | WINDOWED_V2 ns/key | v2 / FIXED | v2 / v4 |')
print('| --- | --- | --- | --- | --- | --- | --- | --- | --- |')
calls = ('mightContainAbsentLatency', 'mightContainPresentLatency', 'mightContainAbsent', 'mightContainPresent',
         'mightContainAbsentBatch', 'mightContainPresentBatch', 'add', 'addBatch')
for n in (64, 1):
    for call in calls:
        for layout in ('standard', 'blocked'):
            if not any(key[:3] == (n, layout, call) for key in runs):
                continue
            cols = [cell(n, layout, call, lambda k: k.get('FIXED')),
                    cell(n, layout, call, lambda k: k.get('WINDOWED')),
                    cell(n, layout, call, lambda k: k['WINDOWED'] / k['FIXED'] if 'WINDOWED' in k and 'FIXED' in k else None),
                    cell(n, layout, call, lambda k: k.get('WINDOWED_V2')),
                    cell(n, layout, call, lambda k: k['WINDOWED_V2'] / k['FIXED'] if 'WINDOWED_V2' in k and 'FIXED' in k else None),
                    cell(n, layout, call, lambda k: k['WINDOWED_V2'] / k['WINDOWED'] if 'WINDOWED_V2' in k and 'WINDOWED' in k else None)]
            print(f'| {n} M | `{call}` | {layout} | ' + ' | '.join(cols) + ' |')
