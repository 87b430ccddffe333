import io.bloomstore.*;
import io.bloomstore.internal.segment.Segment;
import io.bloomstore.internal.cells.*;
import io.bloomstore.internal.probe.*;
import io.bloomstore.internal.hashing.ProbeMath;
import io.bloomstore.bench.micro.SegmentedBenchmark.SteppedClock;
import java.nio.file.*;
import java.util.function.LongPredicate;

/**
 * In-process latency chains of a standard ring's query and of rounds of W probes written out by
 * hand, on a filled SegmentedBenchmark fixture: java StandardRingLatency FILE N (see ../README.md).
 */
public class StandardRingLatency {
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
        var gf = LockstepQueries.class.getDeclaredField("arrays"); gf.setAccessible(true);
        var af = CellArrayGroup.class.getDeclaredField("addresses"); af.setAccessible(true);
        long[] addr = (long[]) af.get(gf.get(lq));
        int ring = slots.length;
        KeyHasher h = f.hasher();
        BloomSpec spec = slots[0].spec();
        long m = spec.cells(); int nh = spec.hashes();
        long[] cubic = new long[nh]; for (int i = 0; i < nh; i++) cubic[i] = ((long) i * i * i - i) / 6 % m;
        var M = net.openhft.chronicle.core.UnsafeMemory.MEMORY;
        System.out.println("k=" + nh + " m=" + m + " ring=" + ring);
        int N = 1 << 19;
        long[] absent = new long[N], present = new long[N];
        for (int i = 0; i < N; i++) {
            absent[i] = io.bloomstore.bench.Keys.mix((1L << 62) + i);
            present[i] = io.bloomstore.bench.Keys.mix((i * 0x9E3779B97F4A7C15L >>> 1) % n);
        }
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
        LongPredicate[] variants = { x -> f.mightContain(x), wide.apply(1), wide.apply(2), wide.apply(3) };
        String[] names = {"prod", "wide1", "wide2", "wide3"};
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
            if (round >= 2) System.out.println(line);
        }
    }
}
