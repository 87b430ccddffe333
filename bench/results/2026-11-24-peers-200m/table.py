"""Prints docs/BENCHMARKS.md's PEERS-200M table from the two CSVs here: python3 table.py [DIR].

Throughput (ops/us, wall clock, JMH's 99.9 % interval) and CPU ns per call (CpuTimeProfiler) of
every peer's single calls and of bloomstore's batch calls, n = 200 M, long keys, one JMH run.
"""
import csv, os, sys

d = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
rows = {}
for name in ('peers-n200m-LONG-single.csv', 'peers-n200m-LONG-batch.csv'):
    for r in csv.DictReader(open(os.path.join(d, name))):
        bench = r['Benchmark'].split('.')[-1]
        call, _, metric = bench.partition(':')
        impl = r['Param: impl'] + (' batch' if call.endswith('Batch') else '')
        call = call.removesuffix('Batch')
        rows.setdefault(call, {})[(impl, metric or 'ops')] = (float(r['Score']), float(r['Score Error (99.9%)']))
impls = ['GUAVA', 'STANDARD', 'BLOCKED', 'STANDARD batch', 'BLOCKED batch', 'DATASKETCHES', 'FASTFILTER_BLOOM',
         'FASTFILTER_BLOCKED', 'COMMONS', 'SPARK']
print('| call | ' + ' | '.join(impls) + ' |')
print('| --- ' * (len(impls) + 1) + '|')
for call in ('add', 'mightContainPresent', 'mightContainAbsent'):
    for metric, label, fmt in (('ops', 'ops/us', '{:.2f} ± {:.2f}'), ('cpuNanosPerOp', 'CPU ns', '{:.0f}')):
        cells = []
        for impl in impls:
            v = rows[call].get((impl, metric))
            cells.append('' if v is None else fmt.format(*v) if metric == 'ops' else fmt.format(v[0]))
        print(f'| `{call}` {label} | ' + ' | '.join(cells) + ' |')
