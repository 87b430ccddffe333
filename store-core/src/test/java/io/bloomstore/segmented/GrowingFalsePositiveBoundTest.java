package io.bloomstore.segmented;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.GrowingBloomFilter;
import io.bloomstore.GrowingSpec;
import io.bloomstore.Layout;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A growing filter's promise, measured: the rate of a query stays under P however many segments
 * the chain has, for the growth factors a new file may have; and a growth factor whose table of
 * 120 segments could fill is refused when the file is created. The keys are fixed (the seed too),
 * so each run is the same; the bound allows three binomial sigmas over P for 2,000,000 queries.
 */
class GrowingFalsePositiveBoundTest {
    private static final double P = 0.01;
    private static final long QUERIES = 2_000_000;

    @TempDir
    Path dir;

    /**
     * Small first segments at a small growth make the most segments for the keys, and the sum of
     * their rates closest to P: at growth 1.5 from 1000 keys, 18 segments, P (1 - 0.85^17) = 0.94 P
     * over the full ones. Segments that each ended a few publishing periods past capacity measured
     * 1.026 % there.
     */
    @ParameterizedTest(name = "growth {0} from {1} keys, {2} segments, {3}")
    @CsvSource({"1.5,1000,18,STANDARD", "1.5,100,22,BLOCKED", "2,1000,12,STANDARD", "4,1000,8,STANDARD",
            "16,100,5,STANDARD"})
    void theRateStaysUnderTheBound(double growth, long firstKeys, int segments, Layout layout) throws Exception {
        GrowingSpec spec = new GrowingSpec(firstKeys, P, growth, GrowingSpec.DEFAULT_TIGHTENING, 0, layout, 42);
        long falsePositives = 0;
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(dir.resolve("growing.bloom"), spec)) {
            long key = 0;
            while (filter.segmentCount() < segments) {
                filter.add(key++);
            }
            for (long q = 1; q <= QUERIES; q++) {
                falsePositives += filter.mightContain(-q) ? 1 : 0;
            }
        }
        double sigma = Math.sqrt(P * (1 - P) / QUERIES);
        double measured = falsePositives / (double) QUERIES;
        assertTrue(measured <= P + 3 * sigma, "measured " + measured + " over " + segments + " segments; bound " + P);
    }

    @Test
    void aGrowthFactorWhoseTableCouldFillIsRefusedAtCreation() {
        IllegalArgumentException one = assertThrows(IllegalArgumentException.class, () -> GrowingBloomFilter.create(
                dir.resolve("one.bloom"), GrowingSpec.of(1000, P).withGrowthFactor(1)));
        assertTrue(one.getMessage().contains("growth factor 1.0 with 1000 keys in the first segment would fill the file's"
                + " table of 120 segments after 120000 keys") && one.getMessage().contains("1.5 or more"), one.getMessage());
        assertEquals(120_000, GrowingSpec.of(1000, P).withGrowthFactor(1).keysBeforeTableFull());
        assertThrows(IllegalArgumentException.class, () -> GrowingBloomFilter.create(dir.resolve("small.bloom"),
                GrowingSpec.of(10, P).withGrowthFactor(1.2)));
        assertEquals(Long.MAX_VALUE, GrowingSpec.of(1, 0.5).withGrowthFactor(1.5).keysBeforeTableFull(),
                "from 1.5 up, the segment after the table's last could not exist");
        assertEquals(Long.MAX_VALUE, GrowingSpec.of(100_000_000, P).withGrowthFactor(1.2).keysBeforeTableFull(),
                "nor at 1.2 from 100 million keys");
    }
}
