import io.bloomstore.*;
import io.bloomstore.internal.segment.Segment;
import io.bloomstore.internal.cells.*;
import io.bloomstore.internal.probe.*;
import io.bloomstore.internal.hashing.ProbeMath;
import io.bloomstore.bench.micro.SegmentedBenchmark.SteppedClock;
import java.nio.*;
import java.nio.file.*;
import java.util.function.LongPredicate;

/**
 * What a word-interleaved ring (word w of every slot side by side) would cost a standard ring's
 * query, against version 2's regions, on a copy of a filled SegmentedBenchmark fixture:
 * java InterleaveLatency RING FIXED N (compiled with ../../2026-11-24-ring-rounds/harness/RingLatency.java,
 * whose latency chains it runs).
 */
public class InterleaveLatency {
    /** Keeps the copy's buffer reachable: its cleaner would free the memory under the loops. */
    static ByteBuffer keep;
    static BloomFilter fixed;
    public static void main(String[] a) throws Exception {
        long n = Long.parseLong(a[2]);
        WindowedBloomFilter f = RingLatency.openAtEpoch8(Path.of(a[0]));
        fixed = BloomFilter.open(Path.of(a[1]), OpenMode.READ_ONLY);
        Segment[] slots = RingLatency.slots(f);
        long[] addr = RingLatency.slotAddresses(f);
        int S = addr.length;
        KeyHasher h = f.hasher();
        BloomSpec spec = slots[3].spec();
        int nh = spec.hashes();
        long m = spec.cells();
        var M = net.openhft.chronicle.core.UnsafeMemory.MEMORY;
        if (spec.layout() == Layout.BLOCKED) {
            blocked(f, h, addr, spec, n);
            return;
        }
        long words = (m + 63) >>> 6;
        ByteBuffer bb = ByteBuffer.allocateDirect((int) (words * S * 8 + 64));
        keep = bb;
        long raw = ((sun.nio.ch.DirectBuffer) bb).address();
        long ib = (raw + 63) & ~63L;
        for (long w = 0; w < words; w++)
            for (int s = 0; s < S; s++) M.writeLong(ib + (w * S + s) * 8, M.readLong(addr[s] + w * 8));
        long[] absent = absentKeys(1 << 19), present = presentKeys(1 << 19, n);
        System.out.println(spec.layout() + " k=" + nh + " m=" + m + " slots=" + S + " fixed " + fixed.spec());
        long[] cubic = new long[nh]; for (int i = 0; i < nh; i++) cubic[i] = ((long) i * i * i - i) / 6 % m;
        long allSlots = -1L >>> (64 - S);
        // every probe of every slot read at once, version 2's regions or the interleaved copy
        java.util.function.Function<Boolean, LongPredicate> all = ilv -> x -> {
            long hh = h.hash(x);
            long h2 = ProbeMath.secondHash(hh);
            long running = allSlots;
            for (int i = 0; i < nh; i++) {
                long idx = probe(hh, h2, i, m, cubic);
                long w = idx >>> 6; long bit = idx & 63;
                long g = 0;
                if (ilv) {
                    long p = ib + w * S * 8;
                    for (int j = 0; j < S; j++) g |= ((M.readLong(p + j * 8) >>> bit) & 1) << j;
                } else {
                    for (int j = 0; j < S; j++) g |= ((M.readLong(addr[j] + w * 8) >>> bit) & 1) << j;
                }
                running &= g;
            }
            return running != 0;
        };
        // rounds of W probes, slots still in the running only
        java.util.function.BiFunction<Boolean, Integer, LongPredicate> wide = (ilv, W) -> x -> {
            long hh = h.hash(x);
            long h2 = ProbeMath.secondHash(hh);
            long running = allSlots;
            int i = 0;
            while (i < nh && running != 0) {
                int stop = Math.min(nh, i + W);
                long got = running;
                for (; i < stop; i++) {
                    long idx = probe(hh, h2, i, m, cubic);
                    long w = idx >>> 6; long bit = idx & 63;
                    long g = 0;
                    if (ilv) {
                        long p = ib + w * S * 8;
                        for (long r = running; r != 0; r &= r - 1) {
                            int j = Long.numberOfTrailingZeros(r);
                            g |= ((M.readLong(p + j * 8) >>> bit) & 1) << j;
                        }
                    } else {
                        for (long r = running; r != 0; r &= r - 1) {
                            int j = Long.numberOfTrailingZeros(r);
                            g |= ((M.readLong(addr[j] + w * 8) >>> bit) & 1) << j;
                        }
                    }
                    got &= g;
                }
                running = got;
            }
            return running != 0;
        };
        // the probes' words of the interleaved copy first into locals (all loads issued), then combined
        LongPredicate ilvLoadAll = x -> {
            long hh = h.hash(x);
            long h2 = ProbeMath.secondHash(hh);
            long sum = 0;
            long[] ws = new long[nh]; long[] bits = new long[nh];
            for (int i = 0; i < nh; i++) {
                long idx = probe(hh, h2, i, m, cubic);
                ws[i] = ib + (idx >>> 6) * S * 8; bits[i] = idx & 63;
                sum += M.readLong(ws[i]) + M.readLong(ws[i] + (S - 1) * 8);
            }
            long running = allSlots;
            for (int i = 0; i < nh && running != 0; i++) {
                long g = 0;
                for (long r = running; r != 0; r &= r - 1) {
                    int j = Long.numberOfTrailingZeros(r);
                    g |= ((M.readLong(ws[i] + j * 8) >>> bits[i]) & 1) << j;
                }
                running &= g;
            }
            return running != 0 || sum == 0x1234567L;
        };
        RingLatency.chains(absent, present, new String[] {"prod", "fixed", "v2-all", "v2-wide2", "ilv-all", "ilv-wide2", "ilv-wide7", "ilv-loadall"},
                x -> f.mightContain(x), x -> fixed.mightContain(x), all.apply(false), wide.apply(false, 2),
                all.apply(true), wide.apply(true, 2), wide.apply(true, 7), ilvLoadAll);
    }

