import io.bloomstore.*;
import io.bloomstore.internal.segment.Segment;
import io.bloomstore.internal.cells.*;
import io.bloomstore.internal.probe.*;
import io.bloomstore.bench.micro.SegmentedBenchmark.SteppedClock;
import java.nio.file.*;
import java.util.function.LongPredicate;

/**
 * In-process latency chains of a blocked ring's query and of variants written out by hand, on a
 * filled SegmentedBenchmark fixture: java BlockedRingLatency FILE N (see ../README.md).
 */
public class BlockedRingLatency {
    public static void main(String[] a) throws Exception {
        Path file = Path.of(a[0]);
        long n = Long.parseLong(a[1]);
        SteppedClock clock = new SteppedClock();
        for (int e = 0; e < 8; e++) clock.step();
        WindowedBloomFilter f = WindowedBloomFilter.open(file, OpenMode.READ_ONLY, clock);
        var sf = WindowedBloomFilter.class.getDeclaredField("slots"); sf.setAccessible(true);
        Segment[] slots = (Segment[]) sf.get(f);
        var qf = WindowedBloomFilter.class.getDeclaredField("slotQueries"); qf.setAccessible(true);
        LockstepQueries lq = (LockstepQueries) qf.get(f);
        int ring = slots.length;
        long all = (1L << ring) - 1;
        KeyHasher h = f.hasher();
        Segment s0 = slots[3];
        int N = 1 << 20;
        long[] absent = new long[N], present = new long[N];
        for (int i = 0; i < N; i++) {
            absent[i] = io.bloomstore.bench.Keys.mix((1L << 62) + i);
            present[i] = io.bloomstore.bench.Keys.mix((i * 0x9E3779B97F4A7C15L >>> 1) % n);
        }
        var gf = LockstepQueries.class.getDeclaredField("arrays"); gf.setAccessible(true);
        var af = CellArrayGroup.class.getDeclaredField("addresses"); af.setAccessible(true);
        long[] addr = (long[]) af.get(gf.get(lq));
        BloomSpec spec = s0.spec();
        long blocks = spec.cells() / spec.cellsPerBlock();
        int nh = spec.hashes();
        long[] gp = new long[nh]; long pw = 1; for (int i = 0; i < nh; i++) { pw *= io.bloomstore.internal.hashing.ProbeMath.GOLDEN; gp[i] = pw; }
        var M = net.openhft.chronicle.core.UnsafeMemory.MEMORY;
        System.out.println("k=" + nh + " blocks=" + blocks + " perBlock=" + spec.cellsPerBlock() + " ring=" + ring);
        LongPredicate floor = x -> {
            long hh = h.hash(x);
            long off = io.bloomstore.internal.hashing.ProbeMath.reduce(hh, blocks) << 6;
            long acc = 0;
            for (int j = 0; j < addr.length; j++) acc ^= M.readLong(addr[j] + off);
            return acc == 0x1234567L;
        };
        LongPredicate branchFree = x -> {
            long hh = h.hash(x);
            long off = io.bloomstore.internal.hashing.ProbeMath.reduce(hh, blocks) << 6;
            long h2 = io.bloomstore.internal.hashing.ProbeMath.secondHash(hh);
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
            long off = io.bloomstore.internal.hashing.ProbeMath.reduce(hh, blocks) << 6;
            long h2 = io.bloomstore.internal.hashing.ProbeMath.secondHash(hh);
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
        LongPredicate lean = x -> {
            long hh = h.hash(x);
            long off = io.bloomstore.internal.hashing.ProbeMath.reduce(hh, blocks) << 6;
            long h2 = io.bloomstore.internal.hashing.ProbeMath.secondHash(hh);
            long bit = (h2 * gp[0]) >>> 55;
            long wo = off + ((bit >>> 6) << 3);
            long running = 0;
            for (int j = 0; j < addr.length; j++) running |= ((M.readLong(addr[j] + wo) >>> bit) & 1) << j;
            for (int i = 1; i < nh && running != 0; i++) {
                bit = (h2 * gp[i]) >>> 55;
                wo = off + ((bit >>> 6) << 3);
                long next = 0;
                for (long r = running; r != 0; r &= r - 1) {
                    int j = Long.numberOfTrailingZeros(r);
                    next |= ((M.readLong(addr[j] + wo) >>> bit) & 1) << j;
                }
                running = next;
            }
            return running != 0;
        };
        LongPredicate leanV = x -> {
            long hh = h.hash(x);
            long off = io.bloomstore.internal.hashing.ProbeMath.reduce(hh, blocks) << 6;
            long h2 = io.bloomstore.internal.hashing.ProbeMath.secondHash(hh);
            long bit = (h2 * gp[0]) >>> 55;
            long wo = off + ((bit >>> 6) << 3);
            long running = 0;
            for (int j = 0; j < addr.length; j++) running |= ((M.readVolatileLong(addr[j] + wo) >>> bit) & 1) << j;
            for (int i = 1; i < nh && running != 0; i++) {
                bit = (h2 * gp[i]) >>> 55;
                wo = off + ((bit >>> 6) << 3);
                long next = 0;
                for (long r = running; r != 0; r &= r - 1) {
                    int j = Long.numberOfTrailingZeros(r);
                    next |= ((M.readVolatileLong(addr[j] + wo) >>> bit) & 1) << j;
                }
                running = next;
            }
            return running != 0;
        };
        java.util.function.IntFunction<LongPredicate> leanR = R -> x -> {
            long hh = h.hash(x);
            long off = io.bloomstore.internal.hashing.ProbeMath.reduce(hh, blocks) << 6;
            long h2 = io.bloomstore.internal.hashing.ProbeMath.secondHash(hh);
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
        LongPredicate floorR = x -> {
            long hh = h.hash(x);
            long off = io.bloomstore.internal.hashing.ProbeMath.reduce(hh, blocks) << 6;
            long acc = 0;
            for (int j = 0; j < addr.length; j++) acc ^= M.readLong(addr[j] + off);
            return (acc & 1) != 0;
        };
        LongPredicate[] variants = {
            x -> f.mightContain(x),
            x -> lq.anyHolds(h.hash(x), 0, all),
            x -> s0.mightContain(h.hash(x)),
            floor, floorR, lean, leanV, leanR.apply(2), leanR.apply(3), branchFree, masks,
        };
        String[] names = {"prod", "lockstep-mask", "one-slot", "floor9", "floor9-random", "lean", "leanV", "lean2",
            "lean3", "branchfree", "masks"};
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
                    line.append(String.format("%s %s %4.0f (%d) | ", names[v], p ? "P" : "A", (t1 - t0) / (double) N, d));
                }
            }
            if (round >= 3) System.out.println(line);
        }
    }
}
