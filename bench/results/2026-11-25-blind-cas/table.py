import csv, glob, collections, statistics, sys
d = sys.argv[1] if len(sys.argv) > 1 else '/tmp/var/out2'
cpu = collections.defaultdict(dict)   # (bench, impl, n) -> {(jar, rep): ns}
thr = collections.defaultdict(dict)
for f in glob.glob(d + '/*.csv'):
    jar, rep = f.split('/')[-1][:-4].rsplit('-', 1)
    for r in csv.DictReader(open(f)):
        b = r['Benchmark'].split('.')[-1]
        key = (b.split(':')[0], r['Param: impl'], r['Param: n'])
        if b.endswith(':cpuNanosPerOp'):
            cpu[key][(jar, rep)] = float(r['Score'])
        elif ':' not in b:
            thr[key][(jar, rep)] = float(r['Score'])
print('| call | layout | n | main CPU ns/key (median) | blind CPU ns/key | blind / main CPU, per rep | median | blind / main ops/us, median |')
print('| --- | --- | --- | --- | --- | --- | --- | --- |')
for key in sorted(cpu):
    reps = sorted({r for _, r in cpu[key]})
    ratios = [cpu[key][('blind', r)] / cpu[key][('main', r)] for r in reps if ('blind', r) in cpu[key] and ('main', r) in cpu[key]]
    tr = [thr[key][('blind', r)] / thr[key][('main', r)] for r in reps if ('blind', r) in thr[key] and ('main', r) in thr[key]]
    m = statistics.median(v for (j, _), v in cpu[key].items() if j == 'main')
    b = statistics.median(v for (j, _), v in cpu[key].items() if j == 'blind')
    print(f"| `{key[0]}` | {key[1].lower()} | {int(key[2])//1000000} M | {m:.0f} | {b:.0f} | {', '.join(f'{x:.2f}' for x in ratios)} | **{statistics.median(ratios):.2f}** | {statistics.median(tr):.2f} |")
