package io.bloomstore.internal.cells;

import net.openhft.chronicle.core.UnsafeMemory;

/**
 * Cell arrays of one shape (m cells of w bits) read at one cell index together: the slots of a
 * ring, asked for one key in lockstep ({@code internal.probe.LockstepQueries} says why). The arrays'
 * lent addresses (see {@link CellArray}) are held in one {@code long[]}, so that a read costs an
 * element load, an add and the cell's load, not a walk through each array object's fields: a
 * ring's query makes 10 to 30 such reads, and in the caches their instructions are most of what it
 * costs (docs/BENCHMARKS-HISTORY.md, SEGLAT).
 */
public final class CellArrayGroup {
    private static final UnsafeMemory MEMORY = UnsafeMemory.MEMORY;

    private final PackedCells shape;
    private final long[] addresses;

    /**
     * @param arrays at least one array, all of the first one's m and w
     * @throws IllegalArgumentException if there is none, or one differs in m or w: a read at an
     *     index of the first could fall outside it
     */
    public CellArrayGroup(CellArray... arrays) {
        if (arrays.length == 0) {
            throw new IllegalArgumentException("a group of no arrays");
        }
        this.shape = arrays[0];
        this.addresses = new long[arrays.length];
        for (int j = 0; j < arrays.length; j++) {
            if (arrays[j].cells() != shape.cells() || arrays[j].counterBits() != shape.counterBits()) {
                throw new IllegalArgumentException("array " + j + " has " + arrays[j].cells() + " cells of "
                        + arrays[j].counterBits() + " bits where array 0 has " + shape.cells() + " cells of "
                        + shape.counterBits() + " bits");
            }
            addresses[j] = arrays[j].address();
        }
    }

    /** The number of arrays. */
    public int size() {
        return addresses.length;
    }

    /** m, the cells of each array. */
    public long cells() {
        return shape.cells();
    }

    /** w, the bits of each cell. */
    public int counterBits() {
        return shape.counterBits();
    }

    /**
     * Which arrays in {@code [first, end)} have cell {@code i} non-zero, read with volatile
     * semantics: bit {@code j - first} for array j. No read depends on another's value, and
     * none is skipped, so the reads' misses overlap.
     *
     * @param i a cell index in {@code [0, m)} (not checked: probing has reduced it)
     * @param first the first array read
     * @param end one past the last array read, at most {@code first + 64}
     */
    public long nonZeroAt(long i, int first, int end) {
        long offset = shape.wordOf(i) << 3;
        int shift = shape.shift(i);
        long set = 0;
        for (int j = first; j < end; j++) {
            set |= nonZeroBit(cellAt(j, offset, shift)) << (j - first);
        }
        return set;
    }

    /**
     * Which arrays among {@code among} (bit b: array {@code first + b}) have cell {@code i}
     * non-zero, read with volatile semantics. Only those arrays are read, so the reads' addresses
     * depend on {@code among}'s value, which the CPU must know before it can issue them.
     *
     * @param i a cell index in {@code [0, m)} (not checked)
     * @param first the array that bit 0 stands for
     * @param among the arrays to read; none past the last
     */
    public long nonZeroAmong(long i, int first, long among) {
        long offset = shape.wordOf(i) << 3;
        int shift = shape.shift(i);
        long set = 0;
        for (long rest = among; rest != 0; rest &= rest - 1) {
            int b = Long.numberOfTrailingZeros(rest);
            set |= nonZeroBit(cellAt(first + b, offset, shift)) << b;
        }
        return set;
    }

    /**
     * Whether cell {@code i} of array {@code array} is non-zero, read with volatile semantics.
     *
     * @param array an array of the group (not checked)
     * @param i a cell index in {@code [0, m)} (not checked)
     */
    public boolean isNonZero(int array, long i) {
        return cellAt(array, shape.wordOf(i) << 3, shape.shift(i)) != 0;
    }

    /** The cell at bit {@code shift} of the word at byte {@code wordOffset} of array {@code array}, volatile read. */
    private long cellAt(int array, long wordOffset, int shift) {
        return (MEMORY.readVolatileLong(addresses[array] + wordOffset) >>> shift) & shape.maxValue();
    }

    /** 1 if {@code value} is non-zero, else 0, without a branch (a cell's value is never negative). */
    private static long nonZeroBit(long value) {
        return (value | -value) >>> 63;
    }
}
