package io.bloomstore.internal.bulk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.BloomFilter;
import io.bloomstore.OpenMode;
import io.bloomstore.BloomSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The adder threads of {@code add} and {@code build}: nothing lost, failures surface, nothing outlives the handle. */
class AddPipelineTest {
    private static final Duration HANG = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void addsEveryKeyOfEveryBatchOnceWhateverTheBatchSizes() throws Exception {
        int keys = 300_000;
        // p = 1e-9 at n: a distinct key finds all its cells set already with probability < 1e-9, so
        // all are new unless a batch is lost, added twice, or read after its array was handed back
        BloomSpec spec = BloomSpec.builder().expectedKeys(keys).fpp(1e-9).build();
        try (BloomFilter filter = BloomFilter.create(dir.resolve("f.bloom"), spec)) {
            SplittableRandom sizes = new SplittableRandom(42);
            long newKeys;
            try (AddPipeline adds = new AddPipeline(filter::addHashes, KeyBatch.CAPACITY, 3)) {
                long[] hashes = new long[KeyBatch.CAPACITY];
                for (int next = 0; next < keys; ) {
                    int count = Math.min(keys - next, 1 + sizes.nextInt(KeyBatch.CAPACITY));
                    for (int i = 0; i < count; i++) {
                        hashes[i] = filter.hasher().hash((long) next++);
                    }
                    hashes = adds.submit(hashes, count);
                    assertEquals(KeyBatch.CAPACITY, hashes.length);
                }
                newKeys = adds.finish();
            }
            assertEquals(keys, newKeys, "every distinct key counted new once");
            for (long key = 0; key < keys; key++) {
                assertTrue(filter.mightContain(key), "key " + key + " was added");
            }
            assertEquals(0, adderThreads(), "finish joins the adders");
        }
    }

    @Test
    void anAdderThatFailsFailsTheCallerWithItsException() throws Exception {
        Path file = dir.resolve("f.bloom");
        BloomFilter.create(file, BloomSpec.builder().expectedKeys(1000).fpp(0.01).build()).close();
        try (BloomFilter readOnly = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            IllegalStateException e = assertTimeoutPreemptively(HANG, () -> assertThrows(IllegalStateException.class, () -> {
                try (AddPipeline adds = new AddPipeline(readOnly::addHashes, 4, AddPipeline.defaultThreads())) {
                    long[] hashes = new long[4];
                    for (int i = 0; i < 1000; i++) { // far more than the queue holds: a dead adder must not hang this
                        hashes = adds.submit(hashes, 4);
                    }
                    adds.finish();
                }
            }));
            assertTrue(e.getMessage().contains("read-only"), e.getMessage());
        }
        assertEquals(0, adderThreads(), "close joins the adders");
    }

    @Test
    void closeWithoutFinishStopsTheAddersBeforeReturning() throws Exception {
        try (BloomFilter filter = BloomFilter.create(dir.resolve("f.bloom"), BloomSpec.builder().expectedKeys(1000).fpp(0.01).build())) {
            assertTimeoutPreemptively(HANG, () -> {
                try (AddPipeline adds = new AddPipeline(filter::addHashes, 8, AddPipeline.defaultThreads())) {
                    adds.submit(new long[8], 8);
                    assertTrue(adderThreads() > 0, "adders run");
                } // the caller failed: no finish
            });
            assertEquals(0, adderThreads(), "no adder may touch the filter after close");
        }
    }

    private static long adderThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("bloomstore-adder") && t.isAlive()).count();
    }
}
