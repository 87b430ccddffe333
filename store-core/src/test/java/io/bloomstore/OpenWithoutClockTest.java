package io.bloomstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MembershipFilter#open(Path, OpenMode)}: a file of any kind opened without a clock, which
 * only a windowed file's epochs read (from the system clock then), answers as one opened with it.
 */
class OpenWithoutClockTest {
    @TempDir
    Path dir;

    @Test
    void fixedAndGrowingFilesOpenWithoutAClock() throws IOException {
        Path fixed = dir.resolve("fixed.bloom");
        Path growing = dir.resolve("growing.bloom");
        BloomFilter.create(fixed, BloomSpec.forExpected(1_000, 0.01)).close();
        GrowingBloomFilter.create(growing, GrowingSpec.of(100, 0.01)).close();
        for (Path file : new Path[] {fixed, growing}) {
            try (MembershipFilter filter = MembershipFilter.open(file, OpenMode.READ_WRITE)) {
                for (int i = 0; i < 500; i++) {
                    filter.add("key-" + i);
                }
            }
            try (MembershipFilter filter = MembershipFilter.open(file, OpenMode.READ_ONLY)) {
                assertTrue(filter.isReadOnly());
                for (int i = 0; i < 500; i++) {
                    assertTrue(filter.mightContain("key-" + i), file + ": key-" + i);
                }
            }
        }
        try (MembershipFilter filter = MembershipFilter.open(growing, OpenMode.READ_ONLY)) {
            assertEquals(FilterKind.GROWING, filter.kind());
            assertTrue(filter.shape() instanceof FilterShape.Growing g && g.segments() > 1, "the chain grew: " + filter.shape());
        }
    }

    @Test
    void aWindowedFileReadsTheSystemClock() throws IOException {
        Path file = dir.resolve("windowed.bloom");
        WindowSpec spec = WindowSpec.of(10_000, 0.01, Duration.ofHours(1));
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(file, spec, Clock.systemUTC())) {
            filter.add("seen");
        }
        try (MembershipFilter filter = MembershipFilter.open(file, OpenMode.READ_WRITE)) {
            assertTrue(filter.mightContain("seen"));
            assertTrue(filter.add("new"), "a key not seen within the window is new");
            assertFalse(filter.add("new"));
            FilterShape.Windowed shape = (FilterShape.Windowed) filter.shape();
            long systemEpoch = Math.floorDiv(System.currentTimeMillis(), spec.window().toMillis() / spec.epochs());
            assertTrue(Math.abs(shape.queryEpoch() - systemEpoch) <= 1, "epoch " + shape.queryEpoch() + " vs " + systemEpoch);
        }
    }
}
