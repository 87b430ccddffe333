package io.bloomstore.internal.cells;

import static org.junit.jupiter.api.Assertions.*;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.CellsAccess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Cells against a plain long[] model of what each should hold, at every width. */
class CellArrayTest {
    private static final int CELLS = 1000;

    @ParameterizedTest(name = "w={0}")
    @ValueSource(ints = {1, 2, 4, 8, 16, 32})
    void incrementSaturatesAndSaturatedCountersNeverGoDown(int w) {
        long max = (1L << w) - 1;
        try (NativeCells memory = NativeCells.allocate(CELLS, w)) {
            CellArray cells = memory.cells();
            assertEquals(max, cells.maxValue());
            long cell = 333;
            long steps = Math.min(max, 300); // a 32-bit counter is not counted all the way up
            for (long expected = 0; expected < steps; expected++) {
                assertEquals(expected, cells.incrementSaturating(cell));
            }
            if (steps < max) {
                cells.putWord(cell / (64 / w), max << (cell % (64 / w) * w)); // jump to the top
            }
            assertEquals(max, cells.getVolatile(cell));
            assertEquals(max, cells.incrementSaturating(cell), "an increment at max leaves it there");
            assertEquals(max, cells.decrementSaturating(cell), "a saturated counter is never lowered");
            assertEquals(max, cells.getVolatile(cell));
            assertEquals(1, cells.countNonZero(), "neighbours untouched");
        }
    }

    @ParameterizedTest(name = "w={0}")
    @ValueSource(ints = {2, 4, 8, 16, 32})
    void decrementStopsAtZero(int w) {
        try (NativeCells memory = NativeCells.allocate(CELLS, w)) {
            CellArray cells = memory.cells();
            cells.incrementSaturating(5);
            cells.incrementSaturating(5);
            assertEquals(2, cells.decrementSaturating(5));
            assertEquals(1, cells.decrementSaturating(5));
            assertEquals(0, cells.decrementSaturating(5));
            assertEquals(0, cells.getVolatile(5), "no borrow from the neighbour");
            assertEquals(0, cells.getVolatile(4));
            assertEquals(0, cells.getVolatile(6));
        }
    }

    /**
     * The cell rules' updates against a per-cell model: raise and lower (the valued joins) and runs
     * of decrements that start anywhere, cross words, wrap past cell m - 1 and pass a cell twice
     * when longer than m (the stable filter's). m = 203 leaves a part word at the end.
     */
    @ParameterizedTest(name = "w={0}")
    @ValueSource(ints = {1, 2, 4, 8, 16, 32})
    void ruleUpdatesMatchThePerCellModel(int w) {
        int m = 203;
        long max = (1L << w) - 1;
        try (NativeCells memory = NativeCells.allocate(m, w)) {
            CellArray cells = memory.cells();
            long[] model = new long[m];
            java.util.SplittableRandom random = new java.util.SplittableRandom(w);
            for (int op = 0; op < 20_000; op++) {
                int i = random.nextInt(m);
                long value = 1 + random.nextLong(max);
                switch (random.nextInt(3)) {
                    case 0 -> {
                        assertEquals(model[i], cells.raiseTo(i, value));
                        model[i] = Math.max(model[i], value);
                    }
                    case 1 -> {
                        assertEquals(model[i], cells.lowerTo(i, value));
                        model[i] = model[i] == 0 ? value : Math.min(model[i], value);
                    }
                    default -> {
                        long count = random.nextInt(2 * m + 2);
                        cells.decrementRun(i, count);
                        for (long c = 0; c < count; c++) {
                            int at = (int) ((i + c) % m);
                            model[at] = Math.max(0, model[at] - 1);
                        }
                    }
                }
            }
            for (int i = 0; i < m; i++) {
                assertEquals(model[i], cells.getVolatile(i), "cell " + i);
            }
            assertEquals(-1, cells.firstWordWithPaddingSet(), "no update reaches the padding");
        }
    }

    /** Random increments and decrements against the model; every cell, count and word checked after. */
    @ParameterizedTest(name = "w={0}")
    @ValueSource(ints = {1, 2, 4, 8, 16, 32})
    void randomOperationsMatchThePerCellModel(int w) {
        checkRandomOperationsAgainstTheModel(w, false);
    }

    /** The same with plain stores for one writer: the same values, saturation included. */
    @ParameterizedTest(name = "w={0}")
    @ValueSource(ints = {1, 2, 4, 8, 16, 32})
    void aSingleWritersPlainIncrementsMatchThePerCellModel(int w) {
        checkRandomOperationsAgainstTheModel(w, true);
    }

