package io.bloomstore;

import io.bloomstore.internal.math.FalsePositiveMath;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The sizing formulas against a real filter: n keys in, a million never-added keys queried, the
 * measured rate within 10% of {@link BloomSpec#expectedFpp}. At p = 1% that is ~10,000 false
 * positives, binomial sigma ~1%, so 10% is a real gap and not noise; the keys are fixed, so the run
 * is deterministic. Blocked filters are held to it only where their formula holds: 1- and 2-bit
 * cells, and 4-bit cells at 1%. With 128 or fewer counters per 64-byte block the Poisson formula
 * (which treats a block's cells as filling independently) underestimates the rate: by ~12% for
 * 4-bit cells at 0.1%, 8-16% for 8- and 16-bit cells, up to 55% for 32-bit cells at 0.01% — a
 * known gap of {@link FalsePositiveMath#blockedFpp}, reported, not hidden.
 */
class MeasuredFalsePositiveRateTest {
    private static final int KEYS = 50_000;
    private static final int QUERIES = 1_000_000;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} w={1} p={2}")
    @CsvSource({"STANDARD,1,0.01", "STANDARD,8,0.001", "BLOCKED,1,0.01", "BLOCKED,1,0.001", "BLOCKED,2,0.01",
            "BLOCKED,4,0.01"})
    void measuredRateIsTheFormulasRate(Layout layout, int counterBits, double p) throws Exception {
        BloomSpec spec = BloomSpec.builder().expectedKeys(KEYS).fpp(p).layout(layout).counterBits(counterBits).build();
        int falsePositives = 0;
        try (BloomFilter filter = BloomFilter.create(dir.resolve("fpp.bloom"), spec)) {
            for (long key = 0; key < KEYS; key++) {
                filter.add(key);
            }
            for (long key = KEYS; key < KEYS + QUERIES; key++) {
                falsePositives += filter.mightContain(key) ? 1 : 0;
            }
        }
        double expected = spec.expectedFpp(KEYS);
        assertEquals(1.0, falsePositives / (double) QUERIES / expected, 0.10,
                spec + ": measured " + falsePositives / (double) QUERIES + ", formula " + expected);
    }
}
