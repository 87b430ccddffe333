package io.bloomstore.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bloomstore.FilterFullException;
import io.bloomstore.GrowingBloomFilter;
import io.bloomstore.GrowingSpec;
import io.bloomstore.segmented.RefusedGrowth;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disk that fills up while a growing filter grows: the growth is refused with the disk's numbers,
 * the file keeps its published segments and answers every key, nothing is left allocated, and once
 * space is freed {@link GrowingBloomFilter#grow()} resumes. Runs on a 384 KiB tmpfs mounted for the
 * test, so it needs root (or CAP_SYS_ADMIN) and is skipped, saying why, where mounting is not allowed.
 */
class GrowthOnAFullDiskTest {
    private static final long FS_BYTES = 384 * 1024;
    /** Leaves 256 KiB: segments 0 to 5 of a 1000-key chain (156 KiB with the container page) fit, segment 6 (132 KiB more) does not. */
    private static final int FILLER_BYTES = 128 * 1024;

    @TempDir
    Path scratch;
    private Path small;
    private String whyNotMounted;

    @BeforeEach
    void mount() throws Exception {
        small = Files.createDirectory(scratch.resolve("small-fs"));
        whyNotMounted = DiskFullTest.run("mount", "-t", "tmpfs", "-o", "size=" + FS_BYTES, "tmpfs", small.toString());
    }

    @AfterEach
    void unmount() throws Exception {
        if (whyNotMounted == null) {
            assertEquals(null, DiskFullTest.run("umount", small.toString()), "unmounting " + small);
        }
    }

    @Test
    void aFullDiskRefusesTheGrowthClearlyAndTheFilterKeepsAnswering() throws Exception {
        assumeTrue(whyNotMounted == null, () -> "no small file system to fill: " + whyNotMounted);
        Path filler = Files.write(small.resolve("filler"), new byte[FILLER_BYTES]);
        Path file = small.resolve("growing.bloom");
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(file, GrowingSpec.of(1000, 0.01))) {
            RefusedGrowth stop = RefusedGrowth.addUntilRefused(filter, 200_000);
            long key = stop.keysAdded();
            FilterFullException refused = stop.refusal();
            String message = refused.getMessage();
            assertTrue(message.startsWith(file + ": cannot grow to ") && message.contains("for segment 6")
                    && message.contains(small + " has ") && message.contains("the filter keeps answering queries"), message);
            assertEquals(6, filter.segmentCount());
            long published = 4096 + filter.stats().parts().stream().mapToLong(p -> 4096 + (p.cells() + 32767) / 32768 * 4096).sum();
            assertEquals(published, Files.size(file), "nothing beyond the published segments stays allocated");
            for (long k = 0; k < key; k++) {
                assertTrue(filter.mightContain(k), "key " + k + " added before the disk filled");
            }
            long next = key;
            assertThrows(FilterFullException.class, () -> filter.add(next), "adds stay refused");
            Files.delete(filler);
            filter.grow();
            assertEquals(7, filter.segmentCount());
            filter.add(next);
            assertTrue(filter.mightContain(next), "adds resume once there is room");
        }
    }
}
