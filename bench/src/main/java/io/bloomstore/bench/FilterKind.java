package io.bloomstore.bench;

import io.bloomstore.OpenMode;
import io.bloomstore.BloomSpec;
import io.bloomstore.internal.math.FalsePositiveMath;
import io.bloomstore.Layout;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The filters compared: Guava's, and bloomstore's in each layout, all sized for the same n at
 * the same false-positive rate {@link #FPP}. A JMH {@code @Param}, so every benchmark runs each
 * of them in the same run with the same keys.
 */
public enum FilterKind {
    /** {@code com.google.common.hash.BloomFilter}, on the heap. */
    GUAVA {
        @Override
        public BenchFilter createEmpty(long n, KeyType type, Path file) {
            return GuavaBenchFilter.create(n, FPP, type);
        }

        @Override
        public BenchFilter load(Path file, long n, KeyType type) throws IOException {
            return GuavaBenchFilter.load(file, n, FPP, type);
        }

        @Override
        public String fileName(long n, KeyType type) {
            return "guava-" + type.name().toLowerCase(Locale.ROOT) + "-n" + n + ".guava";
        }

        /** Guava's k: it sizes by the textbook formulas (m = -n ln p / (ln 2)^2, k = round(m / n ln 2)); 7 at p = 1 %. */
        @Override
        public int linesPerKey(long n) {
            return FalsePositiveMath.optimalHashes(FalsePositiveMath.optimalCells(n, FPP), n);
        }
    },
    /** bloomstore, standard layout (k cells anywhere). */
    STANDARD(Layout.STANDARD),
    /** bloomstore, blocked layout (k cells in one cache line). */
    BLOCKED(Layout.BLOCKED);

    /** The false-positive rate every filter is sized for. */
    public static final double FPP = 0.01;

    private final Layout layout;

    FilterKind() {
        this.layout = null;
    }

    FilterKind(Layout layout) {
        this.layout = layout;
    }

    /** bloomstore's spec for n keys at {@link #FPP} in this layout; not for {@link #GUAVA}. */
    public BloomSpec spec(long n) {
        if (layout == null) {
            throw new UnsupportedOperationException(this + " is not a bloomstore layout");
        }
        return BloomSpec.builder().expectedKeys(n).fpp(FPP).layout(layout).build();
    }

    /**
     * The cache lines a present key's query loads: k for Guava and the standard layout, whose
     * probes each land on a line of their own in a filter far larger than the caches; 1 for the
     * blocked layout. What a query's speed is compared with the memory path's limit by.
     */
    public int linesPerKey(long n) {
        return layout == Layout.BLOCKED ? 1 : spec(n).hashes();
    }

    /** A new, empty filter for n keys; bloomstore's lives in {@code file}, Guava's on the heap. */
    public BenchFilter createEmpty(long n, KeyType type, Path file) throws IOException {
        return BloomstoreBenchFilter.create(file, spec(n));
    }

    /** Opens (bloomstore, read-only) or reads (Guava) a filter stored by {@link BenchFilter#saveAndClose}. */
    public BenchFilter load(Path file, long n, KeyType type) throws IOException {
        return BloomstoreBenchFilter.open(file, OpenMode.READ_ONLY);
    }

    /**
     * A file name naming everything the stored filter depends on; for bloomstore that includes m
     * and k, so a change of the core's sizing never picks up a stale file.
     */
    public String fileName(long n, KeyType type) {
        BloomSpec spec = spec(n);
        return name().toLowerCase(Locale.ROOT) + "-" + type.name().toLowerCase(Locale.ROOT) + "-n" + n
                + "-m" + spec.cells() + "-k" + spec.hashes() + ".bloom";
    }
}
