package io.bloomstore;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.bloomstore.internal.math.FalsePositiveMath;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The measured false-positive rate of filters sized for (n, p), filled with n random keys and
 * asked about keys never added. Three claims, each checked within binomial noise:
 * <ol>
 *   <li>the probes behave as independent uniform draws: the rate matches an exact model of such
 *       draws (for the blocked layout, {@link #blockedRateOfIndependentProbes}, which this test
 *       computes on its own);
 *   <li>the library's formula, {@link BloomSpec#expectedFpp}, predicts the rate;
 *   <li>a filter sized for p delivers p.
 * </ol>
 * Keys come from fixed seeds and the filters use the default hash seed, so every run measures the
 * same numbers and a failure repeats exactly.
 */
class FalsePositiveRateTest {
    /** Binomial standard deviations allowed. */
    private static final double SIGMAS = 5;
    /**
     * Relative error allowed to a model on top of the sampling noise:
     * <ul>
     *   <li>the filter is one random draw: its fill X/m has a relative spread ~ sqrt((1-f)/(f m)),
     *       about 0.1% at m ~ 1M, and the rate goes as fill^k, so ~ k * 0.1% &lt;= 1%;
     *   <li>the standard formula (1 - e^(-kn/m))^k understates the exact rate of a filter with
     *       independent probes (Bose et al. 2008) by a relative O(k / m): negligible here;
     *   <li>enhanced double hashing derives the k probes from two values; Kirsch &amp; Mitzenmacher
     *       show the rate converges to that of independent probes, with a relative difference of
     *       O(k^2 / m): negligible here.
     * </ul>
     * 3% covers the first with room. Probes that really correlate miss by far more: a 1% filter
     * whose probes repeat a cell one time in ten is off by ~50%.
     */
    private static final double MODEL_ERROR = 0.03;

    @TempDir
    Path dir;

    static Stream<Arguments> sizings() {
        // The sectorized layout has its own measurements against its own model: SectorizedLayoutTest.
        Stream<Arguments> plain = Stream.of(Layout.STANDARD, Layout.BLOCKED).flatMap(layout -> Stream.of(
                arguments(layout, 1, 100_000, 0.01),
                arguments(layout, 1, 100_000, 0.001),
                arguments(layout, 1, 1_000_000, 0.05)));
        // Counting filters: for the blocked layout a wider counter means fewer cells per 64-byte block.
        Stream<Arguments> counting = Stream.of(
                arguments(Layout.STANDARD, 4, 100_000, 0.01),
                arguments(Layout.BLOCKED, 4, 100_000, 0.01),
                arguments(Layout.BLOCKED, 8, 100_000, 0.001),
                arguments(Layout.BLOCKED, 32, 100_000, 0.01));
        return Stream.concat(plain, counting);
    }

    @ParameterizedTest(name = "{0}, {1}-bit cells, n={2}, p={3}")
    @MethodSource("sizings")
    void measuredRateMatchesTheModelsAndMeetsTheTarget(Layout layout, int bits, int n, double p) throws Exception {
        BloomSpec spec = BloomSpec.builder().expectedKeys(n).fpp(p).counterBits(bits).layout(layout).build();
        // Enough queries that one sigma is at most ~1.1% of p.
        int queries = (int) Math.min(8_000_000, Math.max(1_000_000, 8_000 / p));
        double measured = measureRate(spec, n, queries);

        double formula = spec.expectedFpp(n);
        double independentProbes = layout == Layout.BLOCKED
                ? blockedRateOfIndependentProbes(spec.cells(), spec.hashes(), n, spec.cellsPerBlock())
                : FalsePositiveMath.standardFpp(spec.cells(), spec.hashes(), n);
        String report = String.format(Locale.ROOT,
                "%s w=%d n=%d p=%s: m=%d (%.2f bits/key) k=%d; measured %.6f over %d queries (sigma %.6f);"
                        + " formula %.6f (measured/formula %.4f); independent probes %.6f (measured/that %.4f);"
                        + " measured/p %.4f",
                layout, bits, n, p, spec.cells(), (double) spec.cells() * bits / n, spec.hashes(), measured, queries,
                RandomKeys.binomialSigma(formula, queries), formula, measured / formula, independentProbes,
                measured / independentProbes, measured / p);
        System.out.println("FPR " + report);
        assertAll(report,
                () -> assertNear(independentProbes, measured, queries,
                        "the probes do not behave as independent draws"),
                () -> assertNear(formula, measured, queries, "BloomSpec.expectedFpp mispredicts the rate"),
                () -> assertTrue(measured <= p + tolerance(p, queries),
                        "a filter sized for p delivers more than p (allowed " + (p + tolerance(p, queries)) + ")"));
    }

    /**
     * The reference model is right where the answer is known: with blocks so large that the fill
     * hardly spreads it agrees with the mean-fill formula, and with one key per block it gives the
     * rate worked out by hand.
     */
    @Test
    void independentProbesModelReproducesKnownRates() {
        double manyCells = blockedRateOfIndependentProbes(1L << 40, 4, 1L << 26, 1 << 20);
        assertEquals(FalsePositiveMath.blockedFpp(1L << 40, 4, 1L << 26, 1 << 20), manyCells, manyCells * 1e-3);
        // One key of k = 2 probes in a block of B = 4 occupies 1 cell (chance 1/4) or 2 (3/4); a
        // query's two probes both land on occupied cells with chance (X/4)^2, so the rate in the
        // key's block is 1/4 * 1/16 + 3/4 * 4/16 = 13/64, where the mean fill gives (7/16)^2 = 49/256.
        double oneKeyPerBlock = blockedRateOfIndependentProbes(4L << 30, 2, 1, 4);
        double chanceBlockHoldsTheKey = 1.0 / (1L << 30);
        assertEquals(13.0 / 64, oneKeyPerBlock / chanceBlockHoldsTheKey, 1e-6);
    }

    private double measureRate(BloomSpec spec, int n, int queries) throws Exception {
        try (BloomFilter filter = BloomFilter.create(dir.resolve("fpr.bloom"), spec)) {
            RandomKeys.addMembers(filter, 0x5EED_0001L + n, n);
            return RandomKeys.falsePositiveRate(filter, 0x5EED_0002L + n, queries);
        }
    }

    /**
     * The false-positive rate of a blocked filter whose k probes per key are independent uniform
     * draws (with replacement) inside the key's block, computed exactly: the keys per block are
     * Poisson with mean lambda = nB/m; with j keys in a block, its occupied cells X come from kj
     * draws, and a query is positive with probability E[(X/B)^k] -- not (E[X]/B)^k, which is
     * smaller by Jensen's inequality, the more so the smaller B. E[(X/B)^k] is the chance that the
     * query's k draws, which cover d distinct cells, find all d occupied; both the distribution of
     * d and the chance that kj draws cover d given cells follow from small Markov chains of
     * positive terms (no alternating sums, so no cancellation).
     */
    static double blockedRateOfIndependentProbes(long cells, int k, double keys, int cellsPerBlock) {
        double lambda = keys * cellsPerBlock / cells;
        double[] distinctCells = distinctCellsOfDraws(k, cellsPerBlock);
        int lastJ = (int) Math.ceil(lambda + 12 * Math.sqrt(lambda) + 20);
        double rate = 0;
        double logFactorial = 0;
        for (int j = 1; j <= lastJ; j++) {
            logFactorial += Math.log(j);
            double poisson = Math.exp(j * Math.log(lambda) - lambda - logFactorial);
            double[] covered = chanceDrawsCoverGivenCells(k, (long) k * j, cellsPerBlock);
            double positive = 0;
            for (int d = 1; d <= k; d++) {
                positive += distinctCells[d] * covered[d];
            }
            rate += poisson * positive;
        }
        return rate;
    }

    /** P(d distinct cells) after {@code draws} uniform draws from {@code cells}, for d in 0..draws. */
    private static double[] distinctCellsOfDraws(int draws, int cells) {
        double[] chance = new double[draws + 1];
        chance[0] = 1;
        for (int draw = 1; draw <= draws; draw++) {
            for (int d = Math.min(draw, cells); d >= 1; d--) {
                chance[d] = chance[d] * d / cells + chance[d - 1] * (cells - d + 1) / cells;
            }
            chance[0] = 0;
        }
        return chance;
    }

    /**
     * For d in 0..maxGiven: the chance that {@code draws} uniform draws from {@code cells} hit each
     * of d given cells at least once. Tracks how many of the given cells are hit so far; a draw hits
     * a new one with probability (d - hit) / cells.
     */
    private static double[] chanceDrawsCoverGivenCells(int maxGiven, long draws, int cells) {
        double[] result = new double[maxGiven + 1];
        result[0] = 1;
        for (int d = 1; d <= maxGiven; d++) {
            double[] hit = new double[d + 1];
            hit[0] = 1;
            for (long draw = 0; draw < draws; draw++) {
                for (int h = d; h >= 1; h--) {
                    hit[h] = hit[h] * (1 - (double) (d - h) / cells) + hit[h - 1] * (double) (d - h + 1) / cells;
                }
                hit[0] *= 1 - (double) d / cells;
            }
            result[d] = hit[d];
        }
        return result;
    }

    private static void assertNear(double model, double measured, int queries, String problem) {
        double tolerance = tolerance(model, queries);
        assertTrue(Math.abs(measured - model) <= tolerance, problem + ": |" + measured + " - " + model + "| > "
                + tolerance);
    }

    /** Sampling noise plus the model error allowed around an expected rate {@code q}. */
    static double tolerance(double q, int queries) {
        return SIGMAS * RandomKeys.binomialSigma(q, queries) + MODEL_ERROR * q;
    }
}
