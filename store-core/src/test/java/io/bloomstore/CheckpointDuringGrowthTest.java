package io.bloomstore;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A checkpoint of a growing file whose segments are published while it copies: the segment written
 * ahead when the copy's first page was read may take keys before the copy reaches it, and the copy
 * must still be a file that verify passes (its first page does not publish that segment, so the
 * segment is copied as prepared: empty).
 */
class CheckpointDuringGrowthTest {
    @TempDir
    Path dir;

    @Test
    void everyCopyTakenWhileTheChainGrowsVerifies() throws Exception {
        Path live = dir.resolve("live.bloom");
        Path copy = dir.resolve("copy.bloom");
        AtomicBoolean stop = new AtomicBoolean();
        int checkpoints = 0;
        int segmentsBefore;
        int segmentsAfter;
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(live, GrowingSpec.of(500, 0.01))) {
            Thread adder = new Thread(() -> {
                for (long key = 0; !stop.get() && key < 4_000_000; key++) {
                    filter.add(key);
                }
            });
            segmentsBefore = filter.segmentCount();
            adder.start();
            try {
                while (adder.isAlive() && checkpoints < 400) {
                    Checkpoint.write(live, copy);
                    checkpoints++;
                    try (GrowingBloomFilter copied = GrowingBloomFilter.open(copy, OpenMode.READ_ONLY)) {
                        copied.verify();
                    }
                }
            } finally {
                stop.set(true);
                adder.join();
            }
            segmentsAfter = filter.segmentCount();
        }
        assertTrue(checkpoints >= 3 && segmentsAfter - segmentsBefore >= 8,
                checkpoints + " checkpoints while the chain grew from " + segmentsBefore + " to " + segmentsAfter + " segments");
    }
}
