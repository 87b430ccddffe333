package io.bloomstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.bloomstore.internal.cells.CellArray;

/** Checks on whole filters shared by the tests of this package. */
final class FilterAssertions {
    private FilterAssertions() {
    }

    /**
     * Fails unless every cell of {@code actual} equals that of {@code expected}: the strongest
     * statement that no update was lost or doubled (e.g. by concurrent writers).
     */
    static void assertSameCells(BloomFilter expected, BloomFilter actual) {
        CellArray want = expected.cells();
        CellArray got = actual.cells();
        assertEquals(want.words(), got.words(), "words of cells");
        long differing = 0;
        long firstDifference = -1;
        for (long w = 0; w < want.words(); w++) {
            if (want.getWordVolatile(w) != got.getWordVolatile(w)) {
                differing++;
                firstDifference = firstDifference < 0 ? w : firstDifference;
            }
        }
        if (differing > 0) {
            fail(String.format("%d of %d words differ from a single-threaded reference; the first is word %d:"
                    + " expected %016x, found %016x", differing, want.words(), firstDifference,
                    want.getWordVolatile(firstDifference), got.getWordVolatile(firstDifference)));
        }
    }

    /** Fails on the first key of {@code [from, from + count)} that {@code filter} reports absent. */
    static void assertEveryKeyPresent(BloomFilter filter, long from, long count) {
        for (long key = from; key < from + count; key++) {
            if (!filter.mightContain(key)) {
                fail("false negative: key " + key + " was added and acknowledged but is reported absent");
            }
        }
    }

    /** The largest value of any cell. */
    static long largestCell(BloomFilter filter) {
        CellArray cells = filter.cells();
        int bits = cells.counterBits();
        long largest = 0;
        for (long w = 0; w < cells.words(); w++) {
            long word = cells.getWordVolatile(w);
            for (int shift = 0; shift < 64 && word != 0; shift += bits) {
                largest = Math.max(largest, (word >>> shift) & cells.maxValue());
            }
        }
        return largest;
    }
}
