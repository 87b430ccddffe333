import io.bloomstore.*;
import io.bloomstore.internal.cells.*;
import io.bloomstore.internal.hashing.ProbeMath;
import io.bloomstore.internal.probe.CellProbes;
import java.nio.file.*;

/** Single adds by hash into a new filter of n keys: the library's CellProbes.increment against a fused loop with its constants in locals. */
public class Adds {
    static final net.openhft.chronicle.core.UnsafeMemory M = net.openhft.chronicle.core.UnsafeMemory.MEMORY;
    interface Adder { boolean add(long hash); }
    static Object field(Object o, Class<?> c, String name) throws Exception { var f = c.getDeclaredField(name); f.setAccessible(true); return f.get(o); }
    public static void main(String[] a) throws Exception {
        long n = Long.parseLong(a[0]);
        Layout layout = Layout.valueOf(a[1]);
        int rounds = Integer.parseInt(a[2]);
        long[] hashes = new long[(int) n];
        BloomSpec spec = BloomSpec.builder().expectedKeys(n).fpp(0.01).layout(layout).build();
        final long m = spec.cells(); final int k = spec.hashes();
        final long[] cubic = new long[64]; for (int i = 0; i < 64; i++) cubic[i] = ((long) i * i * i - i) / 6 % m;
        final long[] golden = new long[64]; long pw = 1; for (int i = 0; i < 64; i++) { pw *= ProbeMath.GOLDEN; golden[i] = pw; }
        int perBlock = layout == Layout.BLOCKED ? spec.cellsPerBlock() : 1;
        final long blocks = m / perBlock; final int log2Block = Integer.numberOfTrailingZeros(perBlock); final int inShift = 64 - log2Block;
        String[] names = { "lib", "fused" };
        for (int r = 0; r < rounds; r++) {
            StringBuilder sb = new StringBuilder("round " + r + ": ");
            for (int jj = 0; jj < 2; jj++) {
                int j = (jj + r) % 2;
                Path p = Path.of(System.getProperty("java.io.tmpdir"), "adds-" + layout + j + ".bloom");
                Files.deleteIfExists(p);
                try (BloomFilter bf = BloomFilter.create(p, spec)) {
                    KeyHasher h = bf.hasher();
                    for (int i = 0; i < n; i++) hashes[i] = h.hash(io.bloomstore.bench.Keys.mix(i + r * n));
                    CellArray cells = (CellArray) field(bf, BloomFilter.class, "cells");
                    final long addr = (long) field(cells, CellArray.class, "address");
                    CellProbes probes = (CellProbes) field(bf, BloomFilter.class, "probes");
                    Adder adder;
                    if (j == 0) adder = probes::increment;
                    else if (layout == Layout.STANDARD) adder = hh -> {
                        long h2 = ProbeMath.secondHash(hh); boolean changed = false;
                        for (int i = 0; i < k; i++) {
                            long idx = ProbeMath.reduce(hh + i * h2, m) + cubic[i]; if (idx >= m) idx -= m;
                            changed |= set(addr, idx);
                        }
                        return changed;
                    };
                    else adder = hh -> {
                        long base = ProbeMath.reduce(hh, blocks) << log2Block;
                        long h2 = ProbeMath.secondHash(hh); boolean changed = false;
                        for (int i = 0; i < k; i++) changed |= set(addr, base + ((h2 * golden[i]) >>> inShift));
                        return changed;
                    };
                    long t0 = System.nanoTime(); int c = 0;
                    for (long hh : hashes) c += adder.add(hh) ? 1 : 0;
                    long t1 = System.nanoTime();
                    sb.append(String.format("%s %.1f (%d, %d set) | ", names[j], (t1 - t0) / (double) n, c, cells.countNonZero()));
                }
                Files.deleteIfExists(p);
            }
            if (r >= 3) System.out.println(sb);
        }
    }
    static boolean set(long address, long i) {
        long at = address + ((i >>> 6) << 3); long bit = 1L << i;
        while (true) {
            long w = M.readVolatileLong(at);
            if ((w & bit) != 0) return false;
            if (M.compareAndSwapLong(at, w, w | bit)) return true;
        }
    }
}
