package io.bloomstore.spark;

import static org.junit.jupiter.api.Assertions.*;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.WindowSpec;
import io.bloomstore.WindowedBloomFilter;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Dedup over batches: each key once, across runs that reopen the same filter file. */
class NewKeysTest {
    @TempDir
    Path dir;

    private static List<String> newKeys(List<String> batch, io.bloomstore.MembershipFilter seen) throws IOException {
        return BloomstoreSpark.newKeys(SparkFixtures.strings(batch, 2), "id", seen).collectAsList().stream()
                .map(r -> r.getString(0)).sorted().collect(Collectors.toList());
    }

    @Test
    void aKeyIsNewOnceAcrossBatchesAndRuns() throws IOException {
        Path file = dir.resolve("seen.bloom");
        BloomSpec spec = BloomSpec.forExpected(10_000, 1e-6);
        try (BloomFilter seen = BloomFilter.openOrCreate(file, spec)) {
            assertEquals(List.of("a", "b", "c"), newKeys(Arrays.asList("a", "b", "a", null, "c", "b"), seen));
            assertEquals(List.of("d"), newKeys(List.of("c", "d"), seen));
        }
        // the next run: a new handle on the file the first run left
        try (BloomFilter seen = BloomFilter.openOrCreate(file, spec)) {
            assertEquals(List.of("e"), newKeys(List.of("a", "d", "e"), seen));
        }
    }

    @Test
    void aWindowedFilterForgetsKeysOnceTheWindowHasPassed() throws IOException {
        Path file = dir.resolve("seen-window.bloom");
        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        WindowSpec spec = WindowSpec.of(10_000, 1e-6, Duration.ofHours(1)).withEpochs(4);
        try (WindowedBloomFilter seen = WindowedBloomFilter.create(file, spec, Clock.fixed(start, ZoneOffset.UTC))) {
            assertEquals(List.of("a", "b"), newKeys(List.of("a", "b"), seen));
            assertEquals(List.of("c"), newKeys(List.of("a", "c"), seen));
        }
        Clock later = Clock.fixed(start.plus(Duration.ofHours(3)), ZoneOffset.UTC);
        try (WindowedBloomFilter seen = WindowedBloomFilter.open(file, io.bloomstore.OpenMode.READ_WRITE, later)) {
            assertEquals(List.of("a", "c"), newKeys(List.of("a", "c"), seen), "three hours on, the window has forgotten them");
        }
    }

    @Test
    void aMissingKeyColumnIsNamed() throws IOException {
        try (BloomFilter seen = BloomFilter.create(dir.resolve("s.bloom"), BloomSpec.forExpected(10, 0.01))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> BloomstoreSpark.newKeys(SparkFixtures.strings(List.of("a"), 1), "key", seen));
            assertTrue(e.getMessage().startsWith("no column key"), e.getMessage());
        }
    }
}
