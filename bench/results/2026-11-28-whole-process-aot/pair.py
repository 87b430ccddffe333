import sys, collections, statistics
# pair.py TSV JOB BASE OTHER: median over rounds of OTHER/BASE CPU (user+sys), with the medians
rows = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    f = line.rstrip('\n').split('\t')
    if len(f) < 8 or f[0] != sys.argv[2]: continue
    rows[f[2]][f[1]] = float(f[3]) + float(f[4])
base, other = sys.argv[3], sys.argv[4]
r = [v[other] / v[base] for v in rows.values() if base in v and other in v]
a = [v[base] for v in rows.values() if base in v]; b = [v[other] for v in rows.values() if other in v]
print(f"{sys.argv[2]}: {other} / {base}: median ratio {statistics.median(r):.3f} (range {min(r):.2f} to {max(r):.2f}, {len(r)} rounds); CPU medians {statistics.median(a):.3f} -> {statistics.median(b):.3f} s")
