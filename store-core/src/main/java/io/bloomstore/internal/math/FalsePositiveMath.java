package io.bloomstore.internal.math;

import java.util.function.IntToDoubleFunction;

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
    private static final int WORD_BITS = 64;
    private static final int SECTORIZED_LINE_WORDS = 8;
    private static final int SECTORIZED_LINE_BITS = SECTORIZED_LINE_WORDS * WORD_BITS;
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
        return BlockedFppModel.of(cellsPerBlock, hashes).fpp(cells, keys);
    }

    /**
     * The average of {@code blockFpp(j)} over the Poisson(lambda) number j of keys in a block, in
     * docs/FORMAT.md's order: j over lambda +- (12 sqrt(lambda) + 20), outside which the mass is
     * below 1e-30, each term exp(j ln lambda - lambda - ln j!) with ln j! a running sum; capped at 1.
     */
    static double poissonAverage(double lambda, IntToDoubleFunction blockFpp) {
        double spread = 12 * StrictMath.sqrt(lambda) + 20;
        int from = (int) Math.max(0, Math.floor(lambda - spread));
        int to = (int) Math.ceil(lambda + spread);
        double logLambda = StrictMath.log(lambda);
        double logFactorial = 0;
        for (int i = 2; i <= from; i++) {
            logFactorial += StrictMath.log(i);
        }
        double sum = 0;
        for (int j = from; j <= to; j++) {
            if (j > from) {
                logFactorial += StrictMath.log(j);
            }
            sum += StrictMath.exp(j * logLambda - lambda - logFactorial) * blockFpp.applyAsDouble(j);
        }
        return Math.min(1.0, sum);
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
     * The key count estimate for the blocked layout, blocks of {@code cellsPerBlock} cells. A cell
     * stays empty with probability E[(1 - 1/B)^(kJ)] over the Poisson(lambda) keys J of its block,
     * which is exp(lambda ((1 - 1/B)^k - 1)); solving X/m = 1 - that for lambda gives
     * n = (m/B) ln(1 - X/m) / ((1 - 1/B)^k - 1). The standard formula would be 4% low for 8-bit
     * and 12% low for 32-bit blocked cells.
     */
    public static double estimateBlockedKeys(long cells, int hashes, int cellsPerBlock, long setCells) {
        return estimateLineKeys(cells, cellsPerBlock, setCells,
                StrictMath.expm1(hashes * StrictMath.log1p(-1.0 / cellsPerBlock)));
    }

    /**
     * The key count estimate for the sectorized layout: as {@link #estimateBlockedKeys}, but a key
     * reaches a given cell's word with probability S/8 and then misses the cell with
     * (1 - 1/64)^b, so one key leaves it empty with probability 1 + (S/8)((1 - 1/64)^b - 1). The
     * cells of a line are not independent, but the expected fill is linear in them, so the
     * estimate needs no more.
     */
    public static double estimateSectorizedKeys(long cells, int sectors, int bitsPerSector, long setCells) {
        return estimateLineKeys(cells, SECTORIZED_LINE_BITS, setCells, sectors / (double) SECTORIZED_LINE_WORDS
                * StrictMath.expm1(bitsPerSector * StrictMath.log1p(-1.0 / WORD_BITS)));
    }

    /**
     * The key count estimate for the split-block layout: a key sets one of the 32 bits of each word
     * of its 256-bit block, so it leaves a given cell empty with probability 1 - 1/32, and the
     * blocked estimate's q is -1/32.
     */
    public static double estimateSbbfKeys(long cells, long setCells) {
        return estimateLineKeys(cells, SbbfFppModel.BLOCK_BITS, setCells, -1.0 / SbbfFppModel.WORD_BITS);
    }

    /** The sectorized layout's false-positive rate: {@link SectorizedFppModel}'s for k bits in S words of a line. */
    public static double sectorizedFpp(long cells, int hashes, int sectors, double keys) {
        return new SectorizedFppModel(hashes, sectors).fpp(cells, keys);
    }

    /**
     * Solves X/m = 1 - exp(lambda q) for the Poisson(lambda) keys of a line of {@code lineCells}
     * cells, where one key leaves a given cell empty with probability 1 + q; infinite when every
     * cell is set.
     */
    private static double estimateLineKeys(long cells, int lineCells, long setCells, double q) {
        if (setCells >= cells) {
            return Double.POSITIVE_INFINITY;
        }
        double lambda = StrictMath.log1p(-(double) setCells / cells) / q;
        return lambda * cells / lineCells;
    }

    /**
     * The false-positive rate a standard filter has now, from its fill ratio: a random absent key is
     * reported present when all k of its cells are set, (X/m)^k.
     */
    public static double currentFpp(long cells, int hashes, long setCells) {
        return StrictMath.pow((double) setCells / cells, hashes);
    }
}
