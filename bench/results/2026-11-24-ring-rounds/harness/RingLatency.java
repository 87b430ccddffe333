import io.bloomstore.*;
import io.bloomstore.internal.segment.Segment;
import io.bloomstore.internal.cells.*;
import io.bloomstore.internal.probe.*;
import io.bloomstore.internal.hashing.ProbeMath;
import io.bloomstore.bench.micro.SegmentedBenchmark.SteppedClock;
import java.nio.file.*;
import java.util.function.LongPredicate;

/**
 * In-process latency chains of a ring's query and of variants written out by hand, on a filled
 * SegmentedBenchmark fixture of either layout: java RingLatency FILE N (see ../README.md).
 */
public class RingLatency {
    public static void main(String[] a) throws Exception {
        long n = Long.parseLong(a[1]);
        WindowedBloomFilter f = openAtEpoch8(Path.of(a[0]));
        Segment[] slots = slots(f);
        LockstepQueries lq = slotQueries(f);
        long[] addr = slotAddresses(f);
        int ring = slots.length;
        long all = (1L << ring) - 1;
        KeyHasher h = f.hasher();
        Segment s0 = slots[3];
        BloomSpec spec = s0.spec();
        int nh = spec.hashes();
        var M = net.openhft.chronicle.core.UnsafeMemory.MEMORY;
        int N = spec.layout() == Layout.STANDARD ? 1 << 19 : 1 << 20; // as the runs in BENCHMARKS.md
        long[] absent = new long[N], present = new long[N];
        for (int i = 0; i < N; i++) {
            absent[i] = io.bloomstore.bench.Keys.mix((1L << 62) + i);
            present[i] = io.bloomstore.bench.Keys.mix((i * 0x9E3779B97F4A7C15L >>> 1) % n);
        }
        System.out.println(spec.layout() + " k=" + nh + " m=" + spec.cells() + " ring=" + ring);
        if (spec.layout() == Layout.STANDARD) {
            long m = spec.cells();
            long[] cubic = new long[nh]; for (int i = 0; i < nh; i++) cubic[i] = ((long) i * i * i - i) / 6 % m;
        java.util.function.IntFunction<LongPredicate> wide = W -> x -> {
            long hh = h.hash(x);
            long h2 = ProbeMath.secondHash(hh);
            long running = -1L >>> (64 - addr.length);
            int i = 0;
            while (i < nh && running != 0) {
                int stop = Math.min(nh, i + W);
                long got = running;
                for (; i < stop; i++) {
                    long idx = ProbeMath.reduce(hh + i * h2, m) + cubic[i];
                    if (idx >= m) idx -= m;
                    long wo = (idx >>> 6) << 3; long bit = idx & 63;
                    long g = 0;
                    for (long r = running; r != 0; r &= r - 1) {
                        int j = Long.numberOfTrailingZeros(r);
                        g |= ((M.readLong(addr[j] + wo) >>> bit) & 1) << j;
                    }
                    got &= g;
                }
                running = got;
            }
            return running != 0;
        };
            chains(absent, present, new String[] {"prod", "wide1", "wide2", "wide3"},
                    x -> f.mightContain(x), wide.apply(1), wide.apply(2), wide.apply(3));
            return;
        }
        long blocks = spec.cells() / spec.cellsPerBlock();
        long[] gp = new long[nh]; long pw = 1; for (int i = 0; i < nh; i++) { pw *= ProbeMath.GOLDEN; gp[i] = pw; }
        LongPredicate floor = x -> {
            long hh = h.hash(x);
            long off = ProbeMath.reduce(hh, blocks) << 6;
            long acc = 0;
            for (int j = 0; j < addr.length; j++) acc ^= M.readLong(addr[j] + off);
            return acc == 0x1234567L;
        };
        LongPredicate floorR = x -> {
            long hh = h.hash(x);
            long off = ProbeMath.reduce(hh, blocks) << 6;
            long acc = 0;
            for (int j = 0; j < addr.length; j++) acc ^= M.readLong(addr[j] + off);
            return (acc & 1) != 0;
        };
        LongPredicate branchFree = x -> {
            long hh = h.hash(x);
            long off = ProbeMath.reduce(hh, blocks) << 6;
            long h2 = ProbeMath.secondHash(hh);
            long any = 0;
            for (int j = 0; j < addr.length; j++) {
                long base = addr[j] + off;
                long ok = 1;
                for (int i = 0; i < nh; i++) {
                    long bit = (h2 * gp[i]) >>> 55; // 512 cells of 1 bit
                    ok &= M.readLong(base + ((bit >>> 6) << 3)) >>> bit;
                }
                any |= ok;
            }
            return (any & 1) != 0;
        };
        LongPredicate masks = x -> {
            long hh = h.hash(x);
            long off = ProbeMath.reduce(hh, blocks) << 6;
            long h2 = ProbeMath.secondHash(hh);
            long m0=0,m1=0,m2=0,m3=0,m4=0,m5=0,m6=0,m7=0;
            for (int i = 0; i < nh; i++) {
                long bit = (h2 * gp[i]) >>> 55;
                long b = 1L << bit; int w = (int) (bit >>> 6);
                m0 |= w == 0 ? b : 0; m1 |= w == 1 ? b : 0; m2 |= w == 2 ? b : 0; m3 |= w == 3 ? b : 0;
                m4 |= w == 4 ? b : 0; m5 |= w == 5 ? b : 0; m6 |= w == 6 ? b : 0; m7 |= w == 7 ? b : 0;
            }
            boolean hit = false;
            for (int j = 0; j < addr.length; j++) {
                long p = addr[j] + off;
                long miss = (m0 & ~M.readLong(p)) | (m1 & ~M.readLong(p + 8)) | (m2 & ~M.readLong(p + 16)) | (m3 & ~M.readLong(p + 24))
                        | (m4 & ~M.readLong(p + 32)) | (m5 & ~M.readLong(p + 40)) | (m6 & ~M.readLong(p + 48)) | (m7 & ~M.readLong(p + 56));
                hit |= miss == 0;
            }
            return hit;
        };
        java.util.function.Function<Boolean, LongPredicate> lean = volatileReads -> x -> {
            long hh = h.hash(x);
            long off = ProbeMath.reduce(hh, blocks) << 6;
            long h2 = ProbeMath.secondHash(hh);
            long bit = (h2 * gp[0]) >>> 55;
            long wo = off + ((bit >>> 6) << 3);
            long running = 0;
            for (int j = 0; j < addr.length; j++) running |= (((volatileReads ? M.readVolatileLong(addr[j] + wo) : M.readLong(addr[j] + wo)) >>> bit) & 1) << j;
            for (int i = 1; i < nh && running != 0; i++) {
                bit = (h2 * gp[i]) >>> 55;
                wo = off + ((bit >>> 6) << 3);
                long next = 0;
                for (long r = running; r != 0; r &= r - 1) {
                    int j = Long.numberOfTrailingZeros(r);
                    next |= (((volatileReads ? M.readVolatileLong(addr[j] + wo) : M.readLong(addr[j] + wo)) >>> bit) & 1) << j;
                }
                running = next;
            }
            return running != 0;
        };
        java.util.function.IntFunction<LongPredicate> leanR = R -> x -> {
            long hh = h.hash(x);
            long off = ProbeMath.reduce(hh, blocks) << 6;
            long h2 = ProbeMath.secondHash(hh);
            long running = -1L >>> (64 - addr.length);
            for (int i = 0; i < R; i++) {
                long bit = (h2 * gp[i]) >>> 55;
                long wo = off + ((bit >>> 6) << 3);
                long got = 0;
                for (int j = 0; j < addr.length; j++) got |= ((M.readLong(addr[j] + wo) >>> bit) & 1) << j;
                running &= got;
            }
            for (int i = R; i < nh && running != 0; i++) {
                long bit = (h2 * gp[i]) >>> 55;
                long wo = off + ((bit >>> 6) << 3);
                long next = 0;
                for (long r = running; r != 0; r &= r - 1) {
                    int j = Long.numberOfTrailingZeros(r);
                    next |= ((M.readLong(addr[j] + wo) >>> bit) & 1) << j;
                }
                running = next;
            }
            return running != 0;
        };
        chains(absent, present, new String[] {"prod", "lockstep-mask", "one-slot", "floor9", "floor9-random", "lean",
            "leanV", "lean2", "lean3", "branchfree", "masks"},
                x -> f.mightContain(x), x -> lq.anyHolds(h.hash(x), 0, all), x -> s0.mightContain(h.hash(x)),
                floor, floorR, lean.apply(false), lean.apply(true), leanR.apply(2), leanR.apply(3), branchFree, masks);
    }

