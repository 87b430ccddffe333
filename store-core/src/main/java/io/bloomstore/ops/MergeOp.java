package io.bloomstore.ops;

import io.bloomstore.cells.CounterLanes;

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

    /** Combines two words of w-bit cells. */
    public long combine(long a, long b, int counterBits) {
        return this == OR ? CounterLanes.saturatingAdd(a, b, counterBits) : CounterLanes.minimum(a, b, counterBits);
    }

    /** The name used on the command line. */
    public String cliName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
