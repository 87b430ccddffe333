package io.bloomstore.internal.math;

import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import io.bloomstore.internal.hashing.ProbeMath;

/**
 * The formulas a Bloom filter is sized and judged by.
 *
 * <ul>
 *   <li>Standard layout, m cells, k probes, n keys: a probe hits a set cell with probability
 *       1 - (1 - 1/m)^(kn) ~ 1 - e^(-kn/m), so a false positive needs k such hits:
 *       <b>fpp = (1 - e^(-kn/m))^k</b>. Minimised at <b>k = (m/n) ln 2</b>, where
 *       <b>m = -n ln p / (ln 2)^2</b>.
 *   <li>Blocked layout, blocks of B cells: the n keys fall into m/B blocks unevenly, Poisson with
 *       mean lambda = nB/m, and a block holding j keys is a false positive with probability
 *       f_B(j) = E[(X/B)^k], X the cells hit by its jk probes:
 *       <b>fpp = sum_j Poisson(j; lambda) f_B(j)</b> (Putze, Sanders &amp; Singler 2007, with the
 *       exact block rate of {@link BlockedFppModel}). Crowded blocks dominate the sum: at 10 bits
 *       per key and k = 6 it is 1.0% against 0.84% for the standard layout, which is why blocked
 *       filters are sized with this formula and not the standard one.
 *   <li>Key count from a filter with X of m cells set (Swamidass &amp; Baldi 2007):
 *       <b>n ~ -(m/k) ln(1 - X/m)</b>.
 * </ul>
 *
 * <p>Every function is {@link StrictMath}'s, never {@link Math}'s: {@code Math} may use code that
 * differs by an ulp from one CPU to another, and sizing must give the same m and k everywhere,
 * since a segmented file's regions are checked against it whenever the file is opened
 * (docs/FORMAT.md, "Sizing").
 */
public final class FalsePositiveMath {
    private static final double LN2 = StrictMath.log(2);

    private FalsePositiveMath() {
    }

    /** (1 - e^(-kn/m))^k: the standard layout's false-positive rate after n distinct keys. */
    public static double standardFpp(long cells, int hashes, double keys) {
        if (keys <= 0) {
            return 0;
        }
        return StrictMath.pow(-StrictMath.expm1(-hashes * keys / cells), hashes);
    }

    /**
     * The blocked layout's false-positive rate: each block's exact rate for the keys it holds
     * ({@link BlockedFppModel}), averaged over the Poisson distribution of keys per block.
     */
    public static double blockedFpp(long cells, int hashes, double keys, int cellsPerBlock) {
        return new BlockedFppModel(cellsPerBlock, hashes).fpp(cells, keys);
    }

    /** The false-positive rate of {@code spec} after {@code keys} distinct keys. */
    public static double expectedFpp(BloomSpec spec, double keys) {
        switch (spec.layout()) {
            case BLOCKED:
                return blockedFpp(spec.cells(), spec.hashes(), keys, spec.cellsPerBlock());
            case SECTORIZED:
                return new SectorizedFppModel(spec.hashes()).fpp(spec.cells(), keys);
            default:
                return standardFpp(spec.cells(), spec.hashes(), keys);
        }
    }

    /** k = (m/n) ln 2, rounded, at least 1: the k that minimises the standard formula. */
    public static int optimalHashes(long cells, long keys) {
        return (int) Math.max(1, Math.round((double) cells / keys * LN2));
    }

    /** m = -n ln p / (ln 2)^2, rounded up: the fewest cells that reach p with the optimal k. */
    public static long optimalCells(long keys, double fpp) {
        return (long) Math.ceil(-keys * StrictMath.log(fpp) / (LN2 * LN2));
    }

    /**
     * Swamidass &amp; Baldi's estimate of how many distinct keys were added to a standard filter of
     * {@code cells} cells with {@code setCells} of them non-zero; infinite when every cell is set.
     */
    public static double estimateKeys(long cells, int hashes, long setCells) {
        if (setCells >= cells) {
            return Double.POSITIVE_INFINITY;
        }
        return -(double) cells / hashes * StrictMath.log1p(-(double) setCells / cells);
    }

    /**
     * The key count estimate for {@code spec}'s layout. For the blocked layout, a cell stays empty
     * with probability E[(1 - 1/B)^(kJ)] over the Poisson(lambda) keys J of its block, which is
     * exp(lambda ((1 - 1/B)^k - 1)); solving X/m = 1 - that for lambda gives
     * n = (m/B) ln(1 - X/m) / ((1 - 1/B)^k - 1). The standard formula would be 4% low for 8-bit
     * and 12% low for 32-bit blocked cells.
     */
    public static double estimateKeys(BloomSpec spec, long setCells) {
        long m = spec.cells();
        if (spec.layout() == Layout.STANDARD) {
            return estimateKeys(m, spec.hashes(), setCells);
        }
        if (setCells >= m) {
            return Double.POSITIVE_INFINITY;
        }
        int b = spec.cellsPerBlock();
        double lambda = StrictMath.log1p(-(double) setCells / m) / lineKeyMarksCell(spec);
        return lambda * m / b;
    }

    /**
     * The q in P(a given cell of a line stays empty) = exp(lambda q) over Poisson(lambda) keys a
     * line, one key leaving it empty with probability 1 + q. Blocked:
     * (1 - 1/B)^k - 1. Sectorized: a key reaches the cell's word with probability S/8 and then
     * misses it with (1 - 1/64)^b, so q = (S/8)((1 - 1/64)^b - 1); the cells of a line are not
     * independent, but the expected fill is linear in them, so the estimate needs no more.
     */
    private static double lineKeyMarksCell(BloomSpec spec) {
        if (spec.layout() == Layout.SECTORIZED) {
            int sectors = ProbeMath.sectors(spec.hashes());
            int bits = spec.hashes() / sectors;
            return sectors / (double) ProbeMath.LINE_WORDS * StrictMath.expm1(bits * StrictMath.log1p(-1.0 / 64));
        }
        return StrictMath.expm1(spec.hashes() * StrictMath.log1p(-1.0 / spec.cellsPerBlock()));
    }

    /**
     * The false-positive rate a standard filter has now, from its fill ratio: a random absent key is
     * reported present when all k of its cells are set, (X/m)^k.
     */
    public static double currentFpp(long cells, int hashes, long setCells) {
        return StrictMath.pow((double) setCells / cells, hashes);
    }

    /**
     * The false-positive rate {@code spec} has now. Standard layout: (X/m)^k from the fill. Blocked
     * layout: the fill of the whole array says little about the crowded blocks that make most false
     * positives (fill^k is 14% low for 1-bit cells and 35 times low for 32-bit ones), so the rate is
     * the model's at the estimated key count.
     */
    public static double currentFpp(BloomSpec spec, long setCells, double estimatedKeys) {
        if (spec.layout() == Layout.STANDARD) {
            return currentFpp(spec.cells(), spec.hashes(), setCells);
        }
        return Double.isInfinite(estimatedKeys) ? 1.0 : expectedFpp(spec, estimatedKeys);
    }
}
