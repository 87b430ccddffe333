package io.bloomstore.internal.cells;

/**
 * Whole-word arithmetic on the 64/w cells packed in one 64-bit word (SWAR: SIMD within a
 * register), so merging and counting touch each word once instead of each cell.
 */
public final class CounterLanes {
    private CounterLanes() {
    }

    /** The lowest bit of every w-bit lane: 0x5555... for w = 2, 0x1111... for w = 4, and so on. */
    static long lowBits(int w) {
        return Long.divideUnsigned(-1L, (1L << w) - 1);
    }

    /** The number of non-zero w-bit lanes in {@code word}. */
    public static int nonZeroLanes(long word, int w) {
        if (w == 1) {
            return Long.bitCount(word);
        }
        // Fold each lane's bits down into its lowest bit, then count those.
        long folded = word;
        for (int s = w >>> 1; s >= 1; s >>>= 1) {
            folded |= folded >>> s;
        }
        return Long.bitCount(folded & lowBits(w));
    }

    /** Lane-wise saturating sum of two words of w-bit counters: OR-merge of counting filters. */
    public static long saturatingAdd(long a, long b, int w) {
        if (w == 1) {
            return a | b;
        }
        long max = (1L << w) - 1;
        long result = 0;
        for (int shift = 0; shift < 64; shift += w) {
            long sum = ((a >>> shift) & max) + ((b >>> shift) & max);
            result |= Math.min(sum, max) << shift;
        }
        return result;
    }

    /** Lane-wise minimum of two words of w-bit counters: AND-merge of counting filters. */
    public static long minimum(long a, long b, int w) {
        if (w == 1) {
            return a & b;
        }
        long max = (1L << w) - 1;
        long result = 0;
        for (int shift = 0; shift < 64; shift += w) {
            result |= Math.min((a >>> shift) & max, (b >>> shift) & max) << shift;
        }
        return result;
    }
}
