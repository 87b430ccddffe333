package io.bloomstore.internal.cells;

import java.util.Objects;
import java.util.function.LongConsumer;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.core.UnsafeMemory;

/**
 * m cells of w bits ({@link PackedCells}) in a stretch of a Chronicle Bytes {@link BytesStore},
 * normally a file mapping ({@link FileMapping#store()}). A cell never straddles two words, so every
 * update is one compare-and-set of one aligned word: lock-free, and atomic for every thread and
 * process that maps the same file.
 *
 * <p>The bits past
 * cell m - 1 (of the last cell's word, and every word after it) are padding: zero in an intact
 * file. Whole-array passes ({@link #countNonZero()}, merges through {@link #clearPadding}) never
 * count or carry a padding bit, and {@link #firstWordWithPaddingSet()} finds one for verification.
 *
 * <p>Counters saturate at 2^w - 1: an increment there leaves it there, and so does a decrement,
 * because a saturated counter may stand for more keys than it can count; lowering it could make a
 * present key absent. Saturation therefore trades a little false-positive rate for never a false
 * negative.
 *
 * <p>Two ways to the memory. The whole-array word methods go through the store, and refuse a word
 * index outside {@code [0, words())} with an {@link IndexOutOfBoundsException} (Chronicle's native
 * stores do not check offsets, so this class does). The per-cell methods, which run once per probe
 * of every key, take indices that probing has already reduced into {@code [0, m)}: they use the
 * address the store lends for the array (taken once, after the range was checked) with Chronicle's
 * {@link UnsafeMemory}, the very calls the store makes inside, without reloading the store's mutable
 * memory and address fields on every access, and without an index check. Both costs were measured
 * (docs/BENCHMARKS-HISTORY.md, "Chronicle Bytes on the hot paths").
 */
public final class CellArray extends PackedCells {
    private static final UnsafeMemory MEMORY = UnsafeMemory.MEMORY;
    private static final long LONG_ARRAY_BASE = MEMORY.arrayBaseOffset(long[].class);
    /** How much a scan reads between two reports of its progress: often enough for a bar, rarely enough to cost nothing. */
    public static final long SCAN_STEP_BYTES = 8L << 20;
    private static final long SCAN_STEP_WORDS = SCAN_STEP_BYTES >>> 3;
    private static final long PAGE_WORDS = 4096 >>> 3;

    private final BytesStore<?, ?> store;
    /** The address the store lends for word 0: for the per-cell methods only. */
    private final long address;
    /** The store offset of word 0. */
    private final long base;
    private final long words;
    /** Words holding at least one cell: the rest of the array is padding. */
    private final long cellWords;
    /** The bits of the last cell word that hold cells. */
    private final long lastCellWordMask;
    /** Whether increments may be plain stores: see {@link #singleWriter}. */
    private final boolean singleWriter;

    /**
     * Cells shared with any thread and process: every increment is a compare-and-set.
     *
     * @param store the memory the cells live in; it must outlive this array
     * @param offset where word 0 starts in {@code store}: 8-byte aligned in memory
     * @param cells m
     * @param counterBits w
     * @param lengthBytes bytes from {@code offset} that belong to the array (a multiple of 8 holding m cells)
     */
    public CellArray(BytesStore<?, ?> store, long offset, long cells, int counterBits, long lengthBytes) {
        this(store, offset, cells, counterBits, lengthBytes, false);
    }

    /**
     * Cells that one thread alone changes, in memory no other process maps (a build's image in
     * anonymous memory, filled by one adder): {@link #incrementSaturating} is a plain load and
     * store, without the locked instruction of a compare-and-set, which no other writer needs
     * here. The rest is as for shared cells. Measured in docs/BENCHMARKS-HISTORY.md ("Plain stores
     * for a single writer").
     */
    public static CellArray singleWriter(BytesStore<?, ?> store, long offset, long cells, int counterBits,
            long lengthBytes) {
        return new CellArray(store, offset, cells, counterBits, lengthBytes, true);
    }

