package io.bloomstore;

import static io.bloomstore.FilterAssertions.assertEveryKeyPresent;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.internal.cells.CellArray;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A filter of more than 2^33 one-bit cells (a 1 GiB sparse file): probing reaches the whole index
 * range, beyond 2^32 and 2^33 -- no 32-bit truncation anywhere between the hash and the word
 * address -- and every key is found.
 */
class HugeSparseFilterTest {
    /** 2^33 + 2^26 cells: the last window of 2^26 cells lies entirely above 2^33. */
    private static final long CELLS = (1L << 33) + (1L << 26);
    private static final int HASHES = 3;
    /**
     * Each probe dirties one 4 KiB page of the sparse file, so the keys decide how much of the file
     * becomes real disk and page cache: 20,000 keys x 3 probes touch ~240 MB, and still put ~460
     * probes into every window checked below.
     */
    private static final int KEYS = 20_000;
    /** Windows of 2^26 cells (8 MiB of words): small enough to scan, large enough to count probes. */
    private static final long WINDOW_CELLS = 1L << 26;
    /** Where the windows start: the bottom, around 2^31 and 2^32, between 2^32 and 2^33, above 2^33. */
    private static final List<Long> WINDOW_STARTS = List.of(0L, 1L << 31, (1L << 32) - (1L << 25),
            (1L << 32) + (1L << 31), (1L << 33) - WINDOW_CELLS, 1L << 33);

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Layout.class, names = {"SBBF", "GUAVA", "SPARK_SKETCH"}, mode = EnumSource.Mode.EXCLUDE)
    void probesReachTheWholeRangeBeyondTwoToTheThirtyThree(Layout layout) throws Exception {
        BloomSpec spec = BloomSpec.builder().cells(CELLS).hashes(HASHES).layout(layout).build();
        assertEquals(CELLS, spec.cells(), "a whole number of blocks, so the blocked layout keeps m");
        try (BloomFilter filter = BloomFilter.create(dir.resolve("huge.bloom"), spec, CreateOption.SPARSE)) {
            for (long key = 0; key < KEYS; key++) {
                filter.add(key);
            }
            assertEveryKeyPresent(filter, 0, KEYS);

            // A window holding the fraction f = WINDOW_CELLS / m of the range receives a Poisson
            // number of keys with mean KEYS f, and each brings HASHES probes (the blocked layout puts
            // all of a key's probes in one window, hence the spread of HASHES per key).
            double keysPerWindow = (double) KEYS * WINDOW_CELLS / CELLS;
            double expectedSetCells = HASHES * keysPerWindow;
            double tolerance = 6 * HASHES * Math.sqrt(keysPerWindow);
            CellArray cells = filter.cells();
            assertAll(WINDOW_STARTS.stream().map(start -> (Executable) () -> {
                long set = setCellsIn(cells, start, WINDOW_CELLS);
                assertTrue(Math.abs(set - expectedSetCells) <= tolerance, String.format(
                        "cells [%d, %d) hold %d set cells where %.0f +- %.0f were expected: probing does not"
                                + " spread over the whole range", start, start + WINDOW_CELLS, set, expectedSetCells,
                        tolerance));
            }));
        }
    }

    /** The number of set one-bit cells in {@code [from, from + count)}, both multiples of 64. */
    private static long setCellsIn(CellArray cells, long from, long count) {
        long set = 0;
        for (long word = from / Long.SIZE; word < (from + count) / Long.SIZE; word++) {
            set += Long.bitCount(cells.getWordVolatile(word));
        }
        return set;
    }
}
