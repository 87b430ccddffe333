package io.bloomstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The capacity signal a dedup index polls: every handle's adds count, nothing is scanned. */
class CapacityTest {
    @TempDir
    Path dir;

    @Test
    void aFilterIsPastCapacityOnceItHoldsMoreKeysThanItWasSizedFor() throws Exception {
        try (BloomFilter filter = BloomFilter.create(dir.resolve("f.bloom"), BloomSpec.forExpected(1_000, 0.01))) {
            for (long key = 0; key < 900; key++) {
                filter.add(key);
            }
            assertFalse(filter.isPastCapacity());
            assertTrue(filter.approximateKeys() >= 880 && filter.approximateKeys() <= 900, "" + filter.approximateKeys());
            filter.addAll(java.util.stream.LongStream.range(900, 3_000).toArray());
            assertTrue(filter.isPastCapacity(), "" + filter.approximateKeys());
            assertTrue(filter.spec().expectedFpp(filter.approximateKeys()) > 0.1, "the rate it reports has climbed");
        }
    }

    @Test
    void anotherHandlesPublishedAddsCountToo() throws Exception {
        Path file = dir.resolve("shared.bloom");
        BloomSpec spec = BloomSpec.forExpected(1_000, 0.01);
        try (BloomFilter writer = BloomFilter.create(file, spec)) {
            writer.addAll(java.util.stream.LongStream.range(0, 2_000).toArray());
        }
        try (BloomFilter reader = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertTrue(reader.isPastCapacity(), "" + reader.approximateKeys());
        }
    }

    @Test
    void aFilterSizedByCellsAndHashesHasNoCapacity() throws Exception {
        try (BloomFilter filter = BloomFilter.create(dir.resolve("m.bloom"), BloomSpec.builder().cells(1 << 10).hashes(3).build())) {
            filter.addAll(java.util.stream.LongStream.range(0, 5_000).toArray());
            assertFalse(filter.isPastCapacity());
            assertEquals(0, filter.spec().expectedKeys());
        }
    }
}
