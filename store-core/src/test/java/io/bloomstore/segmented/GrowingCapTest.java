package io.bloomstore.segmented;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.FilterFullException;
import io.bloomstore.GrowingBloomFilter;
import io.bloomstore.GrowingSpec;
import io.bloomstore.OpenMode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A growing file at its cap (its max size): {@link GrowingBloomFilter#headroom} says how many keys
 * it still takes, exactly as many as its adds then take, and a file reopened at its cap refuses
 * the first add, so restarts do not push its newest segment past its capacity.
 */
class GrowingCapTest {
    @TempDir
    Path dir;

    @Test
    void headroomIsWhatTheAddsTakeAndRestartsAtTheCapAddNothing() throws Exception {
        Path file = dir.resolve("capped.bloom");
        long key = 0;
        long newestKeys;
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(file, GrowingSpec.of(1000, 0.01).withMaxBytes(40_000))) {
            while (filter.headroom() == Long.MAX_VALUE) {
                filter.add(key++); // while the next segment fits, there is no limit to foresee
            }
            long headroom = filter.headroom();
            assertTrue(headroom > 0 && headroom < 4000, headroom + " keys left in the newest segment");
            long taken = 0;
            while (filter.headroom() > 0) {
                taken += filter.add(key++) ? 1 : 0;
            }
            assertTrue(taken >= headroom - 2 && taken <= headroom, taken + " new keys taken for a headroom of " + headroom);
            assertThrows(FilterFullException.class, () -> filter.add(-1L));
            newestKeys = newestKeys(filter);
            assertTrue(newestKeys <= 4000, newestKeys + " keys in the 4000-key segment");
        }
        for (int restart = 0; restart < 3; restart++) {
            try (GrowingBloomFilter filter = GrowingBloomFilter.open(file, OpenMode.READ_WRITE)) {
                assertEquals(0, filter.headroom());
                assertTrue(filter.growthRefusal().orElseThrow().contains("max size of 40000 bytes"), filter.growthRefusal().orElseThrow());
                long next = key + restart;
                assertThrows(FilterFullException.class, () -> filter.add(next), "refused at the first add");
                assertEquals(newestKeys, newestKeys(filter), "the newest segment took nothing more");
                assertEquals("ok", SegmentedFilterWorker.firstMissing(filter, 0, key));
            }
        }
    }

    private static long newestKeys(GrowingBloomFilter filter) {
        var parts = filter.stats().parts();
        return parts.get(parts.size() - 1).publishedKeys();
    }
}
