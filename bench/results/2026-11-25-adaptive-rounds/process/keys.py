#!/usr/bin/env python3
"""10 M random 16-hex-digit lines to add, and 10 M lines that can be none of them (they start with 'g')."""
import os, random, sys
d = sys.argv[1]
r = random.Random(7)
with open(os.path.join(d, "present.txt"), "w") as p, open(os.path.join(d, "absent.txt"), "w") as a:
    for i in range(10_000_000):
        p.write("%016x\n" % r.getrandbits(64))
    for i in range(10_000_000):
        a.write("g%015x\n" % r.getrandbits(60))
