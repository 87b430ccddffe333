package io.bloomstore.bench.accuracy;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Whether a filter of each layout meets the false-positive rate it was asked for on real keys, and
 * what it pays for it in bits: the table of docs/BENCHMARKS.md ("Accuracy on real keys"). For each
 * layout and each requested p, a filter sized by the library for the half of the keys put
 * ({@link RealKeyRates}: a key file's lines, shuffled and halved each round), asked the other
 * half; the rate beside the sizing's own prediction for that n, which is at or below p.
 *
 * <pre>java -cp bench/target/benchmarks.jar io.bloomstore.bench.accuracy.LayoutAccuracy KEYFILE [DIR]</pre>
 * (DIR: where the filter file is made, a temporary directory if not given; it is deleted after).
 */
public final class LayoutAccuracy {
    private static final long SEED = 20261128L;
    private static final int ROUNDS = 5;
    private static final List<Layout> LAYOUTS = List.of(Layout.STANDARD, Layout.BLOCKED, Layout.SECTORIZED);
    private static final double[] RATES = {0.01, 0.001};

    private LayoutAccuracy() {
    }

    /**
     * Prints the table.
     *
     * @param args the key file, then optionally the directory for the filter file
     * @throws IOException if the keys cannot be read or a filter file written
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: LayoutAccuracy KEYFILE [DIR]: a file of distinct keys, one per line");
            System.exit(2);
        }
        Path file = (args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("layout-accuracy")).resolve("f.bloom");
        RealKeyRates rows = new RealKeyRates();
        RealKeyRates.rounds(Path.of(args[0]), ROUNDS, SEED, (put, absent, first) -> {
            for (double p : RATES) {
                for (Layout layout : LAYOUTS) {
                    BloomSpec spec = BloomSpec.builder().expectedKeys(put.size()).fpp(p).layout(layout).build();
                    try (BloomFilter filter = BloomFilter.create(file, spec)) {
                        put.forEach(filter::add);
                        String row = String.format(Locale.ROOT, "%s, p = %s %%, k = %d, %.2f bits a key",
                                layout.toString().toLowerCase(Locale.ROOT), p * 100, spec.hashes(),
                                spec.cells() / (double) put.size());
                        rows.tally(row, spec.expectedFpp(put.size()) * absent.size(),
                                absent.stream().filter(filter::mightContain).count(), absent.size());
                    } finally {
                        Files.deleteIfExists(file);
                    }
                }
            }
        });
        rows.print("plain filters by layout, each sized for the keys put at the requested p");
    }
}
