"""Medians of SparkBuildComparison's outputs: python3 medians.py DIR (reads DIR/build-*.txt)."""
import re,glob,statistics,collections,sys
d=sys.argv[1]
rows=collections.defaultdict(lambda: collections.defaultdict(list))
names=['bloomstore standard','bloomstore blocked','Spark stat().bloomFilter, caps raised','Spark stat().bloomFilter']
for f in sorted(glob.glob(d+'/build-*.txt')):
    n=int(re.search(r'build-(\d+)',f).group(1))
    cur=None; stage_i=0
    for line in open(f):
        m=re.match(r'^(.*?) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+)',line)
        if m:
            nm=m.group(1)
            cur=[x for x in names if nm.startswith(x)][0]; stage_i=0
            for i,k in enumerate(['wall','shuffle MB','results MB','output MB','fpp']):
                rows[n][(cur,k)].append(float(m.group(i+2)))
            continue
        m=re.match(r'^  stage \d+ \((\d+) tasks?\) ([\d.]+) s: (\S+)',line)
        if m and cur:
            stage_i+=1
            rows[n][(cur,'stage%d %s'%(stage_i,m.group(3)))].append(float(m.group(2)))
for n in sorted(rows):
    print('N {:,}'.format(n))
    for k,v in rows[n].items():
        print('  %-40s %-45s med %8.3f  %s'%(k[0],k[1],statistics.median(v),v))
    for base in ['Spark stat().bloomFilter','Spark stat().bloomFilter, caps raised']:
        s=rows[n].get((base,'wall'))
        if not s:
            continue
        for who in names:
            if who==base: continue
            if not rows[n].get((who,'wall')):
                continue
            r=[a/b for a,b in zip(rows[n][(who,'wall')],s)]
            print('  ratio %-40s / %-40s: median %.2f range %.2f-%.2f'%(who,base,statistics.median(r),min(r),max(r)))
