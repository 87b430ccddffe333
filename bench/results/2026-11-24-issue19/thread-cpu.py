import subprocess, sys, os, time, collections
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
last = {}
hz = os.sysconf('SC_CLK_TCK')
while p.poll() is None:
    try:
        # the bash launcher execs java: same pid
        for t in os.listdir(f'/proc/{p.pid}/task'):
            try:
                comm = open(f'/proc/{p.pid}/task/{t}/comm').read().strip()
                f = open(f'/proc/{p.pid}/task/{t}/stat').read().rsplit(')', 1)[1].split()
                last[t] = (comm, int(f[11]) + int(f[12]))
            except OSError:
                pass
    except OSError:
        pass
    time.sleep(0.02)
agg = collections.Counter()
for t, (comm, ticks) in last.items():
    name = comm.rstrip('0123456789') if not comm.startswith('bloomstore-adder') else 'bloomstore-adder'
    agg[name] += ticks
tot = sum(agg.values())
print('total %.2f s (seen)' % (tot / hz))
for name, ticks in agg.most_common(12):
    print('  %-24s %.2f s' % (name, ticks / hz))
