package io.bloomstore;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * add and mightContain allocate nothing on the Java heap, for every key type the hot paths take:
 * measured with the JVM's per-thread allocation counter around a million warm calls. (One thread:
 * the LongAdder counting new keys may allocate its cells once under contention, by design.)
 */
class AllocationFreeHotPathTest {
    private static final int CALLS = 1_000_000;
    private static final int WARM_UP_ROUNDS = 3;
    /**
     * What a million calls may allocate in all: room for measurement noise (the counter itself,
     * a stray safepoint), nowhere near the ~16 MB that even one small object per call would make.
     */
    private static final long ALLOWED_BYTES = 1024;
    /** Keys are drawn from pools of this size (a power of two), built before measuring. */
    private static final int POOL = 1024;

    /** Where the measured loop leaves its answers. */
    private static volatile int answers;

    @TempDir
    Path dir;

    /** One call of the filter with the i-th key of a pool; an int argument, so nothing is boxed. */
    @FunctionalInterface
    interface KeyedCall {
        boolean call(BloomFilter filter, int i);
    }

    /** Every key type of the hot paths, with ready-made keys so the measured loop only calls the filter. */
    enum KeyType {
        LONG((f, i) -> f.add((long) i), (f, i) -> f.mightContain((long) i)),
        BYTES((f, i) -> f.add(Pools.BYTES[i & (POOL - 1)]), (f, i) -> f.mightContain(Pools.BYTES[i & (POOL - 1)])),
        ASCII_STRING((f, i) -> f.add(Pools.STRINGS[i & (POOL - 1)]),
                (f, i) -> f.mightContain(Pools.STRINGS[i & (POOL - 1)])),
        HEAP_BUFFER((f, i) -> f.add(Pools.HEAP_BUFFERS[i & (POOL - 1)]),
                (f, i) -> f.mightContain(Pools.HEAP_BUFFERS[i & (POOL - 1)])),
        DIRECT_BUFFER((f, i) -> f.add(Pools.DIRECT_BUFFERS[i & (POOL - 1)]),
                (f, i) -> f.mightContain(Pools.DIRECT_BUFFERS[i & (POOL - 1)]));

        final KeyedCall add;
        final KeyedCall mightContain;

        KeyType(KeyedCall add, KeyedCall mightContain) {
            this.add = add;
            this.mightContain = mightContain;
        }
    }

    /** The same POOL keys as strings, their UTF-8 bytes, and heap and direct buffers of those. */
    private static final class Pools {
        static final String[] STRINGS = new String[POOL];
        static final byte[][] BYTES = new byte[POOL][];
        static final ByteBuffer[] HEAP_BUFFERS = new ByteBuffer[POOL];
        static final ByteBuffer[] DIRECT_BUFFERS = new ByteBuffer[POOL];

        static {
            for (int i = 0; i < POOL; i++) {
                STRINGS[i] = "user-" + i + "@example.org";
                BYTES[i] = STRINGS[i].getBytes(StandardCharsets.UTF_8);
                HEAP_BUFFERS[i] = ByteBuffer.wrap(BYTES[i]);
                DIRECT_BUFFERS[i] = ByteBuffer.allocateDirect(BYTES[i].length).put(BYTES[i]).flip();
            }
        }
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource({"add, LONG, STANDARD", "add, BYTES, STANDARD", "add, ASCII_STRING, STANDARD",
            "add, HEAP_BUFFER, STANDARD", "add, DIRECT_BUFFER, STANDARD", "mightContain, LONG, STANDARD",
            "mightContain, BYTES, STANDARD", "mightContain, ASCII_STRING, STANDARD",
            "mightContain, HEAP_BUFFER, STANDARD", "mightContain, DIRECT_BUFFER, STANDARD",
            "add, LONG, SECTORIZED", "mightContain, LONG, SECTORIZED"})
    void hotPathAllocatesNothing(String operation, KeyType keyType, Layout layout) throws Exception {
        boolean adding = operation.equals("add");
        BloomSpec spec = BloomSpec.builder().expectedKeys(CALLS).fpp(0.01).layout(layout).build();
        try (BloomFilter filter = BloomFilter.create(dir.resolve("hot.bloom"), spec)) {
            for (int round = 0; round < WARM_UP_ROUNDS; round++) {
                run(filter, keyType, adding);
            }
            long allocated = bytesAllocatedBy(() -> run(filter, keyType, adding));
            assertTrue(allocated < ALLOWED_BYTES, String.format(
                    "%s(%s) allocated %d bytes in %d warm calls (%.3f per call); the hot path must allocate nothing",
                    operation, keyType, allocated, CALLS, (double) allocated / CALLS));
        }
    }

    /** The measurement works: a loop that builds one small string per call is caught. */
    @Test
    void measurementSeesAnAllocatingLoop() throws Exception {
        try (BloomFilter filter = BloomFilter.create(dir.resolve("hot.bloom"), BloomSpec.forExpected(CALLS, 0.01))) {
            long allocated = bytesAllocatedBy(() -> {
                for (int i = 0; i < CALLS; i++) {
                    filter.add(Integer.toString(i));
                }
            });
            assertTrue(allocated > CALLS * 16L, "a million fresh strings allocated only " + allocated + " bytes");
        }
    }

    /** Heap bytes this thread allocated while {@code work} ran. */
    private static long bytesAllocatedBy(Runnable work) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "this JVM does not count allocated bytes per thread");
        long counterCost = -(threads.getCurrentThreadAllocatedBytes() - threads.getCurrentThreadAllocatedBytes());
        long before = threads.getCurrentThreadAllocatedBytes();
        work.run();
        return threads.getCurrentThreadAllocatedBytes() - before - counterCost;
    }

    /** The measured loop. Its answers go to a volatile field, so the JIT cannot drop the calls. */
    private static void run(BloomFilter filter, KeyType keyType, boolean adding) {
        KeyedCall call = adding ? keyType.add : keyType.mightContain;
        int positives = 0;
        for (int i = 0; i < CALLS; i++) {
            positives += call.call(filter, i) ? 1 : 0;
        }
        answers = positives;
    }
}