    private CellArray(BytesStore<?, ?> store, long offset, long cells, int counterBits, long lengthBytes,
            boolean singleWriter) {
        super(cells, counterBits);
        if (java.nio.ByteOrder.nativeOrder() != java.nio.ByteOrder.LITTLE_ENDIAN) {
            // Words are read in native order; the format is little-endian (docs/FORMAT.md).
            throw new UnsupportedOperationException("bloomstore needs a little-endian CPU");
        }
        Objects.checkFromIndexSize(offset, lengthBytes, store.capacity());
        long address = store.addressForRead(offset);
        // A CAS of a word that straddles two cache lines is not atomic everywhere, and slow where it is.
        if ((address & 7) != 0) {
            throw new IllegalArgumentException("cell words must be 8-byte aligned");
        }
        this.store = store;
        this.base = offset;
        this.address = address;
        this.words = lengthBytes >>> 3;
        this.singleWriter = singleWriter;
        this.cellWords = cellWords();
        this.lastCellWordMask = lastCellWordMask();
        if (cellWords > words) {
            throw new IllegalArgumentException(lengthBytes + " bytes cannot hold " + cells + " cells of " + counterBits + " bits");
        }
    }

    /** The number of 64-bit words. */
    public long words() {
        return words;
    }

    /** Cell {@code i}'s value, read with volatile semantics (sees every completed update). */
    @Override
    public long getVolatile(long i) {
        return cellOf(MEMORY.readVolatileLong(wordAddress(i)), i);
    }

    /**
     * Adds one to cell {@code i} unless it is saturated; for 1-bit cells, sets the bit.
     *
     * @return the value before the call (so 0 means this call made the cell non-zero)
     */
    public long incrementSaturating(long i) {
        long at = wordAddress(i);
        int shift = shift(i);
        long max = maxValue();
        if (singleWriter) {
            long word = MEMORY.readLong(at);
            long value = (word >>> shift) & max;
            if (value != max) {
                MEMORY.writeLong(at, word + (1L << shift));
            }
            return value;
        }
        for (int failures = 1; ; failures++) {
            long word = MEMORY.readVolatileLong(at);
            long value = (word >>> shift) & max;
            if (value == max || MEMORY.compareAndSwapLong(at, word, word + (1L << shift))) {
                return value;
            }
            MappingFaults.afterFailedAttempt(failures);
        }
    }

    /**
     * Whether bit {@code i} of the 1-bit cells whose word 0 is at {@code address} is set, by a
     * volatile read of its word: {@link #getVolatile} for 1-bit cells, with the array's address
     * passed in. For the probe loops of 1-bit filters ({@code internal.probe.Probing}), which keep
     * the address and their own constants in locals: a volatile read orders every later load
     * after it, so a constant read from a field inside the loop is loaded again at every probe,
     * and those loads, with the general arithmetic of w-bit cells, made a third of an in-cache
     * query (docs/BENCHMARKS-HISTORY.md, FUSED).
     */
    public static boolean isBitSetVolatile(long address, long i) {
        return (MEMORY.readVolatileLong(address + ((i >>> 6) << 3)) & (1L << i)) != 0;
    }

    /**
     * Sets bit {@code i} of the 1-bit cells whose word 0 is at {@code address}, as
     * {@link #incrementSaturating} does for 1-bit cells (a compare-and-set, or a plain store for
     * a {@link #singleWriter} array), for the probe loops {@link #isBitSetVolatile} describes.
     *
     * @return whether the bit was clear before: this call set it
     */
    public static boolean setBit(long address, long i, boolean singleWriter) {
        long at = address + ((i >>> 6) << 3);
        long bit = 1L << i; // a shift takes its distance mod 64: the bit's place in its word
        if (singleWriter) {
            long word = MEMORY.readLong(at);
            MEMORY.writeLong(at, word | bit);
            return (word & bit) == 0;
        }
        for (int failures = 1; ; failures++) {
            long word = MEMORY.readVolatileLong(at);
            if ((word & bit) != 0) {
                return false;
            }
            if (MEMORY.compareAndSwapLong(at, word, word | bit)) {
                return true;
            }
            MappingFaults.afterFailedAttempt(failures);
        }
    }

    /**
     * The word at byte address {@code wordAddress}, volatile read: a sectorized probe loop's load of
     * one sector, or a standard batch query's round's load of a probe's word, of cells of any width
     * ({@code internal.probe.Probing}), kept static for the reason {@link #isBitSetVolatile} gives.
     */
    public static long wordVolatile(long wordAddress) {
        return MEMORY.readVolatileLong(wordAddress);
    }

