import sys,collections,statistics
rows=[l.rstrip('\n').split('\t') for l in open(sys.argv[1]) if l.strip()]
d=collections.defaultdict(dict)
for lab,r,side,u,s,w,load in rows: d[(lab,r)][side]=(float(u)+float(s),float(w),float(load))
labs=[]; [labs.append(l) for l,_ in d if l not in labs]
for lab in labs:
    rs=[v for (l,r),v in d.items() if l==lab and 'base' in v and 'new' in v]
    ratios=[v['new'][0]/v['base'][0] for v in rs]; wr=[v['new'][1]/v['base'][1] for v in rs]
    print(f"{lab}: rounds {len(rs)} CPU new/base median {statistics.median(ratios):.3f} (min {min(ratios):.3f} max {max(ratios):.3f}); wall {statistics.median(wr):.3f}; base CPU median {statistics.median([v['base'][0] for v in rs]):.2f} s, new {statistics.median([v['new'][0] for v in rs]):.2f} s; load {min(v['base'][2] for v in rs):.1f}-{max(v['base'][2] for v in rs):.1f}")
