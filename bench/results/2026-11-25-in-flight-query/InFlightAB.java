import io.bloomstore.*;
import java.nio.file.*;

/** Batch queries of a standard 200 M-key filter: present, absent, half and half; ns per key. */
public class InFlightAB {
    public static void main(String[] a) throws Exception {
        Path file = Path.of(a[0]);
        long n = Long.parseLong(a[1]);
        int rounds = Integer.parseInt(a[2]);
        if (!Files.exists(file)) {
            BloomSpec spec = BloomSpec.builder().expectedKeys(n).fpp(0.01).build();
            try (BloomFilter f = BloomFilter.create(file, spec)) {
                long[] keys = new long[1 << 16];
                for (long from = 0; from < n; from += keys.length) {
                    int size = (int) Math.min(keys.length, n - from);
                    long[] k = size == keys.length ? keys : new long[size];
                    for (int i = 0; i < size; i++) k[i] = from + i;
                    f.addAll(k);
                }
                f.sync();
            }
            System.out.println("created " + file);
        }
        int batch = 1000, per = 4_000_000;
        long[] keys = new long[batch];
        boolean[] results = new boolean[batch];
        java.util.SplittableRandom random = new java.util.SplittableRandom(42);
        try (BloomFilter f = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            for (int r = 0; r < rounds; r++) {
                StringBuilder line = new StringBuilder("round " + r);
                for (String kind : new String[] {"present", "absent", "mixed"}) {
                    long found = 0;
                    long t0 = System.nanoTime();
                    for (int done = 0; done < per; done += batch) {
                        for (int i = 0; i < batch; i++) {
                            long present = random.nextLong(n);
                            long absent = (1L << 40) + random.nextLong(1L << 40);
                            keys[i] = kind.equals("present") ? present : kind.equals("absent") ? absent : (i & 1) == 0 ? present : absent;
                        }
                        found += f.mightContainAll(keys, results);
                    }
                    double ns = (System.nanoTime() - t0) / (double) per;
                    line.append(String.format(" | %s %.1f ns (%d)", kind, ns, found));
                }
                System.out.println(line);
            }
        }
    }
}
