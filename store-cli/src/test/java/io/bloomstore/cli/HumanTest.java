package io.bloomstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
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

    /** The examples Human's Javadoc gives are what it prints. */
    @Test
    void printsItsDocumentedExamples() {
        assertEquals("1%", Human.percent(0.01));
        assertEquals("0.0123%", Human.percent(0.000123));
        assertEquals("1.00e-08%", Human.percent(1e-10));
        assertEquals("1,234,567", Human.estimate(1_234_567.4));
        assertEquals("unknown (every cell is set)", Human.estimate(Double.POSITIVE_INFINITY));
        assertEquals("1.5 MiB", Human.bytes(1_572_864));
        assertEquals("512 bytes", Human.bytes(512));
        assertEquals("7d", Human.duration(Duration.ofDays(7)));
        assertEquals("1h30m", Human.duration(Duration.ofMinutes(90)));
        assertEquals("2s", Human.duration(Duration.ofSeconds(2)));
        assertEquals("1500ms", Human.duration(Duration.ofMillis(1500)));
        assertEquals("2x", Human.factor(2));
        assertEquals("1.5x", Human.factor(1.5));
    }
}
