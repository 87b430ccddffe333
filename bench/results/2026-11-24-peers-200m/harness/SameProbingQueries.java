import io.bloomstore.*;
import io.bloomstore.internal.cells.*;
import io.bloomstore.internal.hashing.ProbeMath;
import java.nio.file.*;
import java.util.function.LongPredicate;

/**
 * Single-call queries of present keys, independent (throughput): bloomstore's standard filter,
 * FastFilter's Bloom, and bloomstore's probing written out by hand over its mapping (plain and
 * volatile reads, and through CellArray.getVolatile), over a heap copy of its cells, and the
 * filter's CellProbes.mightContain on its own: java SameProbingQueries N (see ../README.md).
 */
public class SameProbingQueries {
    public static void main(String[] a) throws Exception {
        long n = Long.parseLong(a[0]);
        Path p = Path.of(System.getProperty("java.io.tmpdir"), "same-probing.bloom");
        Files.deleteIfExists(p);
        BloomFilter bf = BloomFilter.create(p, BloomSpec.forExpected(n, 0.01));
        long[] keys = new long[1 << 20];
        long[] hashes = new long[keys.length];
        long[] all = new long[(int) n]; for (int i = 0; i < n; i++) all[i] = io.bloomstore.bench.Keys.mix(i);
        bf.addAll(all);
        org.fastfilter.bloom.Bloom ff = org.fastfilter.bloom.Bloom.construct(all, 10);
        for (int i = 0; i < keys.length; i++) { keys[i] = io.bloomstore.bench.Keys.mix((i * 0x9E3779B97F4A7C15L >>> 1) % n); hashes[i] = bf.hasher().hash(keys[i]); }
        var cf = BloomFilter.class.getDeclaredField("cells"); cf.setAccessible(true);
        CellArray cells = (CellArray) cf.get(bf);
        var af = CellArray.class.getDeclaredField("address"); af.setAccessible(true);
        long addr = (long) af.get(cells);
        BloomSpec spec = bf.spec(); long m = spec.cells(); int k = spec.hashes();
        long[] cubic = new long[k]; for (int i = 0; i < k; i++) cubic[i] = ((long) i * i * i - i) / 6 % m;
        var M = net.openhft.chronicle.core.UnsafeMemory.MEMORY;
        System.out.println("m=" + m + " k=" + k + " ff bits=" + ff.getBitCount());
        KeyHasher h = bf.hasher();
        // The hand-written loops below differ only in how a cell is read, and are written out each:
        // a reader passed in would be one call site for all of them, not inlined, and measured.
        LongPredicate hand = x -> {
            long hh = h.hash(x); long h2 = ProbeMath.secondHash(hh);
            for (int i = 0; i < k; i++) {
                long idx = ProbeMath.reduce(hh + i * h2, m) + cubic[i]; if (idx >= m) idx -= m;
                if ((M.readLong(addr + ((idx >>> 6) << 3)) & (1L << idx)) == 0) return false;
            }
            return true;
        };
        LongPredicate handV = x -> {
            long hh = h.hash(x); long h2 = ProbeMath.secondHash(hh);
            for (int i = 0; i < k; i++) {
                long idx = ProbeMath.reduce(hh + i * h2, m) + cubic[i]; if (idx >= m) idx -= m;
                if ((M.readVolatileLong(addr + ((idx >>> 6) << 3)) & (1L << idx)) == 0) return false;
            }
            return true;
        };
        long[] heap = new long[(int) ((m + 63) / 64)];
        for (int w = 0; w < heap.length; w++) heap[w] = M.readLong(addr + ((long) w << 3));
        LongPredicate handHeap = x -> {
            long hh = h.hash(x); long h2 = ProbeMath.secondHash(hh);
            for (int i = 0; i < k; i++) {
                long idx = ProbeMath.reduce(hh + i * h2, m) + cubic[i]; if (idx >= m) idx -= m;
                if ((heap[(int) (idx >>> 6)] & (1L << idx)) == 0) return false;
            }
            return true;
        };
        var pf = BloomFilter.class.getDeclaredField("probes"); pf.setAccessible(true);
        io.bloomstore.internal.probe.CellProbes probes = (io.bloomstore.internal.probe.CellProbes) pf.get(bf);
        LongPredicate cellsRead = x -> {
            long hh = h.hash(x); long h2 = ProbeMath.secondHash(hh);
            for (int i = 0; i < k; i++) {
                long idx = ProbeMath.reduce(hh + i * h2, m) + cubic[i]; if (idx >= m) idx -= m;
                if (cells.getVolatile(idx) == 0) return false;
            }
            return true;
        };
        LongPredicate[] v = { bf::mightContain, x -> bf.mightContainHash(h.hash(x)), ff::mayContain, hand, handV, handHeap, x -> probes.mightContain(h.hash(x)), cellsRead };
        String[] names = { "bloomstore", "bs-hash+query", "fastfilter", "hand-plain", "hand-volatile", "hand-heap", "probes", "hand+CellArray" };
        for (int r = 0; r < 12; r++) {
            StringBuilder sb = new StringBuilder();
            for (int j = 0; j < v.length; j++) {
                long t0 = System.nanoTime(); int c = 0;
                for (long key : keys) c += v[j].test(key) ? 1 : 0;
                long t1 = System.nanoTime();
                sb.append(String.format("%s %4.0f (%d) | ", names[j], (t1 - t0) / (double) keys.length, c));
            }
            if (r >= 4) System.out.println(sb);
        }
        bf.close();
    }
}
