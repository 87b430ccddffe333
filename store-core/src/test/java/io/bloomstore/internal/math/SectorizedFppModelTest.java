package io.bloomstore.internal.math;

import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import io.bloomstore.internal.hashing.ProbeMath;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The sectorized model's inclusion-exclusion against cases known another way. With one sector
 * (k = 1, 2, 3, 5: S = 1) a key's bits are b draws in one uniform word of its line: a blocked
 * filter of 64-bit blocks, whose exact rate {@link BlockedFppModel} computes by the occupancy
 * recurrence, a sum of positive terms. The real filter's several-sector rates are measured against
 * the model by {@code SectorizedLayoutTest}.
 */
class SectorizedFppModelTest {
    @ParameterizedTest(name = "k={0}, {1} bits per key")
    @CsvSource({"1, 4", "2, 4", "2, 10", "3, 10", "3, 16", "5, 20"})
    void oneSectorIsABlockedFilterOfWords(int k, int bitsPerKey) {
        long keys = 100_000;
        long cells = bitsPerKey * keys / 512 * 512;
        double sectorized = new SectorizedFppModel(k, ProbeMath.sectors(k)).fpp(cells, keys);
        double blockedOfWords = new BlockedFppModel(64, k).fpp(cells, keys);
        assertEquals(blockedOfWords, sectorized, blockedOfWords * 1e-9);
    }

    /** k = 1: one bit of 512 per key, so a query's bit is set with probability 1 - e^(-lambda / 512). */
    @ParameterizedTest(name = "lambda={0}")
    @CsvSource({"1", "51.2", "300"})
    void oneBitPerKeyIsTheTextbookRate(double lambda) {
        double rate = new SectorizedFppModel(1, ProbeMath.sectors(1)).fpp(512L << 20, lambda * (1 << 20));
        assertEquals(-Math.expm1(-lambda / 512), rate, 1e-12);
    }

    /** The inclusion-exclusion of the sizing of before: a bound of about 2^k ulps of 1. */
    @ParameterizedTest(name = "k={0}")
    @CsvSource({"6", "10", "16"})
    void roundingBoundOfTheSizingOfBeforeGrowsAsTwoToTheK(int k) {
        double bound = new LegacySectorizedFppModel(k, ProbeMath.sectors(k)).roundingError();
        assertTrue(bound > Math.pow(2, k) * 1e-17 && bound < Math.pow(2, k) * 1e-13, "bound " + bound);
    }

    /**
     * Sizing tries k from 1 to log2(1/p) + 1 only (docs/FORMAT.md, "Sizing"): at every p from 0.3
     * to 1e-12, the search over every k up to 32 finds no smaller filter.
     */
    @ParameterizedTest(name = "n={0}")
    @CsvSource({"100", "1000", "1000000"})
    void theSearchedKsHoldTheOptimumOfEveryKUpTo32(long keys) {
        for (double exponent = -0.5; exponent >= -12; exponent -= 0.25) {
            double p = Math.pow(10, exponent);
            BloomSpec sized = BloomSpec.builder().expectedKeys(keys).fpp(p).layout(Layout.SECTORIZED).build();
            long[] anyK = new LineSearch(keys, p, 512, BloomSpec.MAX_CELLS / 512, 1, 32,
                    k -> new SectorizedFppModel(k, ProbeMath.sectors(k))).fewest();
            assertEquals(anyK[0] * 512, sized.cells(), "p " + p);
            assertEquals(anyK[1], sized.hashes(), "p " + p);
        }
    }
}
