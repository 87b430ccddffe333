package io.bloomstore.internal.hashing;

/**
 * How the seed field of an imported layout's header carries what the library's stream says about
 * its hashing (docs/FORMAT.md, "Imported layouts"): a guava filter's holds Guava's strategy
 * ordinal (its murmur seed is always 0); a spark-sketch filter's holds the sketch's version in bits
 * 32 to 63 and its murmur seed in bits 0 to 31.
 */
public final class ForeignSeeds {
    /** Guava's strategy ordinal 0: the 32-bit combination of the hash's first half. */
    public static final int GUAVA_MITZ_32 = 0;
    /** Guava's strategy ordinal 1: the 64-bit combination of both halves, Guava's default. */
    public static final int GUAVA_MITZ_64 = 1;

    private ForeignSeeds() {
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
}
