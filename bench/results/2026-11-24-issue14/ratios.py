import csv, sys, glob, os, collections
d=sys.argv[1]
def load(name):
    p=os.path.join(d,name+'.csv')
    if not os.path.exists(p): return {}
    out={}
    for r in csv.DictReader(open(p)):
        b=r['Benchmark'].split('.')[-1]
        if ':' in b: continue
        impl=r.get('Param: impl'); n=r.get('Param: n')
        out[(b,impl)]=(float(r['Score']), float(r['Score Error (99.9%)'] or 'nan'))
    # cpu time per op rows (profiler secondary metrics)
    cpu={}
    for r in csv.DictReader(open(p)):
        b=r['Benchmark'].split('.')[-1]
        if ':' in b and 'cpu' in b.lower():
            m,sec=b.split(':',1); cpu[(m,r.get('Param: impl'))]=float(r['Score'])
    return out,cpu
rows=[]
for size in ['n1m','n200m']:
    for side in ['before','after']:
        s=load(f'{side}-{size}-single'); bt=load(f'{side}-{size}-batch')
        if not s: continue
        single,cpus=s; batch,cpub=bt if bt else ({},{})
        for (m,impl),(sc,err) in sorted(single.items()):
            if impl=='GUAVA': continue
            g=single.get((m,'GUAVA'))
            if g: rows.append((size,m,impl,side,sc/g[0]))
        for (m,impl),(sc,err) in sorted(batch.items()):
            g=single.get((m.replace('Batch',''),'GUAVA'))
            if g: rows.append((size,m,impl,side,sc/g[0]))
t=collections.OrderedDict()
for size,m,impl,side,r in rows:
    t.setdefault((size,m,impl),{})[side]=r
print('| n | call | layout | before: x Guava | after: x Guava | after / before |')
print('| --- | --- | --- | --- | --- | --- |')
for (size,m,impl),v in t.items():
    b=v.get('before'); a=v.get('after')
    print(f"| {size} | `{m}` | {impl.lower()} | {b:.2f} | {a:.2f} | {a/b:.2f} |" if a and b else f"| {size} | {m} | {impl} | {b} | {a} | |")