    /** The fixture opened read-only with its clock at epoch 8, as SegmentedBenchmark queries it. */
    static WindowedBloomFilter openAtEpoch8(Path file) throws Exception {
        SteppedClock clock = new SteppedClock();
        for (int e = 0; e < 8; e++) clock.step();
        return WindowedBloomFilter.open(file, OpenMode.READ_ONLY, clock);
    }

    static Segment[] slots(WindowedBloomFilter f) throws ReflectiveOperationException {
        var sf = WindowedBloomFilter.class.getDeclaredField("slots"); sf.setAccessible(true);
        return (Segment[]) sf.get(f);
    }

    static LockstepQueries slotQueries(WindowedBloomFilter f) throws ReflectiveOperationException {
        var qf = WindowedBloomFilter.class.getDeclaredField("slotQueries"); qf.setAccessible(true);
        return (LockstepQueries) qf.get(f);
    }

    /** The address of each slot's first cell word, from the slots' lockstep query. */
    static long[] slotAddresses(WindowedBloomFilter f) throws ReflectiveOperationException {
        var gf = LockstepQueries.class.getDeclaredField("arrays"); gf.setAccessible(true);
        var af = CellArrayGroup.class.getDeclaredField("addresses"); af.setAccessible(true);
        return (long[]) af.get(gf.get(slotQueries(f)));
    }

    /** Eight rounds of each variant over absent then present keys, each key chosen by the previous answer; prints rounds 4 to 8. */
    static void chains(long[] absent, long[] present, String[] names, LongPredicate... variants) {
        for (int round = 0; round < 8; round++) {
            StringBuilder line = new StringBuilder();
            for (int v = 0; v < variants.length; v++) {
                for (boolean p : new boolean[] {false, true}) {
                    long[] keys = p ? present : absent;
                    LongPredicate q = variants[v];
                    long t0 = System.nanoTime();
                    boolean answer = p; int d = 0;
                    for (long k : keys) { answer = q.test(answer == p ? k : ~k); d += answer ? 1 : 0; }
                    long t1 = System.nanoTime();
                    line.append(String.format("%s %s %4.0f (%d) | ", names[v], p ? "P" : "A", (t1 - t0) / (double) keys.length, d));
                }
            }
            if (round >= 3) System.out.println(line);
        }
    }
}
