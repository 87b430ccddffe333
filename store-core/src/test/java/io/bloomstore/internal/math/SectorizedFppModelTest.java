package io.bloomstore.internal.math;

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
}
