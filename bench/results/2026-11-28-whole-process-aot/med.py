import sys, collections, statistics
d = collections.defaultdict(list); w = collections.defaultdict(list); loads = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split('\t')
    if len(f) < 7: continue
    k = (f[0], f[1]); d[k].append(float(f[3]) + float(f[4])); w[k].append(float(f[5])); loads[k].append(float(f[7]))
for k in sorted(d):
    print(f"{k[0]:9s} {k[1]:22s} n={len(d[k]):2d} cpu med {statistics.median(d[k]):.3f} (min {min(d[k]):.2f} max {max(d[k]):.2f}) wall med {statistics.median(w[k]):.2f} load {min(loads[k]):.1f}-{max(loads[k]):.1f}")
