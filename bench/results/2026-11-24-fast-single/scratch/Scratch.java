package io.bloomstore.internal.probe;

import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import io.bloomstore.internal.cells.CellArray;
import java.lang.invoke.VarHandle;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import net.openhft.chronicle.bytes.BytesStore;

public class Scratch {
    static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    static long mix(long x) { x += 0x9E3779B97F4A7C15L; x = (x ^ (x >>> 30)) * 0xBF58476D1CE4E5B9L; x = (x ^ (x >>> 27)) * 0x94D049BB133111EBL; return x ^ (x >>> 31); }

    static boolean addOld(Probing probing, int k, CellArray a, long hash) {
        long base = probing.base(hash), step = probing.step(hash);
        boolean changed = false;
        for (int i = 0; i < k; i++) changed |= a.incrementSaturating(probing.index(base, step, i)) == 0;
        return changed;
    }
    static boolean addOnePass(Probing probing, int k, CellArray a, long hash) {
        long base = probing.base(hash), step = probing.step(hash);
        boolean changed = false;
        for (int i = 0; i < k; i++) {
            long cell = probing.index(base, step, i);
            if (a.getPlain(cell) == 0) changed |= a.orWordOfCell(cell, a.bitsOf(cell));
        }
        return changed;
    }
    static boolean addTwoPassNoGather(Probing probing, int k, CellArray a, long hash) {
        long base = probing.base(hash), step = probing.step(hash);
        long zero = 0;
        for (int i = 0; i < k; i++) zero |= (a.getPlain(probing.index(base, step, i)) ^ 1) << i;
        boolean changed = false;
        while (zero != 0) {
            long cell = probing.index(base, step, Long.numberOfTrailingZeros(zero));
            zero &= zero - 1;
            changed |= a.orWordOfCell(cell, a.bitsOf(cell));
        }
        return changed;
    }
    static boolean queryPlain(Probing probing, int k, CellArray a, long hash) {
        VarHandle.acquireFence();
        long base = probing.base(hash), step = probing.step(hash);
        for (int i = 0; i < k; i++) if (a.getPlain(probing.index(base, step, i)) == 0) return false;
        return true;
    }

    static int loopAddOld(Probing p, int k, CellArray a, long n, long kb) { int h = 0; for (long i = 0; i < n; i++) h += addOld(p, k, a, mix(i + kb)) ? 1 : 0; return h; }
    static int loopAddNew(CellProbes p, long n, long kb) { int h = 0; for (long i = 0; i < n; i++) h += p.increment(mix(i + kb)) ? 1 : 0; return h; }
    static int loopAddOnePass(Probing p, int k, CellArray a, long n, long kb) { int h = 0; for (long i = 0; i < n; i++) h += addOnePass(p, k, a, mix(i + kb)) ? 1 : 0; return h; }
    static int loopAddTwoPassNoGather(Probing p, int k, CellArray a, long n, long kb) { int h = 0; for (long i = 0; i < n; i++) h += addTwoPassNoGather(p, k, a, mix(i + kb)) ? 1 : 0; return h; }
    static int loopQueryVolatile(CellProbes p, long n, long kb) { int h = 0; for (long i = 0; i < n; i++) h += p.mightContain(mix(i + kb)) ? 1 : 0; return h; }
    static int loopQueryPlain(Probing p, int k, CellArray a, long n, long kb) { int h = 0; for (long i = 0; i < n; i++) h += queryPlain(p, k, a, mix(i + kb)) ? 1 : 0; return h; }

    public static void main(String[] args) {
        Layout layout = Layout.valueOf(args[0]);
        long n = Long.parseLong(args[1]);
        int rounds = Integer.parseInt(args[2]);
        BloomSpec spec = BloomSpec.builder().expectedKeys(n).fpp(0.01).layout(layout).build();
        long bytes = spec.cellBytes();
        BytesStore<?, Void> store = BytesStore.nativeStoreWithFixedCapacity(bytes + 64);
        long off = (64 - (store.addressForRead(0) & 63)) & 63;
        CellArray a = new CellArray(store, off, spec.cells(), 1, bytes);
        CellProbes probes = new CellProbes(spec, a);
        CellArray single = CellArray.singleWriter(store, off, spec.cells(), 1, bytes);
        CellProbes singleProbes = new CellProbes(spec, single);
        Probing probing = Probing.of(spec);
        int k = spec.hashes();
        String[] names = {"addOld", "addNew", "queryVolatilePresent", "queryPlainPresent", "queryVolatileAbsent", "queryPlainAbsent", "addOnePass", "addTwoPassNoGather", "addOldSingleWriter", "addNewSingleWriter"};
        int[] pick = Arrays.stream(args[3].split(",")).mapToInt(Integer::parseInt).toArray();
        double[][] ns = new double[names.length][rounds];
        long sink = 0;
        for (int r = 0; r < rounds; r++) {
            for (int v : pick) {
                if (v < 2 || v > 5) store.zeroOut(off, bytes);
                long keyBase = v == 4 || v == 5 ? 1L << 40 : 0;
                long t0 = MX.getCurrentThreadCpuTime();
                int hits = switch (v) {
                    case 0 -> loopAddOld(probing, k, a, n, keyBase);
                    case 1 -> loopAddNew(probes, n, keyBase);
                    case 2, 4 -> loopQueryVolatile(probes, n, keyBase);
                    case 3, 5 -> loopQueryPlain(probing, k, a, n, keyBase);
                    case 6 -> loopAddOnePass(probing, k, a, n, keyBase);
                    case 7 -> loopAddTwoPassNoGather(probing, k, a, n, keyBase);
                    case 8 -> loopAddOld(probing, k, single, n, keyBase);
                    default -> loopAddNew(singleProbes, n, keyBase);
                };
                ns[v][r] = (MX.getCurrentThreadCpuTime() - t0) / (double) n;
                sink += hits;
            }
        }
        for (int v : pick) {
            double[] s = ns[v].clone(); Arrays.sort(s);
            System.out.printf("%s %s n=%d %-22s median %.1f ns  all %s%n", layout, "", n, names[v], s[rounds / 2], Arrays.toString(Arrays.stream(ns[v]).map(x -> Math.round(x)).toArray()));
        }
        System.out.println("sink " + sink);
    }
}
