"""Ratios to Guava by CPU time per op (CpuTimeProfiler): Guava's CPU ns / ours, above 1 = ahead.

usage: python3 ratios_cpu.py DIR   (DIR holds SIDE-SIZE-single[-TAG].csv and SIDE-SIZE-batch[-TAG].csv)
Batch calls are set against Guava's single call of the same name without "Batch", from the same
side's single-call run of the same tag.
"""
import csv, glob, os, re, sys, collections

d = sys.argv[1]

def cpu(path):
    out = {}
    for r in csv.DictReader(open(path)):
        name = r['Benchmark'].split('.')[-1]
        if name.endswith(':cpuNanosPerOp'):
            out[(name.split(':')[0], r['Param: impl'])] = float(r['Score'])
    return out

table = collections.OrderedDict()
for single in sorted(glob.glob(os.path.join(d, '*-single*.csv'))):
    m = re.match(r'(before|after)-(n\w+?)-single(.*)\.csv', os.path.basename(single))
    side, size, tag = m.groups()
    s = cpu(single)
    batch_path = os.path.join(d, f'{side}-{size}-batch{tag}.csv')
    b = cpu(batch_path) if os.path.exists(batch_path) else {}
    for (call, impl), ns in list(s.items()) + list(b.items()):
        if impl == 'GUAVA':
            continue
        guava = s.get((call.replace('Batch', ''), 'GUAVA'))
        if guava:
            table.setdefault((size, call, impl), {}).setdefault(side, []).append(guava / ns)

print('| n | call | layout | before: x Guava (CPU) | after: x Guava (CPU) | after / before (medians) |')
print('| --- | --- | --- | --- | --- | --- |')
med = lambda v: sorted(v)[len(v) // 2] if len(v) % 2 else sum(sorted(v)[len(v) // 2 - 1:len(v) // 2 + 1]) / 2
for (size, call, impl), v in table.items():
    bv, av = v.get('before', []), v.get('after', [])
    fmt = lambda xs: ', '.join(f'{x:.2f}' for x in xs)
    ratio = f'{med(av) / med(bv):.2f}' if av and bv else ''
    print(f'| {size} | `{call}` | {impl.lower()} | {fmt(bv)} | {fmt(av)} | {ratio} |')
