# usage: python3 cli-loop.py RUNS VERB [JAR]: FileChangedUnderCommandIT's sequence in a loop (create a
# 100 M-cell filter, VERB f.bloom --from - fed 1 M lines, truncate the file to 4,096 bytes, 200,000
# more lines); a run still going after 60 s is a hang: its threads' CPU and a jhsdb stack go to
# hang-N.txt. Results go to log.txt in WORK (default /tmp/cli-loop).
import subprocess, os, sys, time, threading, glob
WORK = os.environ.get('WORK', '/tmp/cli-loop')
os.makedirs(WORK, exist_ok=True)
jar = os.path.abspath(sys.argv[3] if len(sys.argv) > 3 else 'store-cli/target/bloomstore.jar')
verb = sys.argv[2] if len(sys.argv) > 2 else 'add'
def lines(prefix, n):
    return b''.join(b'%s%d\n' % (prefix, i) for i in range(n))
warm = lines(b'warm-', 1_000_000)
after = lines(b'after-', 200_000)
log = open(WORK + '/log.txt', 'a')
for it in range(int(sys.argv[1])):
    d = f'{WORK}/w{it%2}'
    os.makedirs(d, exist_ok=True)
    f = os.path.join(d, 'f.bloom')
    if os.path.exists(f): os.remove(f)
    extra = ['--counter-bits', '2'] if verb == 'remove' else []
    subprocess.run(['java', '-jar', jar, 'create', f, '--cells', '100M', '--hashes', '3'] + extra, check=True)
    t0 = time.time()
    p = subprocess.Popen(['java', '-jar', jar, verb, f, '--from', '-'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=d)
    out = []
    th = [threading.Thread(target=lambda s=s: out.append(s.read())) for s in (p.stdout, p.stderr)]
    for t in th: t.start()
    try:
        p.stdin.write(warm); p.stdin.flush()
        os.truncate(f, 4096)
        p.stdin.write(after)
        p.stdin.close()
    except (BrokenPipeError, OSError):
        pass
    try:
        rc = p.wait(60)
    except subprocess.TimeoutExpired:
        pid = p.pid
        info = []
        for task in glob.glob(f'/proc/{pid}/task/*'):
            try:
                comm = open(task + '/comm').read().strip()
                st = open(task + '/stat').read().split(')')[1].split()
                info.append((int(st[11]) + int(st[12]), int(st[11]), int(st[12]), comm, task.split('/')[-1]))
            except Exception: pass
        info.sort(reverse=True)
        with open(f'{WORK}/hang-{it}.txt', 'w') as h:
            h.write('\n'.join(map(str, info[:12])) + '\n')
            h.write(subprocess.run(['jhsdb', 'jstack', '--mixed', '--pid', str(pid)], capture_output=True, text=True, timeout=300).stdout)
        log.write(f'{it} HANG pid {pid}\n'); log.flush()
        p.kill(); p.wait()
        rc = 'hang'
    for t in th: t.join()
    log.write(f'{it} {verb} rc={rc} {time.time()-t0:.2f}s err={out[-1][:200] if out else b""!r}\n'); log.flush()