    /** The blocked layout: block b of every slot side by side (9 adjacent lines), against version 2's regions. */
    static void blocked(WindowedBloomFilter f, KeyHasher h, long[] addr, BloomSpec spec, long n) {
        var M = net.openhft.chronicle.core.UnsafeMemory.MEMORY;
        int S = addr.length, nh = spec.hashes();
        long blocks = spec.cells() / spec.cellsPerBlock();
        ByteBuffer bb = ByteBuffer.allocateDirect((int) (blocks * S * 64 + 4096));
        keep = bb;
        long ib = (((sun.nio.ch.DirectBuffer) bb).address() + 4095) & ~4095L;
        for (long b = 0; b < blocks; b++)
            for (int s = 0; s < S; s++)
                for (int w = 0; w < 8; w++) M.writeLong(ib + ((b * S + s) * 8 + w) * 8, M.readLong(addr[s] + (b * 8 + w) * 8));
        long[] absent = absentKeys(1 << 20), present = presentKeys(1 << 20, n);
        System.out.println(spec.layout() + " k=" + nh + " blocks=" + blocks + " slots=" + S + " fixed " + fixed.spec());
        long[] gp = new long[nh]; long pw = 1; for (int i = 0; i < nh; i++) { pw *= ProbeMath.GOLDEN; gp[i] = pw; }
        java.util.function.Function<Boolean, LongPredicate> floorR = ilv -> x -> {
            long hh = h.hash(x);
            long b = ProbeMath.reduce(hh, blocks);
            long acc = 0;
            if (ilv) { long p = ib + b * S * 64; for (int j = 0; j < S; j++) acc ^= M.readLong(p + j * 64); }
            else for (int j = 0; j < S; j++) acc ^= M.readLong(addr[j] + (b << 6));
            return (acc & 1) != 0;
        };
        java.util.function.Function<Boolean, LongPredicate> lean = ilv -> x -> {
            long hh = h.hash(x);
            long b = ProbeMath.reduce(hh, blocks);
            long h2 = ProbeMath.secondHash(hh);
            long[] base = new long[S];
            for (int j = 0; j < S; j++) base[j] = ilv ? ib + (b * S + j) * 64 : addr[j] + (b << 6);
            long bit = (h2 * gp[0]) >>> 55;
            long running = 0;
            for (int j = 0; j < S; j++) running |= ((M.readLong(base[j] + ((bit >>> 6) << 3)) >>> bit) & 1) << j;
            for (int i = 1; i < nh && running != 0; i++) {
                bit = (h2 * gp[i]) >>> 55;
                long next = 0;
                for (long r = running; r != 0; r &= r - 1) {
                    int j = Long.numberOfTrailingZeros(r);
                    next |= ((M.readLong(base[j] + ((bit >>> 6) << 3)) >>> bit) & 1) << j;
                }
                running = next;
            }
            return running != 0;
        };
        RingLatency.chains(absent, present, new String[] {"prod", "fixed", "v2-floorR", "ilv-floorR", "v2-lean", "ilv-lean"},
                x -> f.mightContain(x), x -> fixed.mightContain(x), floorR.apply(false), floorR.apply(true), lean.apply(false), lean.apply(true));
    }

    /** Keys never added, as RingLatency's. */
    static long[] absentKeys(int count) {
        long[] keys = new long[count];
        for (int i = 0; i < count; i++) keys[i] = io.bloomstore.bench.Keys.mix((1L << 62) + i);
        return keys;
    }

    /** Keys of the n added, spread over them, as RingLatency's. */
    static long[] presentKeys(int count, long n) {
        long[] keys = new long[count];
        for (int i = 0; i < count; i++) keys[i] = io.bloomstore.bench.Keys.mix((i * 0x9E3779B97F4A7C15L >>> 1) % n);
        return keys;
    }

    /** Probe i of a key in a standard slot of m cells: the library's probing (Probing.Standard). */
    static long probe(long hh, long h2, int i, long m, long[] cubic) {
        long idx = ProbeMath.reduce(hh + i * h2, m) + cubic[i];
        return idx >= m ? idx - m : idx;
    }
}
