package io.bloomstore.internal.probe;

import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import java.lang.management.ManagementFactory;
import java.util.Arrays;

public class HeapScratch {
    static boolean query(Probing p, int k, long[] w, long h) {
        long base = p.base(h), step = p.step(h);
        for (int i = 0; i < k; i++) { long c = p.index(base, step, i); if ((w[(int) (c >>> 6)] & (1L << c)) == 0) return false; }
        return true;
    }
    static boolean add(Probing p, int k, long[] w, long h) {
        long base = p.base(h), step = p.step(h); boolean ch = false;
        for (int i = 0; i < k; i++) { long c = p.index(base, step, i); long o = w[(int) (c >>> 6)]; ch |= (o & (1L << c)) == 0; w[(int) (c >>> 6)] = o | (1L << c); }
        return ch;
    }
    public static void main(String[] a) {
        long n = Long.parseLong(a[1]);
        BloomSpec spec = BloomSpec.builder().expectedKeys(n).fpp(0.01).layout(Layout.valueOf(a[0])).build();
        Probing p = Probing.of(spec); int k = spec.hashes();
        long[] w = new long[(int) (spec.cellBytes() / 8)];
        var mx = ManagementFactory.getThreadMXBean();
        for (int r = 0; r < 5; r++) {
            Arrays.fill(w, 0);
            long t0 = mx.getCurrentThreadCpuTime(); int hits = 0;
            for (long i = 0; i < n; i++) hits += add(p, k, w, Scratch.mix(i)) ? 1 : 0;
            long t1 = mx.getCurrentThreadCpuTime();
            for (long i = 0; i < n; i++) hits += query(p, k, w, Scratch.mix(i)) ? 1 : 0;
            long t2 = mx.getCurrentThreadCpuTime();
            for (long i = 0; i < n; i++) hits += query(p, k, w, Scratch.mix(i + (1L << 40))) ? 1 : 0;
            long t3 = mx.getCurrentThreadCpuTime();
            System.out.printf("heap %s add %.0f present %.0f absent %.0f (%d)%n", a[0], (t1 - t0) / (double) n, (t2 - t1) / (double) n, (t3 - t2) / (double) n, hits);
        }
    }
}
