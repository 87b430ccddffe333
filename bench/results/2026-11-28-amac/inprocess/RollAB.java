import io.bloomstore.*;
import io.bloomstore.bench.Keys;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.*;

/** Batch queries of the 200 M standard fixture: CPU ns per key, present / absent / mixed. */
public class RollAB {
    public static void main(String[] a) throws Exception {
        Path file = Path.of(a[0]);
        long n = Long.parseLong(a[1]);
        int rounds = Integer.parseInt(a[2]);
        int per = Integer.parseInt(a[3]);
        int batch = 1000;
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long[] keys = new long[batch];
        boolean[] results = new boolean[batch];
        long offset = 0;
        if (a.length > 4 && !Files.exists(file)) {
            BloomSpec spec = BloomSpec.builder().expectedKeys(n).fpp(0.01).counterBits(Integer.parseInt(a[4])).build();
            try (BloomFilter f = BloomFilter.create(file, spec)) {
                long[] k = new long[100_000];
                for (long from = 0; from < n; from += k.length) {
                    for (int i = 0; i < k.length; i++) k[i] = Keys.longKey(from + i);
                    f.addAll(k);
                }
                f.sync();
                System.out.println("created " + file + " fill " + f.stats().fillRatio());
            }
        }
        try (BloomFilter f = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            // correctness sample against single calls
            for (int kind = 0; kind < 3; kind++) {
                for (int r = 0; r < 50; r++) {
                    fill(keys, kind, offset, n); offset = (offset + batch) % n;
                    int c = f.mightContainAll(keys, results);
                    int c2 = 0;
                    for (int i = 0; i < batch; i++) {
                        boolean one = f.mightContain(keys[i]);
                        if (one != results[i]) throw new AssertionError("key " + i);
                        c2 += one ? 1 : 0;
                    }
                    if (c != c2) throw new AssertionError("count");
                }
            }
            String[] names = {"present", "absent", "mixed"};
            for (int r = 0; r < rounds; r++) {
                StringBuilder line = new StringBuilder("round " + r);
                for (int kind = 0; kind < 3; kind++) {
                    long found = 0;
                    long cpu = 0;
                    long t0 = System.nanoTime();
                    for (int done = 0; done < per; done += batch) {
                        fill(keys, kind, offset, n); offset = (offset + batch) % n;
                        long c0 = mx.getCurrentThreadCpuTime();
                        found += f.mightContainAll(keys, results);
                        cpu += mx.getCurrentThreadCpuTime() - c0;
                    }
                    double wall = (System.nanoTime() - t0) / (double) per;
                    line.append(String.format(" %s %.1f", names[kind], cpu / (double) per));
                }
                System.out.println(line);
            }
        }
    }

    static void fill(long[] keys, int kind, long first, long n) {
        for (int i = 0; i < keys.length; i++) {
            long idx = first + i;
            long present = idx, absent = Keys.ABSENT_BASE + idx;
            long chosen = kind == 0 ? present : kind == 1 ? absent : ((Keys.mix(idx) & 1) == 0 ? present : absent);
            keys[i] = Keys.longKey(chosen);
        }
    }
}