    private static void checkRandomOperationsAgainstTheModel(int w, boolean singleWriter) {
        long max = (1L << w) - 1;
        long[] model = new long[CELLS];
        SplittableRandom random = new SplittableRandom(w * 31L);
        try (NativeCells memory = NativeCells.allocate(CELLS, w, singleWriter)) {
            CellArray cells = memory.cells();
            for (int op = 0; op < 50_000; op++) {
                int cell = random.nextInt(random.nextBoolean() ? 40 : CELLS); // crowd a few words to saturate them
                long before = model[cell];
                if (random.nextInt(3) > 0) {
                    assertEquals(before, cells.incrementSaturating(cell));
                    model[cell] = before == max ? max : before + 1;
                } else {
                    assertEquals(before, cells.decrementSaturating(cell));
                    model[cell] = before == 0 || before == max ? before : before - 1;
                }
            }
            long nonZero = 0;
            for (int cell = 0; cell < CELLS; cell++) {
                assertEquals(model[cell], cells.getVolatile(cell), "cell " + cell);
                nonZero += model[cell] != 0 ? 1 : 0;
            }
            assertEquals(nonZero, cells.countNonZero());
            for (long word = 0; word < cells.words(); word++) {
                long expected = 0;
                for (int lane = 0; lane < 64 / w; lane++) {
                    long cell = word * (64 / w) + lane;
                    expected |= (cell < CELLS ? model[(int) cell] : 0) << (lane * w);
                }
                assertEquals(expected, cells.getWordVolatile(word), "word " + word);
            }
        }
    }

    /**
     * Threads incrementing neighbouring cells of the same words: each update is a CAS of the whole
     * word, so none may be lost however the threads interleave.
     */
    @Test
    void concurrentIncrementsOfNeighbouringCellsAreNeverLost() throws Exception {
        int threads = 4;
        int perThread = 20_000;
        try (NativeCells memory = NativeCells.allocate(64, 16)) { // 4 cells per word, 16 words
            CellArray cells = memory.cells();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            CountDownLatch start = new CountDownLatch(1);
            try {
                Future<?>[] done = new Future<?>[threads];
                for (int t = 0; t < threads; t++) {
                    int lane = t;
                    done[t] = pool.submit(() -> {
                        start.await();
                        for (int i = 0; i < perThread; i++) {
                            cells.incrementSaturating((i % 16) * 4L + lane); // thread t owns lane t of every word
                        }
                        return null;
                    });
                }
                start.countDown();
                for (Future<?> future : done) {
                    future.get(60, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            for (long cell = 0; cell < 64; cell++) {
                assertEquals(perThread / 16, cells.getVolatile(cell), "cell " + cell);
            }
        }
    }

    @Test
    void constructorRefusesMisalignedOrTooSmallMemory() {
        try (NativeCells memory = NativeCells.allocate(128, 1)) {
            BytesStore<?, Void> store = memory.store();
            assertThrows(IllegalArgumentException.class, () -> new CellArray(store, 4, 64, 1, 8));
            IllegalArgumentException small = assertThrows(IllegalArgumentException.class,
                    () -> new CellArray(store, 0, 65, 1, 8));
            assertTrue(small.getMessage().contains("65"), small.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> new CellArray(store, 8, 128, 1, 16),
                    "a stretch that runs past the store's end");
            assertEquals(2, new CellArray(store, 0, 128, 1, 16).words());
        }
    }

    /**
     * The whole-array word methods take indices from their callers, not from probing: one outside
     * the mapping is refused, and the file is left as it was. The words are the cells of a real
     * mapped filter file, where an unchecked write would land in whatever memory follows the mapping.
     */
    @Test
    void wordIndicesOutsideTheArrayAreRefused(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("f.bloom");
        try (BloomFilter filter = BloomFilter.create(file, BloomSpec.builder().cells(1000).hashes(3).build())) {
            CellArray cells = CellsAccess.cells(filter);
            long words = cells.words();
            for (long w : new long[] {-1, words, 1L << 40, Long.MAX_VALUE}) {
                assertThrows(IndexOutOfBoundsException.class, () -> cells.putWord(w, -1L), "putWord " + w);
                assertThrows(IndexOutOfBoundsException.class, () -> cells.compareAndSetWord(w, 0, -1L),
                        "compareAndSetWord " + w);
                assertThrows(IndexOutOfBoundsException.class, () -> cells.getWordVolatile(w), "getWordVolatile " + w);
            }
            long[] into = new long[4];
            assertThrows(IndexOutOfBoundsException.class, () -> cells.copyWordsPlain(words - 3, into, 4), "past the end");
            assertThrows(IndexOutOfBoundsException.class, () -> cells.copyWordsPlain(-1, into, 2), "before the start");
            assertThrows(IndexOutOfBoundsException.class, () -> cells.copyWordsPlain(0, into, 5), "more than into holds");
            assertEquals(0, cells.countNonZero(), "no refused call changed a cell");

            cells.putWord(words - 1, 5L);
            cells.copyWordsPlain(words - 4, into, 4);
            assertArrayEquals(new long[] {0, 0, 0, 5L}, into, "the last words are in range");
        }
    }
}
