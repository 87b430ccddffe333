package io.bloomstore;

import io.bloomstore.internal.cells.CounterLanes;

/**
 * How two compatible filters combine, cell by cell. For 1-bit cells these are the set operations
 * on the key sets' filters: OR is exactly the filter of the union; AND contains the filter of the
 * intersection (its false-positive rate can be higher than a filter built from the intersection).
 * For counters, OR is the saturating sum and AND the minimum, which keeps both free of false
 * negatives.
 */
public enum MergeOp {
    /** Union: bitwise OR; saturating sum of counters. */
    OR,
    /** Intersection: bitwise AND; minimum of counters. */
    AND;

    /**
     * Combines two words of w-bit cells.
     *
     * @param a a word of this filter's cells
     * @param b the word at the same offset in the other filter
     * @param counterBits w, the bits per cell: 1, 2, 4, 8, 16 or 32
     * @return the combined word
     */
    long combine(long a, long b, int counterBits) {
        return this == OR ? CounterLanes.saturatingAdd(a, b, counterBits) : CounterLanes.minimum(a, b, counterBits);
    }

    /**
     * {@code into[i] = combine(into[i], other[i])} for every {@code i < count}. For bit cells the
     * saturating sum is OR and the minimum AND, one instruction per word in a loop the JIT
     * vectorises: merging then runs at memory speed instead of per-word dispatch speed.
     *
     * @param into words of this filter's cells, overwritten with the combined words
     * @param other the words at the same offsets in the other filter; left unchanged
     * @param count how many words to combine, from 0 to the shorter array's length
     * @param counterBits w, the bits per cell: 1, 2, 4, 8, 16 or 32
     */
    void combineAll(long[] into, long[] other, int count, int counterBits) {
        if (counterBits == 1 && this == OR) {
            for (int i = 0; i < count; i++) {
                into[i] |= other[i];
            }
        } else if (counterBits == 1) {
            for (int i = 0; i < count; i++) {
                into[i] &= other[i];
            }
        } else {
            for (int i = 0; i < count; i++) {
                into[i] = combine(into[i], other[i], counterBits);
            }
        }
    }
}
