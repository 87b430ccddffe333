"""CPU ns/op (CpuTimeProfiler) of each side against base, per round, from out/r<round>-<side>.csv."""
import csv, glob, math, re, sys
from collections import defaultdict
out = sys.argv[1] if len(sys.argv) > 1 else 'out'
vals = defaultdict(lambda: defaultdict(dict))  # key -> side -> round -> value
for f in sorted(glob.glob(out + '/r*-*.csv')):
    rnd, side = re.search(r'r(\d+)-(\w+)\.csv', f).groups()
    for r in list(csv.reader(open(f)))[1:]:
        if r[0].endswith(':cpuNanosPerOp'):
            vals[(r[0].split('.')[-1].split(':')[0], r[7], r[8], r[9])][side][rnd] = float(r[4])
sides = sorted({s for v in vals.values() for s in v if s != 'base'})
for side in sides:
    print(f'\n{side} against base (rounds where both ran)\n')
    print(f'| benchmark | impl | key | n | base CPU ns/op | {side} CPU ns/op | {side}/base, median of rounds |')
    print('|---|---|---|---|---|---|---|')
    logs = []
    for key in sorted(vals):
        b, a = vals[key]['base'], vals[key].get(side, {})
        rounds = sorted(set(a) & set(b))
        if not rounds:
            continue
        rs = sorted(a[r] / b[r] for r in rounds)
        k = len(rs)
        med = rs[k // 2] if k % 2 else (rs[k // 2 - 1] + rs[k // 2]) / 2
        logs.append(math.log(med))
        n = {'1000000': '1M', '10000000': '10M'}.get(key[3], key[3])
        print(f'| {key[0]} | {key[1]} | {key[2]} | {n} | {", ".join("%.1f" % b[r] for r in rounds)} '
              f'| {", ".join("%.1f" % a[r] for r in rounds)} | {med:.3f} |')
    print('\ngeometric mean: %.3f over %d rows' % (math.exp(sum(logs) / len(logs)), len(logs)))