    /**
     * Sets the bits of {@code mask} in the word at byte address {@code wordAddress} of 1-bit cells,
     * all at once: one compare-and-set of the whole word (a plain store for a {@link #singleWriter}
     * array), retried only while another writer changes the word and a bit of the mask is still clear.
     *
     * @return whether a bit of the mask was clear before: this call set it
     */
    public static boolean setBitsOfWord(long wordAddress, long mask, boolean singleWriter) {
        if (singleWriter) {
            long word = MEMORY.readLong(wordAddress);
            MEMORY.writeLong(wordAddress, word | mask);
            return (~word & mask) != 0;
        }
        for (int failures = 1; ; failures++) {
            long word = MEMORY.readVolatileLong(wordAddress);
            if ((~word & mask) == 0) {
                return false;
            }
            if (MEMORY.compareAndSwapLong(wordAddress, word, word | mask)) {
                return true;
            }
            MappingFaults.afterFailedAttempt(failures);
        }
    }

    /** Whether increments are plain stores ({@link #singleWriter}). */
    public boolean isSingleWriter() {
        return singleWriter;
    }

    /**
     * Subtracts one from cell {@code i} unless it is zero or saturated.
     *
     * @return the value before the call
     */
    public long decrementSaturating(long i) {
        long at = wordAddress(i);
        int shift = shift(i);
        long max = maxValue();
        for (int failures = 1; ; failures++) {
            long word = MEMORY.readVolatileLong(at);
            long value = (word >>> shift) & max;
            if (value == 0 || value == max || MEMORY.compareAndSwapLong(at, word, word - (1L << shift))) {
                return value;
            }
            MappingFaults.afterFailedAttempt(failures);
        }
    }

    /**
     * Stores {@code value} into cell {@code i} if it is more than the cell holds (CAS-max): the
     * add of a max-rule valued filter, and the set to the maximum of a stable filter's add.
     *
     * @return the value before the call
     */
    public long raiseTo(long i, long value) {
        return joinCell(i, value, true);
    }

    /**
     * Stores {@code value} (non-zero) into cell {@code i} if the cell is empty (zero) or holds more
     * (CAS-min over the non-empty values): the add of a min-rule valued filter.
     *
     * @return the value before the call
     */
    public long lowerTo(long i, long value) {
        return joinCell(i, value, false);
    }

    /** {@link #raiseTo} if {@code max}, else {@link #lowerTo}: one compare-and-set loop for both joins. */
    private long joinCell(long i, long value, boolean max) {
        long at = wordAddress(i);
        int shift = shift(i);
        long mask = maxValue() << shift;
        for (int failures = 1; ; failures++) {
            long word = MEMORY.readVolatileLong(at);
            long before = (word & mask) >>> shift;
            boolean holds = max ? before >= value : before != 0 && before <= value;
            if (holds || MEMORY.compareAndSwapLong(at, word, (word & ~mask) | (value << shift))) {
                return before;
            }
            MappingFaults.afterFailedAttempt(failures);
        }
    }

    /**
     * Subtracts one from each non-zero cell of the {@code count} cells from {@code start} on,
     * wrapping past cell m - 1 to cell 0 (a cell is lowered again on each pass when count > m):
     * the decrements of a stable filter's add. Unlike {@link #decrementSaturating} a cell at the
     * maximum is lowered too: there it means "set recently", not "overflowed". One compare-and-set
     * per word of the run, whatever the cells in it ({@link CounterLanes#decrementNonZero}).
     */
    public void decrementRun(long start, long count) {
        long m = cells();
        long i = start;
        int w = counterBits();
        long perWord = 64 / w;
        for (long left = count; left > 0; ) {
            long inWord = Math.min(Math.min(left, perWord - (i & (perWord - 1))), m - i);
            int shift = shift(i);
            long lanes = inWord * w == 64 ? -1L : ((1L << (inWord * w)) - 1) << shift;
            long at = wordAddress(i);
            for (int failures = 1; ; failures++) {
                long word = MEMORY.readVolatileLong(at);
                long lowered = CounterLanes.decrementNonZero(word, lanes, w);
                if (lowered == word || MEMORY.compareAndSwapLong(at, word, lowered)) {
                    break;
                }
                MappingFaults.afterFailedAttempt(failures);
            }
            left -= inWord;
            i += inWord;
            if (i == m) {
                i = 0;
            }
        }
    }

    /**
     * The word holding cell {@code i}, plain read: for touching a cache line ahead of use, so
     * that the misses of many keys overlap (the load-ahead pass of {@code internal.probe.BatchProber}).
     */
    public long getWordOfCellPlain(long i) {
        return MEMORY.readLong(wordAddress(i));
    }

    /** Word {@code w}, volatile read. */
    public long getWordVolatile(long w) {
        return store.readVolatileLong(checkedWordOffset(w));
    }

