package io.bloomstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HumanTest {
    @Test
    void countsAreGroupedByThousandsAsFormatterGroupsThem() {
        long[] edges = {0, 1, -1, 9, 10, 99, 100, 999, 1000, -999, -1000, 9999, 10_000, 99_999, 100_000, 999_999,
                1_000_000, 1_234_567, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1};
        for (long n : edges) {
            assertEquals(String.format(Locale.ROOT, "%,d", n), Human.count(n), "count(" + n + ")");
        }
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 10_000; i++) {
            long n = random.nextLong() >> random.nextInt(64); // every number of digits, both signs
            assertEquals(String.format(Locale.ROOT, "%,d", n), Human.count(n), "count(" + n + ")");
        }
    }
}
