package io.bloomstore.internal.math;

import io.bloomstore.BloomSpec;
import io.bloomstore.internal.hashing.ProbeMath;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link LineSearch#fewest} skips the k that cannot beat the best count so far; what it chooses
 * must be what docs/FORMAT.md's "Sizing" defines, the search of every k with the fewest blocks
 * winning and the smallest k on a tie, written out here as that definition reads. Files store the
 * m and k sizing gives, and a growing or windowed file's regions are checked against them, so any
 * difference would make a file unreadable.
 */
class LineSearchTest {
    private static final long[] KEYS = {1, 7, 100, 1000, 123_457, 1_000_000, 1_000_000_000L, 1L << 40, 1L << 52};

    @Test
    void blockedSizingChoosesWhatSearchingEveryKChooses() {
        for (int counterBits : new int[] {1, 2, 4, 8, 16, 32}) {
            int perBlock = BloomSpec.BLOCK_BITS / counterBits;
            for (long keys : KEYS) {
                for (double p : rates()) {
                    int standardK = (int) Math.round(-StrictMath.log(p) / StrictMath.log(2));
                    int toK = Math.min(Math.min(BloomSpec.MAX_HASHES, perBlock), Math.max(1, standardK + 1));
                    assertSameChoice(new LineSearch(keys, p, perBlock, BloomSpec.MAX_CELLS / perBlock, Math.max(1, toK - 12),
                            toK, k -> BlockedFppModel.of(perBlock, k)), "blocked w=" + counterBits);
                }
            }
        }
    }

    @Test
    void sectorizedSizingChoosesWhatSearchingEveryKChooses() {
        for (long keys : KEYS) {
            for (double p : rates()) {
                assertSameChoice(sectorized(keys, p, LineSearchTest::sectorizedModel), "sectorized");
            }
        }
    }

    /** The sizing of before skips the k whose rounding bound is too coarse (a null model). */
    @Test
    void sizingOfBeforeChoosesWhatSearchingEveryKChooses() {
        for (long keys : new long[] {1, 1000, 1_000_000, 1L << 40}) {
            for (double p : rates()) {
                assertSameChoice(LegacySectorizedFppModel.sizing(keys, p, BloomSpec.MAX_CELLS / 512, ProbeMath::sectors),
                        "sectorized of before");
            }
        }
    }

    /**
     * Far down a growing file's table the sectorized search tries k up to 32 at a tiny p: most miss
     * p in any filter the format allows, and each cost a doubling and a bisection, some fifty rate
     * evaluations, which made most of a {@code bloomstore size --grow}. Now one each.
     */
    @Test
    void aKThatCannotBeatTheBestCostsOneRateEvaluation() {
        AtomicInteger evaluations = new AtomicInteger();
        LineSearch search = sectorized(1L << 40, 1e-20, k -> {
            FppModel model = sectorizedModel(k);
            return (cells, keys) -> {
                evaluations.incrementAndGet();
                return model.fpp(cells, keys);
            };
        });
        assertNotNull(search.fewest());
        assertTrue(evaluations.get() < 200, evaluations.get() + " rate evaluations for 32 k");
    }

    private static LineSearch sectorized(long keys, double p, IntFunction<FppModel> modelOfK) {
        int standardK = (int) Math.round(-StrictMath.log(p) / StrictMath.log(2));
        return new LineSearch(keys, p, 512, BloomSpec.MAX_CELLS / 512, 1, Math.min(32, Math.max(1, standardK + 1)), modelOfK);
    }

    private static FppModel sectorizedModel(int k) {
        return new SectorizedFppModel(k, ProbeMath.sectors(k));
    }

    /** p from 0.5 down to 1e-30, a few per decade, off round numbers too. */
    private static double[] rates() {
        double[] rates = new double[3 * 30 + 1];
        rates[0] = 0.5;
        for (int decade = 1; decade <= 30; decade++) {
            rates[3 * decade - 2] = 3.7 * Math.pow(10, -decade);
            rates[3 * decade - 1] = 1.9 * Math.pow(10, -decade);
            rates[3 * decade] = Math.pow(10, -decade);
        }
        return rates;
    }

    private static void assertSameChoice(LineSearch search, String layout) {
        assertArrayEquals(everyK(search), search.fewest(),
                layout + ", n " + search.keys() + ", p " + search.fpp());
    }

    /** The definition: every k searched, the fewest blocks winning, the smallest k on a tie. */
    private static long[] everyK(LineSearch search) {
        long bestBlocks = Long.MAX_VALUE;
        int bestK = 0;
        for (int k = search.fromK(); k <= search.toK(); k++) {
            FppModel model = search.modelOfK().apply(k);
            long blocks = model == null ? Long.MAX_VALUE
                    : LineSearch.fewestBlocks(model, search.perBlock(), search.maxBlocks(), search.keys(), search.fpp());
            if (blocks < bestBlocks) {
                bestBlocks = blocks;
                bestK = k;
            }
        }
        return bestBlocks == Long.MAX_VALUE ? null : new long[] {bestBlocks, bestK};
    }
}
