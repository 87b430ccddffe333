package io.bloomstore.bench.accuracy;

import io.bloomstore.bench.BenchDirs;
import io.bloomstore.bench.BenchFilter;
import io.bloomstore.bench.ComparedFilter;
import io.bloomstore.bench.Fixtures;
import io.bloomstore.bench.KeyChunk;
import io.bloomstore.bench.KeyType;
import io.bloomstore.bench.Keys;
import io.bloomstore.BloomFilter;
import io.bloomstore.CreateOption;
import io.bloomstore.BloomSpec;
import io.bloomstore.internal.math.FalsePositiveMath;
import io.bloomstore.Layout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Bits per key against the false-positive rate, measured: the table of docs/BENCHMARKS.md
 * ("Accuracy"). For each bits-per-key setting, {@value #FILTERS} filters of {@value #KEYS} keys per
 * layout, each queried with {@value #QUERIES} absent keys; the rate with its binomial standard error,
 * beside the model the sizing uses ({@link FalsePositiveMath}).
 *
 * <p>The peer is RocksDB's FastLocalBloom, whose in-line probing is reproduced here on a plain
 * {@code long[]}: the same keys and hashes, the same number of 512-bit blocks, the same k, and its
 * probe sequence (block by 32-bit fastrange of the hash's low half; probe i is the top 9 bits of the
 * high half times 0x9e3779b9^i, modulo 2^32). So the two columns differ by the probing alone.
 *
 * <p>A second table sets every {@link ComparedFilter} side by side at the benchmarks' own sizing (n keys
 * at target p = {@link ComparedFilter#FPP}, each filter sized its own way): the bits per key each
 * actually uses and the false-positive rate it measures, over {@value #FILTERS_PER_KIND} filters of
 * {@value #KEYS} long keys, each queried with {@value #QUERIES} absent keys.
 *
 * <pre>java --add-modules=jdk.incubator.foreign -cp bench/target/benchmarks.jar io.bloomstore.bench.accuracy.FppTable [target]</pre>
 * (the module for DataSketches, JDK 17 only: see bench/pom.xml; {@code target}: the second table only).
 */
public final class FppTable {
    /** bloomstore's own layouts; the imported ones (Parquet's) answer as their writers' and are tested against them. */
    private static final List<Layout> NATIVE_LAYOUTS = List.of(Layout.STANDARD, Layout.BLOCKED, Layout.SECTORIZED);

    private static final int KEYS = 1_000_000;
    private static final int FILTERS = 16;
    private static final int QUERIES = 4_000_000;
    private static final int BLOCK_BITS = 512;
    private static final int[] BITS_PER_KEY = {6, 8, 10, 12, 16, 20};
    private static final int FILTERS_PER_KIND = 4;

    private FppTable() {
    }

    /** With the argument {@code target}, only the second table (the first takes minutes). */
    public static void main(String[] args) throws IOException {
        boolean targetOnly = args.length > 0 && args[0].equals("target");
        Path dir = BenchDirs.scratch("fpp-");
        try {
            if (!targetOnly) {
                System.out.println("| bits/key | layout | k | bloomstore, measured | model | RocksDB FastLocalBloom probing, measured |");
                System.out.println("| --- | --- | --- | --- | --- | --- |");
                for (int bits : BITS_PER_KEY) {
                    for (Layout layout : NATIVE_LAYOUTS) {
                        row(dir, bits, layout);
                    }
                }
                System.out.println();
            }
            System.out.printf(Locale.ROOT, "| filter | bits/key used | false positives at target p = %.2f%%, measured |%n",
                    ComparedFilter.FPP * 100);
            System.out.println("| --- | --- | --- |");
            for (ComparedFilter kind : ComparedFilter.values()) {
                atTarget(dir, kind);
            }
        } finally {
            BenchDirs.deleteTree(dir);
        }
    }

    private static void row(Path dir, int bitsPerKey, Layout layout) throws IOException {
        long cells = (long) bitsPerKey * KEYS;
        int k = switch (layout) {
            case BLOCKED -> rocksDbProbes(bitsPerKey * 1000);
            case SECTORIZED -> bestSectorizedHashes(cells);
            case STANDARD -> FalsePositiveMath.optimalHashes(cells, KEYS);
            default -> throw new IllegalArgumentException(layout + " has its own accuracy test");
        };
        BloomSpec spec = BloomSpec.builder().cells(cells).hashes(k).layout(layout).build();
        long ours = 0;
        long theirs = 0;
        for (int f = 0; f < FILTERS; f++) {
            long firstKey = (long) f * KEYS;
            Path file = dir.resolve("f.bloom");
            try (BloomFilter filter = BloomFilter.create(file, spec, CreateOption.SPARSE, CreateOption.REPLACE_EXISTING)) {
                FastLocalBloom peer = new FastLocalBloom(spec.cells() / BLOCK_BITS, k);
                for (long i = firstKey; i < firstKey + KEYS; i++) {
                    long hash = filter.hasher().hash(Keys.longKey(i));
                    filter.addHash(hash);
                    peer.add(hash);
                }
                for (long i = 0; i < QUERIES; i++) {
                    long hash = filter.hasher().hash(Keys.longKey(Keys.ABSENT_BASE + firstKey * 4 + i));
                    ours += filter.mightContainHash(hash) ? 1 : 0;
                    theirs += peer.mightContain(hash) ? 1 : 0;
                }
            }
            Files.deleteIfExists(file);
        }
        double model = spec.expectedFpp(KEYS);
        System.out.printf(Locale.ROOT, "| %d | %s | %d | %s | %.4f%% | %s |%n", bitsPerKey,
                layout.name().toLowerCase(Locale.ROOT), k, rate(ours), model * 100,
                layout == Layout.BLOCKED ? rate(theirs) : "");
    }

    /**
     * The k of least modelled rate for a sectorized filter of {@code cells} cells: the textbook k
     * may be an odd prime, which puts all its bits in one word (docs/FORMAT.md, "Sectorized layout").
     */
    private static int bestSectorizedHashes(long cells) {
        int best = 2;
        for (int k = 3; k <= 16; k++) {
            if (fpp(cells, k) < fpp(cells, best)) {
                best = k;
            }
        }
        return best;
    }

    private static double fpp(long cells, int k) {
        return BloomSpec.builder().cells(cells).hashes(k).layout(Layout.SECTORIZED).build().expectedFpp(KEYS);
    }

    /** One filter kind at the benchmarks' sizing: its bits per key and its measured rate. */
    private static void atTarget(Path dir, ComparedFilter kind) throws IOException {
        KeyChunk chunk = new KeyChunk(KeyType.LONG);
        long positives = 0;
        long bits = 0;
        for (int f = 0; f < FILTERS_PER_KIND; f++) {
            long firstKey = (long) f * KEYS;
            try (BenchFilter filter = kind.createEmpty(KEYS, KeyType.LONG, dir.resolve("target.bloom"))) {
                Fixtures.addKeys(filter, KeyType.LONG, firstKey, KEYS, 1);
                bits = filter.bits();
                for (long q = 0; q < QUERIES; q += KeyChunk.SIZE) {
                    chunk.fill(Keys.ABSENT_BASE + firstKey * 4 + q);
                    positives += filter.mightContainEach(chunk);
                }
            }
        }
        System.out.printf(Locale.ROOT, "| %s | %.2f | %s |%n", kind.name().toLowerCase(Locale.ROOT), bits / (double) KEYS,
                rate(positives, (double) FILTERS_PER_KIND * QUERIES));
    }

    /** A rate over all queries with its binomial standard error, sqrt(p (1 - p) / N), in per cent. */
    private static String rate(long positives) {
        return rate(positives, (double) FILTERS * QUERIES);
    }

    private static String rate(long positives, double trials) {
        double p = positives / trials;
        return String.format(Locale.ROOT, "%.4f%% ± %.4f%%", p * 100, Math.sqrt(p * (1 - p) / trials) * 100);
    }

    /** RocksDB's FastLocalBloomImpl::ChooseNumProbes for the settings tabled here. */
    private static int rocksDbProbes(int millibitsPerKey) {
        int[] limits = {2080, 3580, 5100, 6640, 8300, 10070, 11720, 14001, 16050, 18300, 22001};
        for (int i = 0; i < limits.length; i++) {
            if (millibitsPerKey <= limits[i]) {
                return i + 1;
            }
        }
        return 12;
    }

    /** RocksDB's FastLocalBloom probing, on the heap, for the accuracy comparison only. */
    private static final class FastLocalBloom {
        private static final int GOLDEN32 = 0x9e3779b9;
        private final long[] words;
        private final long blocks;
        private final int probes;

        FastLocalBloom(long blocks, int probes) {
            this.words = new long[Math.toIntExact(blocks * (BLOCK_BITS / Long.SIZE))];
            this.blocks = blocks;
            this.probes = probes;
        }

        void add(long hash) {
            long firstBit = block(hash);
            int h = (int) (hash >>> 32);
            for (int i = 0; i < probes; i++, h *= GOLDEN32) {
                long bit = firstBit + (h >>> (32 - 9));
                words[(int) (bit >>> 6)] |= 1L << bit;
            }
        }

        boolean mightContain(long hash) {
            long firstBit = block(hash);
            int h = (int) (hash >>> 32);
            for (int i = 0; i < probes; i++, h *= GOLDEN32) {
                long bit = firstBit + (h >>> (32 - 9));
                if ((words[(int) (bit >>> 6)] & (1L << bit)) == 0) {
                    return false;
                }
            }
            return true;
        }

        /** FastRange32 of the hash's low half over the blocks, as a bit index. */
        private long block(long hash) {
            return ((hash & 0xFFFF_FFFFL) * blocks >>> 32) * BLOCK_BITS;
        }
    }
}
