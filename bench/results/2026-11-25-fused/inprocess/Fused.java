import io.bloomstore.*;
import io.bloomstore.internal.cells.*;
import io.bloomstore.internal.hashing.ProbeMath;
import io.bloomstore.internal.probe.CellProbes;
import java.nio.file.*;
import java.util.function.LongPredicate;

/**
 * Present and absent single queries by hash, in one JVM on one filter, the variants taking turns:
 * "lib", the library's CellProbes.mightContain (whichever jar is on the class path); "fused-volatile",
 * the same probing written out with every constant in a local and a volatile read per probe;
 * "fused-plain", the same with plain reads; "generic", fused-volatile with the cell arithmetic of any
 * counter width (the width's shifts from the property l2pw, 6 for bits, so not constants).
 * java ... Fused N STANDARD|BLOCKED ROUNDS (see README.md).
 */
public class Fused {
    static final net.openhft.chronicle.core.UnsafeMemory M = net.openhft.chronicle.core.UnsafeMemory.MEMORY;

    public static void main(String[] a) throws Exception {
        long n = Long.parseLong(a[0]);
        Layout layout = Layout.valueOf(a[1]);
        Path p = Path.of(System.getProperty("java.io.tmpdir"), "fused-" + layout + ".bloom");
        Files.deleteIfExists(p);
        BloomFilter bf = BloomFilter.create(p, BloomSpec.builder().expectedKeys(n).fpp(0.01).layout(layout).build());
        long[] all = new long[(int) n]; for (int i = 0; i < n; i++) all[i] = io.bloomstore.bench.Keys.mix(i);
        bf.addAll(all);
        int q = 1 << 20;
        long[] present = new long[q], absent = new long[q];
        KeyHasher h = bf.hasher();
        for (int i = 0; i < q; i++) {
            present[i] = h.hash(io.bloomstore.bench.Keys.mix((i * 0x9E3779B97F4A7C15L >>> 1) % n));
            absent[i] = h.hash(io.bloomstore.bench.Keys.mix(n + 1 + i) ^ 0x5555);
        }
        var cf = BloomFilter.class.getDeclaredField("cells"); cf.setAccessible(true);
        CellArray cells = (CellArray) cf.get(bf);
        var af = CellArray.class.getDeclaredField("address"); af.setAccessible(true);
        final long addr = (long) af.get(cells);
        BloomSpec spec = bf.spec(); final long m = spec.cells(); final int k = spec.hashes();
        final long[] cubic = new long[64]; for (int i = 0; i < 64; i++) cubic[i] = ((long) i * i * i - i) / 6 % m;
        final long[] golden = new long[64]; long pw = 1; for (int i = 0; i < 64; i++) { pw *= ProbeMath.GOLDEN; golden[i] = pw; }
        int perBlock = layout == Layout.BLOCKED ? spec.cellsPerBlock() : 1;
        final long blocks = m / perBlock; final int log2Block = Integer.numberOfTrailingZeros(perBlock); final int inShift = 64 - log2Block;
        var pf = BloomFilter.class.getDeclaredField("probes"); pf.setAccessible(true);
        CellProbes probes = (CellProbes) pf.get(bf);
        System.out.println(layout + " m=" + m + " k=" + k);
        LongPredicate lib = probes::mightContain;
        LongPredicate fused;
        LongPredicate plain;
        if (layout == Layout.STANDARD) {
            fused = hh -> {
                long h2 = ProbeMath.secondHash(hh);
                for (int i = 0; i < k; i++) {
                    long idx = ProbeMath.reduce(hh + i * h2, m) + cubic[i]; if (idx >= m) idx -= m;
                    if ((M.readVolatileLong(addr + ((idx >>> 6) << 3)) & (1L << idx)) == 0) return false;
                }
                return true;
            };
            plain = hh -> {
                long h2 = ProbeMath.secondHash(hh);
                for (int i = 0; i < k; i++) {
                    long idx = ProbeMath.reduce(hh + i * h2, m) + cubic[i]; if (idx >= m) idx -= m;
                    if ((M.readLong(addr + ((idx >>> 6) << 3)) & (1L << idx)) == 0) return false;
                }
                return true;
            };
        } else {
            fused = hh -> {
                long base = ProbeMath.reduce(hh, blocks) << log2Block;
                long h2 = ProbeMath.secondHash(hh);
                for (int i = 0; i < k; i++) {
                    long idx = base + ((h2 * golden[i]) >>> inShift);
                    if ((M.readVolatileLong(addr + ((idx >>> 6) << 3)) & (1L << idx)) == 0) return false;
                }
                return true;
            };
            plain = hh -> {
                long base = ProbeMath.reduce(hh, blocks) << log2Block;
                long h2 = ProbeMath.secondHash(hh);
                for (int i = 0; i < k; i++) {
                    long idx = base + ((h2 * golden[i]) >>> inShift);
                    if ((M.readLong(addr + ((idx >>> 6) << 3)) & (1L << idx)) == 0) return false;
                }
                return true;
            };
        }
        final int l2pw = Integer.parseInt(System.getProperty("l2pw", "6")); final long lm = (1L << l2pw) - 1; final int l2b = 6 - l2pw; final long mx = (1L << (1 << l2b)) - 1;
        LongPredicate generic;
        if (layout == Layout.STANDARD) {
            generic = hh -> {
                long h2 = ProbeMath.secondHash(hh);
                for (int i = 0; i < k; i++) {
                    long idx = ProbeMath.reduce(hh + i * h2, m) + cubic[i]; if (idx >= m) idx -= m;
                    if (((M.readVolatileLong(addr + ((idx >>> l2pw) << 3)) >>> ((idx & lm) << l2b)) & mx) == 0) return false;
                }
                return true;
            };
        } else {
            generic = hh -> {
                long base = ProbeMath.reduce(hh, blocks) << log2Block;
                long h2 = ProbeMath.secondHash(hh);
                for (int i = 0; i < k; i++) {
                    long idx = base + ((h2 * golden[i]) >>> inShift);
                    if (((M.readVolatileLong(addr + ((idx >>> l2pw) << 3)) >>> ((idx & lm) << l2b)) & mx) == 0) return false;
                }
                return true;
            };
        }
        LongPredicate[] v = { lib, fused, plain, generic };
        String[] names = { "lib", "fused-volatile", "fused-plain", "generic" };
        long[][] sets = { present, absent };
        String[] setNames = { "present", "absent" };
        int rounds = Integer.parseInt(a.length > 2 ? a[2] : "14");
        for (int r = 0; r < rounds; r++) {
            StringBuilder sb = new StringBuilder("round " + r + ": ");
            for (int s = 0; s < 2; s++) {
                for (int jj = 0; jj < v.length; jj++) {
                    int j = (jj + r) % v.length;
                    long t0 = System.nanoTime(); int c = 0;
                    for (long key : sets[s]) c += v[j].test(key) ? 1 : 0;
                    long t1 = System.nanoTime();
                    sb.append(String.format("%s/%s %.1f (%d) | ", setNames[s], names[j], (t1 - t0) / (double) q, c));
                }
            }
            if (r >= 4) System.out.println(sb);
        }
        bf.close();
        Files.deleteIfExists(p);
    }
}
