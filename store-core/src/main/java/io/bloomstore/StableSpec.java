package io.bloomstore;

import io.bloomstore.internal.format.CellRule;
import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.internal.math.StableFilterMath;

/**
 * The shape of a stable Bloom filter (Deng &amp; Rafiei, SIGMOD 2006): a dedup index over an
 * endless stream in fixed memory. Each add first decrements {@link #decrements()} P cells (not
 * below zero), then sets the key's k cells to the maximum 2^d - 1; a key is present when all its k
 * cells are non-zero. The fraction of zero cells converges, so the false-positive rate has a fixed
 * bound ({@link #stableFpp()}) however long the stream; the price is false negatives for keys not
 * seen for a long time ({@link #falseNegativeRate}). docs/FORMAT.md, "Stable filters", has the model.
 *
 * <pre>{@code
 * try (BloomFilter clicks = BloomFilter.createStable(Path.of("clicks.bloom"), StableSpec.forLifetime(1_000_000, 0.01, 2))) {
 *     if (clicks.add(clickId)) {
 *         count(clickId);   // not seen among about the last million clicks
 *     }
 * }
 * }</pre>
 */
public final class StableSpec {
    private final BloomSpec spec;
    private final long decrements;
    private final StableFilterMath model;

    private StableSpec(BloomSpec spec, long decrements) {
        this.spec = spec;
        this.decrements = decrements;
        this.model = new StableFilterMath(spec.cells(), spec.hashes(), spec.counterBits(), decrements);
    }

    /**
     * The fewest cells whose keys survive {@code laterKeys} later adds on average at the stable
     * false-positive rate {@code fpp}, with the k of the longest lifetime and the paper's P for it.
     *
     * @param laterKeys N, the adds a key should survive on average
     * @param fpp the stable false-positive rate, in (0, 1)
     * @param counterBits d: 1, 2 or 4
     * @return the shape
     * @throws IllegalArgumentException if no filter of at most {@link BloomSpec#MAX_CELLS} reaches it
     */
    public static StableSpec forLifetime(long laterKeys, double fpp, int counterBits) {
        check(laterKeys, fpp, counterBits);
        long[] mkp = StableFilterMath.sizeForLifetime(laterKeys, counterBits, fpp, BloomSpec.MAX_CELLS);
        if (mkp == null) {
            throw new IllegalArgumentException("no stable filter of at most " + BloomSpec.MAX_CELLS
                    + " cells keeps keys for " + laterKeys + " later adds at a false-positive rate of " + fpp);
        }
        return of(mkp[0], (int) mkp[1], counterBits, mkp[2], laterKeys, fpp);
    }

    /**
     * The stable filter of {@code bytes} bytes of file (header page included) at the stable
     * false-positive rate {@code fpp}, with the k that keeps keys longest and the paper's P for it.
     *
     * @param bytes the file's size at most; cells fill the whole pages the header page leaves
     * @param fpp the stable false-positive rate, in (0, 1)
     * @param counterBits d: 1, 2 or 4
     * @return the shape
     * @throws IllegalArgumentException if the size is too small for the rate
     */
    public static StableSpec forBytes(long bytes, double fpp, int counterBits) {
        check(1, fpp, counterBits);
        // whole pages of cells: the file is never longer than asked
        long cellBytes = Math.max(0, bytes - FilterFileDescriptor.CELLS_START) / 4096 * 4096;
        long cells = Math.min(BloomSpec.MAX_CELLS, cellBytes / counterBits * 8);
        long[] kp = cells < 2 ? null : StableFilterMath.bestHashes(cells, counterBits, fpp);
        if (kp == null) {
            throw new IllegalArgumentException(bytes + " bytes cannot hold a stable filter of " + counterBits
                    + "-bit cells at a false-positive rate of " + fpp + "; give a larger size");
        }
        return of(cells, (int) kp[0], counterBits, kp[1], 0, fpp);
    }

    private static void check(long laterKeys, double fpp, int counterBits) {
        if (laterKeys < 1) {
            throw new IllegalArgumentException("a key must survive at least 1 later add, not " + laterKeys);
        }
        if (!(fpp > 0 && fpp < 1)) {
            throw new IllegalArgumentException("false-positive rate must be in (0, 1), not " + fpp);
        }
        if (counterBits != 1 && counterBits != 2 && counterBits != 4) {
            throw new IllegalArgumentException("a stable filter's cells have 1, 2 or 4 bits, not " + counterBits);
        }
    }

    private static StableSpec of(long cells, int hashes, int counterBits, long decrements, long laterKeys, double fpp) {
        BloomSpec.Builder builder = BloomSpec.builder().cells(cells).hashes(hashes).counterBits(counterBits).fpp(fpp);
        if (laterKeys > 0) {
            builder.expectedKeys(laterKeys);
        }
        return new StableSpec(builder.build(), decrements);
    }

    /** The stable shape a file's header records. */
    static StableSpec of(BloomSpec spec, CellRule rule) {
        return new StableSpec(spec, rule.decrements());
    }

    /** The cell rule this shape writes into the header. */
    CellRule rule() {
        return CellRule.stable(decrements);
    }

    /**
     * The cells, hashes and cell bits (and, as given, the lifetime N as the expected keys and the
     * target rate).
     *
     * @return the filter's shape
     */
    public BloomSpec spec() {
        return spec;
    }

    /**
     * P, the cells each add decrements before it sets the key's cells.
     *
     * @return P, at least 1
     */
    public long decrements() {
        return decrements;
    }

    /**
     * The false-positive rate the filter converges to, (1 - P0)^k, whatever the stream's length.
     *
     * @return the stable-point rate
     */
    public double stableFpp() {
        return model.stableFpp();
    }

    /**
     * P0, the fraction of zero cells at the stable point.
     *
     * @return a fraction in (0, 1)
     */
    public double stableZeroFraction() {
        return model.stableZeroFraction();
    }

    /**
     * How many later adds a key survives on average (beyond the stable false-positive rate).
     *
     * @return the expected lifetime, in adds
     */
    public double expectedLifetime() {
        return model.expectedLifetime();
    }

    /**
     * The probability that a key added {@code distance} adds ago reads absent.
     *
     * @param distance the adds since the key's own
     * @return the false-negative rate at that distance
     */
    public double falseNegativeRate(long distance) {
        return model.falseNegativeRate(distance);
    }

    @Override
    public String toString() {
        return "StableSpec[" + spec + ", decrements=" + decrements + "]";
    }
}
