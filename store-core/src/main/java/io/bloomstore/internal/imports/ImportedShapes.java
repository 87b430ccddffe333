package io.bloomstore.internal.imports;

import io.bloomstore.BloomSpec;
import io.bloomstore.HashAlgorithm;
import io.bloomstore.Layout;

/**
 * The shapes of the layouts that hold another library's bit array as it is ({@link Layout#GUAVA},
 * {@link Layout#SPARK_SKETCH}): what their header fields must be, and how the seed field carries
 * what the library's stream says about its probing (docs/FORMAT.md, "Imported layouts"). They are
 * made by an import, never sized from n and p: their m and k are the library's.
 */
public final class ImportedShapes {
    /** Guava's strategy ordinal 0: the 32-bit combination of the hash's first half. */
    public static final int GUAVA_MITZ_32 = 0;
    /** Guava's strategy ordinal 1: the 64-bit combination of both halves, Guava's default. */
    public static final int GUAVA_MITZ_64 = 1;

    private ImportedShapes() {
    }

    /** Whether {@code layout} is one of another library's. */
    public static boolean isImported(Layout layout) {
        return layout == Layout.GUAVA || layout == Layout.SPARK_SKETCH;
    }

    /**
     * Whether keys reach a filter of {@code spec} only one by one, from their bytes: a guava filter
     * of the 64-bit strategy, whose probes take a 128-bit hash, which no 64-bit hash carries.
     */
    public static boolean probesKeysOnly(BloomSpec spec) {
        return spec.layout() == Layout.GUAVA && spec.seed() == GUAVA_MITZ_64;
    }

    /** Whether {@code algorithm} is one of another library's, which only its layout may use. */
    public static boolean isImported(HashAlgorithm algorithm) {
        return algorithm == HashAlgorithm.MURMUR3_X64_128 || algorithm == HashAlgorithm.MURMUR3_X86_32;
    }

    /** The only hash algorithm a file of {@code layout} may have. */
    public static HashAlgorithm hashOf(Layout layout) {
        return switch (layout) {
            case GUAVA -> HashAlgorithm.MURMUR3_X64_128;
            case SPARK_SKETCH -> HashAlgorithm.MURMUR3_X86_32;
            default -> HashAlgorithm.XXH3_64;
        };
    }

    /** The seed field of a Spark sketch of {@code version} (1 or 2) whose murmur seed is {@code seed}. */
    public static long sparkSeedField(int version, int seed) {
        return ((long) version << 32) | (seed & 0xFFFF_FFFFL);
    }

    /** The Spark sketch version a seed field holds (its bits 32 to 63). */
    public static int sparkVersion(long seedField) {
        return (int) (seedField >>> 32);
    }

    /** The murmur seed a Spark seed field holds (its bits 0 to 31). */
    public static int sparkSeed(long seedField) {
        return (int) seedField;
    }

    /**
     * Checks the fields of a spec whose layout or hash algorithm is an imported one.
     *
     * @throws IllegalArgumentException naming the field that does not fit, and what would
     */
    public static void check(Layout layout, HashAlgorithm algorithm, int counterBits, long cells, int hashes,
            long seed) {
        if (!isImported(layout)) {
            throw new IllegalArgumentException("hash algorithm " + algorithm + " is only for the "
                    + (algorithm == HashAlgorithm.MURMUR3_X64_128 ? "guava" : "spark-sketch") + " layout");
        }
        String name = layout == Layout.GUAVA ? "guava" : "spark-sketch";
        if (algorithm != hashOf(layout)) {
            throw new IllegalArgumentException("the " + name + " layout hashes with " + hashOf(layout) + ", not " + algorithm);
        }
        if (counterBits != 1) {
            throw new IllegalArgumentException("the " + name + " layout has 1-bit cells only, not " + counterBits);
        }
        if (cells <= 0 || hashes <= 0) {
            throw new IllegalArgumentException("a " + name + " filter is imported (bloomstore import-" + name
                    + "), not sized from keys and a rate: its cells and hashes are the library's");
        }
        if (cells % 64 != 0) {
            throw new IllegalArgumentException("a " + name + " filter's cells are whole 64-bit words, not " + cells);
        }
        if (layout == Layout.GUAVA && seed != GUAVA_MITZ_32 && seed != GUAVA_MITZ_64) {
            throw new IllegalArgumentException("a guava filter's seed field is Guava's strategy ordinal, 0 or 1, not " + seed);
        }
        if (layout == Layout.SPARK_SKETCH && sparkVersion(seed) != 1 && sparkVersion(seed) != 2) {
            throw new IllegalArgumentException("a spark-sketch filter's seed field holds version 1 or 2 in its"
                    + " bits 32 to 63, not " + sparkVersion(seed));
        }
        if (layout == Layout.SPARK_SKETCH && sparkVersion(seed) == 1 && sparkSeed(seed) != 0) {
            throw new IllegalArgumentException("a version 1 spark sketch hashes with seed 0, not " + sparkSeed(seed));
        }
    }
}
