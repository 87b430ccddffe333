package io.bloomstore.internal.math;

/**
 * The false-positive rate of Parquet's split-block Bloom filter: a key sets one bit in each of the
 * eight 32-bit words of its 256-bit block, so after j keys a word has a given bit set with
 * probability 1 - (31/32)^j, exactly (each key draws one bit of each word), and a query, which
 * tests one bit per word, is a false positive with probability (1 - (31/32)^j)^8 — no Jensen gap,
 * as each word receives exactly j draws. Averaged over the Poisson(256 n / m) keys per block. The
 * eight bits of one key come from one 32-bit value times eight odd salts; the model takes them as
 * independent, which the measured rates of {@code SbbfLayoutTest} check.
 */
public final class SbbfFppModel implements FppModel {
    /** Bits in one block. */
    public static final int BLOCK_BITS = 256;
    /** Bits in one word of a block: each key sets one of them. */
    public static final int WORD_BITS = 32;
    /** Words in a block: the bits a key sets, k. */
    public static final int WORDS = 8;

    @Override
    public double fpp(long cells, double keys) {
        if (keys <= 0) {
            return 0;
        }
        return FalsePositiveMath.poissonAverage(keys * BLOCK_BITS / cells,
                j -> StrictMath.pow(1 - StrictMath.pow(1 - 1.0 / WORD_BITS, j), WORDS));
    }
}