    /**
     * Copies words {@code [from, from + count)} into {@code into[0, count)} with plain loads, in
     * bulk: a snapshot of a stretch of cells for whole-filter passes such as merging, which a
     * concurrent adder may or may not have reached.
     */
    public void copyWordsPlain(long from, long[] into, int count) {
        Objects.checkFromIndexSize(from, count, words);
        Objects.checkFromIndexSize(0, count, into.length);
        // Chronicle Bytes copies in bulk only into byte arrays and native memory, not into a long[]:
        // Chronicle's memory copy, from the address the store gives for this (checked) stretch.
        MEMORY.copyMemory(store.addressForRead(base + (from << 3)), into, LONG_ARRAY_BASE,
                Math.multiplyExact(count, Long.BYTES));
    }

    /** Compare-and-set of word {@code w}. */
    public boolean compareAndSetWord(long w, long expected, long value) {
        return store.compareAndSwapLong(checkedWordOffset(w), expected, value);
    }

    /** Plain write of word {@code w}, for arrays no other thread uses yet. */
    public void putWord(long w, long value) {
        store.writeLong(checkedWordOffset(w), value);
    }

    /** The number of non-zero cells (padding bits, were any set, are not cells and are not counted). */
    public long countNonZero() {
        return countNonZero(null);
    }

    /**
     * The number of non-zero cells, as {@link #countNonZero()}, telling {@code bytesScanned} (if not
     * null) how many bytes of the array were scanned after every {@link #SCAN_STEP_BYTES} and at the end.
     */
    public long countNonZero(LongConsumer bytesScanned) {
        long count = 0;
        for (long start = 0; start < cellWords; start += SCAN_STEP_WORDS) {
            long end = Math.min(cellWords, start + SCAN_STEP_WORDS);
            for (long w = start; w < end; w++) {
                count += CounterLanes.nonZeroLanes(MEMORY.readLong(address + (w << 3)) & cellBitsOfWord(w), counterBits());
            }
            MappingFaults.raisePending();
            report(bytesScanned, end == cellWords ? words : end); // the words past the last cell's hold only padding
        }
        return count;
    }

    /** The bits of word {@code w} that hold cells: all of them before the last cell's word, none after it. */
    public long cellBitsOfWord(long w) {
        return w < cellWords - 1 ? -1L : w == cellWords - 1 ? lastCellWordMask : 0;
    }

    /**
     * Clears the padding bits of {@code copy[0, count)}, a copy of words {@code [from, from + count)}:
     * so that a merge writes zero padding whatever its inputs hold there.
     */
    public void clearPadding(long[] copy, long from, int count) {
        for (long w = Math.max(from, cellWords - 1); w < from + count; w++) {
            copy[(int) (w - from)] &= cellBitsOfWord(w);
        }
    }

    /** The first word with a padding bit set (damage: no operation writes one), or -1 if there is none. */
    public long firstWordWithPaddingSet() {
        for (long w = cellWords - 1; w < words; w++) {
            if ((MEMORY.readVolatileLong(address + (w << 3)) & ~cellBitsOfWord(w)) != 0) {
                return w;
            }
        }
        return -1;
    }

    /**
     * Reads the array through in order, one word per page, so that its pages are in memory (read
     * from the file by the kernel, with its read-ahead) before a pass that cannot report its own
     * progress, telling {@code bytesRead} (if not null) how far it got as {@link #countNonZero(LongConsumer)} does.
     */
    public void readThrough(LongConsumer bytesRead) {
        for (long start = 0; start < words; start += SCAN_STEP_WORDS) {
            long end = Math.min(words, start + SCAN_STEP_WORDS);
            for (long w = start; w < end; w += PAGE_WORDS) {
                MEMORY.readVolatileLong(address + (w << 3)); // volatile: a load the compiler may not drop
            }
            MappingFaults.raisePending();
            report(bytesRead, end);
        }
    }

    private static void report(LongConsumer bytesDone, long wordsDone) {
        if (bytesDone != null) {
            bytesDone.accept(wordsDone << 3);
        }
    }

    /**
     * The address the store lends for word 0, valid while the store is: for {@link CellArrayGroup}'s
     * reads, for the 1-bit probe loops ({@link #isBitSetVolatile}) and for a standard batch query's
     * rounds ({@link #wordVolatile}).
     */
    public long address() {
        return address;
    }

    private long wordAddress(long i) {
        return address + (wordOf(i) << 3);
    }

    private long checkedWordOffset(long w) {
        return base + (Objects.checkIndex(w, words) << 3);
    }
}
