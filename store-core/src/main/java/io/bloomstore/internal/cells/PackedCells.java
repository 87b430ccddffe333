package io.bloomstore.internal.cells;

/**
 * m cells of w bits (w in 1, 2, 4, 8, 16, 32) packed into little-endian 64-bit words, as a filter
 * file lays them out (docs/FORMAT.md): where cell {@code i} lies, and its value. Cell {@code i} is
 * bits {@code [(i mod 64/w) w, +w)} of word {@code i / (64/w)}; a cell never straddles two words.
 *
 * <p>The word and lane arithmetic is here once, for the two ways cells are read: from memory
 * ({@link CellArray}, the mapping or an image, which also updates them) and from the file by a
 * positional read per word ({@link PositionalCells}, for a few queries without a mapping). The
 * probe loops read cells through this type ({@code internal.probe.CellQueries}); in a JVM that has
 * loaded only {@link CellArray}, the JIT binds {@link #getVolatile} to it by class-hierarchy
 * analysis and inlines it, so the mapped hot path pays no dispatch (docs/BENCHMARKS-HISTORY.md,
 * "CLI start-up", step 13: the inlining and the benchmark).
 */
public abstract class PackedCells {
    private final long cells;
    private final int counterBits;
    private final int log2Bits;
    private final int log2CellsPerWord;
    private final long cellIndexMask;
    private final long max;

    PackedCells(long cells, int counterBits) {
        this.cells = cells;
        this.counterBits = counterBits;
        this.log2Bits = Integer.numberOfTrailingZeros(counterBits);
        this.log2CellsPerWord = 6 - log2Bits;
        this.cellIndexMask = (1L << log2CellsPerWord) - 1;
        this.max = (1L << counterBits) - 1;
    }

    /** m. */
    public final long cells() {
        return cells;
    }

    /** w. */
    public final int counterBits() {
        return counterBits;
    }

    /** The largest value a counter holds; a counter at this value is saturated. */
    public final long maxValue() {
        return max;
    }

    /**
     * Cell {@code i}'s value, {@code i} in [0, m) (probing reduces every index into it; not checked
     * again here), as of this read: it sees every update completed before it, through any handle of
     * any process.
     */
    public abstract long getVolatile(long i);

    /** The number of words that hold at least one of the m cells. */
    final long cellWords() {
        return (cells + cellIndexMask) >>> log2CellsPerWord;
    }

    /** The bits of the last cell word that hold cells (all of them when it is full). */
    final long lastCellWordMask() {
        int lastWordBits = (int) (cells & cellIndexMask) << log2Bits;
        return lastWordBits == 0 ? -1L : (1L << lastWordBits) - 1;
    }

    /** The index of the word that holds cell {@code i}. */
    final long wordOf(long i) {
        return i >>> log2CellsPerWord;
    }

    /** Where cell {@code i} starts in its word, in bits. */
    final int shift(long i) {
        return (int) (i & cellIndexMask) << log2Bits;
    }

    /** Cell {@code i}'s value in {@code word}, the word that holds it. */
    final long cellOf(long word, long i) {
        return (word >>> shift(i)) & max;
    }
}
