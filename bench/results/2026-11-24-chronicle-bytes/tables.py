#!/usr/bin/env python3
"""The tables of docs/BENCHMARKS.md, "Chronicle Bytes on the hot paths", from round-R-VARIANT-{single,batch}.csv here. Markdown table: Guava CPU ns per op / ours, per round, for each variant; and median ratios between variants."""
import csv, os, statistics
DIR = os.path.dirname(os.path.abspath(__file__))
def load(prefix):
    rows = {}
    for part in ('single', 'batch'):
        try:
            for r in csv.DictReader(open(f'{prefix}-{part}.csv')):
                rows[(r['Benchmark'].split('.')[-1], r['Param: impl'])] = float(r['Score'])
        except FileNotFoundError:
            pass
    return rows
variants = [('before', 'before'), ('after', 'store'), ('checked', 'store + check'), ('varA', 'lent address')]
data = {v: [load(f'{DIR}/round-{r}-{v}') for r in (1, 2, 3, 4)] for v, _ in variants}
print('| operation | layout | ' + ' | '.join(n for _, n in variants) + ' |')
print('| --- | --- |' + ' ---: |' * len(variants))
med = {}
for op in ['add', 'mightContainPresent', 'mightContainAbsent']:
    for suffix in ('', 'Batch'):
        for impl in ('STANDARD', 'BLOCKED'):
            cells = []
            for v, _ in variants:
                rs = [d[(op + ':cpuNanosPerOp', 'GUAVA')] / d[(op + suffix + ':cpuNanosPerOp', impl)]
                      for d in data[v] if (op + ':cpuNanosPerOp', 'GUAVA') in d and (op + suffix + ':cpuNanosPerOp', impl) in d]
                med[(op + suffix, impl, v)] = statistics.median(rs) if rs else None
                cells.append(', '.join(f'{x:.2f}' for x in rs))
            print(f'| {op + suffix} | {impl.lower()} | ' + ' | '.join(cells) + ' |')
print()
for a, b in [('checked', 'after'), ('varA', 'before'), ('after', 'before')]:
    print(a, '/', b, ' '.join(f'{k[0]}-{k[1][:3]}:{med[(k[0], k[1], a)] / med[(k[0], k[1], b)]:.2f}' for k in sorted({(x[0], x[1]) for x in med})))
print()
print('| operation | layout | ' + ' | '.join(n for _, n in variants) + ' |')
print('| --- | --- |' + ' ---: |' * len(variants))
for op in ['add', 'mightContainPresent', 'mightContainAbsent']:
    for suffix in ('', 'Batch'):
        for impl in (['GUAVA'] if suffix == '' else []) + ['STANDARD', 'BLOCKED']:
            cells = []
            for v, _ in variants:
                rs = [d[(op + suffix + ':cpuNanosPerOp', impl)] for d in data[v] if (op + suffix + ':cpuNanosPerOp', impl) in d]
                cells.append(', '.join(f'{x:.0f}' for x in rs))
            print(f'| {op + suffix} | {impl.lower()} | ' + ' | '.join(cells) + ' |')
