import sys, collections, re
f = sys.argv[1]; top = int(sys.argv[2]) if len(sys.argv) > 2 else 25
threads = collections.Counter(); selfc = collections.Counter(); incl = collections.Counter(); total = 0
cats = collections.Counter()
for line in open(f):
    stack, n = line.rstrip().rsplit(' ', 1); n = int(n); total += n
    frames = stack.split(';')
    t = frames[0]
    t = re.sub(r'\s*tid=\d+', '', t)
    t = re.sub(r'\d+', 'N', t)
    threads[t] += n
    selfc[frames[-1]] += n
    for fr in set(frames[1:]):
        incl[fr] += n
print("total samples", total)
print("-- threads"); [print(f"{v:6d} {100*v/total:5.1f}% {k}") for k, v in threads.most_common(12)]
print("-- self"); [print(f"{v:6d} {100*v/total:5.1f}% {k}") for k, v in selfc.most_common(top)]
if len(sys.argv) > 3:
    print("-- inclusive"); [print(f"{v:6d} {100*v/total:5.1f}% {k}") for k, v in incl.most_common(int(sys.argv[3]))]
