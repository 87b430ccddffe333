package io.bloomstore.internal.cells;

/**
 * Whole-word arithmetic on the 64/w cells packed in one 64-bit word (SWAR: SIMD within a
 * register): every method works on all lanes at once with a fixed handful of word operations,
 * so merging and counting touch each word once instead of each cell, and the merge loops over
 * arrays of words have no inner loop the JIT must unroll or vectorise lane by lane.
 *
 * <p>The common device: a lane's top bit is set apart ({@link #highBits}) so that arithmetic on
 * the other w - 1 bits cannot carry or borrow into the next lane; the top bit's own outcome is
 * then worked out with bitwise logic, and a per-lane verdict held in the top bits is widened to a
 * whole-lane mask by a multiply ({@link #laneMasks}).
 */
public final class CounterLanes {
    private CounterLanes() {
    }

    /** The lowest bit of every w-bit lane: 0x5555... for w = 2, 0x1111... for w = 4, and so on. */
    static long lowBits(int w) {
        return Long.divideUnsigned(-1L, (1L << w) - 1);
    }

    /** The top bit of every w-bit lane: 0xAAAA... for w = 2, 0x8888... for w = 4, and so on. */
    static long highBits(int w) {
        return lowBits(w) << (w - 1);
    }

    /**
     * Every lane whose top bit is set in {@code verdicts} (other bits clear) made all ones, the
     * others zero. The multiply cannot carry between lanes: each lane's product is at most 2^w - 1.
     */
    private static long laneMasks(long verdicts, int w) {
        return (verdicts >>> (w - 1)) * ((1L << w) - 1);
    }

    /** The number of non-zero w-bit lanes in {@code word}. */
    public static int nonZeroLanes(long word, int w) {
        if (w == 1) {
            return Long.bitCount(word);
        }
        // Fold each lane's bits down into its lowest bit, then count those: log2(w) shifts.
        long folded = word;
        for (int s = w >>> 1; s >= 1; s >>>= 1) {
            folded |= folded >>> s;
        }
        return Long.bitCount(folded & lowBits(w));
    }

    /**
     * Lane-wise saturating sum of two words of w-bit counters: OR-merge of counting filters. The
     * sum of the low w - 1 bits cannot leave its lane; the top bit is added by XOR, and a lane
     * carries out of its top bit (overflows) when both top bits are set, or one is and the low
     * sum carried into it. Overflowed lanes are set to 2^w - 1.
     */
    public static long saturatingAdd(long a, long b, int w) {
        if (w == 1) {
            return a | b;
        }
        long high = highBits(w);
        long sum = ((a & ~high) + (b & ~high)) ^ ((a ^ b) & high);
        long overflow = ((a & b) | ((a | b) & ~sum)) & high;
        return sum | laneMasks(overflow, w);
    }

    /**
     * Lane-wise minimum of two words of w-bit counters: AND-merge of counting filters. With every
     * top bit of {@code a} set and those of {@code b} clear, the subtraction cannot borrow across
     * lanes, and a lane's top bit is left set exactly when a's low bits are at least b's. Then
     * a >= b in a lane when a's top bit is set and b's is not, or the top bits are equal and the
     * low bits say so; those lanes take b, the others a.
     */
    public static long minimum(long a, long b, int w) {
        if (w == 1) {
            return a & b;
        }
        long high = highBits(w);
        long lowAtLeast = (a | high) - (b & ~high);
        long atLeast = ((a & ~b) | (~(a ^ b) & lowAtLeast)) & high;
        long takeB = laneMasks(atLeast, w);
        return (b & takeB) | (a & ~takeB);
    }

    /**
     * {@code word} with one taken from each of its non-zero lanes among the lanes of {@code lanes}
     * (a mask of whole lanes): no lane borrows from the next, since only lanes holding at least one
     * are lowered. The decrements of a stable filter.
     */
    public static long decrementNonZero(long word, long lanes, int w) {
        long folded = word;
        for (int s = w >>> 1; s >= 1; s >>>= 1) {
            folded |= folded >>> s;
        }
        return word - (folded & lowBits(w) & lanes);
    }

    /**
     * Lane-wise maximum of two words of w-bit cells: the join of max-rule valued filters.
     */
    public static long maximum(long a, long b, int w) {
        long min = minimum(a, b, w);
        return a ^ b ^ min;
    }

    /**
     * Lane-wise minimum over the non-zero lanes of two words (a zero lane is empty and takes the
     * other's value): the join of min-rule valued filters.
     */
    public static long minimumNonEmpty(long a, long b, int w) {
        long emptyA = laneMasks(zeroLanes(a, w), w);
        long emptyB = laneMasks(zeroLanes(b, w), w);
        long min = minimum(a, b, w);
        return (min & ~emptyA & ~emptyB) | (a & emptyB) | (b & emptyA);
    }

    /** The top bit of each zero lane of {@code word}, the other bits clear. */
    private static long zeroLanes(long word, int w) {
        long folded = word;
        for (int s = w >>> 1; s >= 1; s >>>= 1) {
            folded |= folded >>> s;
        }
        return (~folded & lowBits(w)) << (w - 1);
    }
}
