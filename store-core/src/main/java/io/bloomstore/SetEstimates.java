package io.bloomstore;

import io.bloomstore.internal.cells.CellArray;
import io.bloomstore.internal.cells.CounterLanes;
import io.bloomstore.internal.cells.MappingFaults;
import io.bloomstore.internal.probe.FillEstimates;
import java.util.function.LongConsumer;

/**
 * Sizes of two key sets and of their union and intersection, estimated from two compatible filters
 * without their keys (Swamidass &amp; Baldi 2007, with the blocked layout's correction, as
 * {@link CellArrayStats#estimatedKeys()} has it): |A| from A's set (non-zero) cells, |A u B| from the cells
 * set in A or B, and |A n B| = |A| + |B| - |A u B|. Jaccard = |A n B| / |A u B|.
 *
 * @param sizeA estimated distinct keys in A
 * @param sizeB estimated distinct keys in B
 * @param union estimated |A u B|
 * @param intersection estimated |A n B|, clamped at 0; NaN when a filter is full (every cell set)
 * @param jaccard intersection / union, 0 when both are empty; NaN when a filter is full, since the
 *     union and the intersection are then unknown
 */
public record SetEstimates(double sizeA, double sizeB, double union, double intersection, double jaccard) {
    private static final long PROGRESS_WORDS = CellArray.SCAN_STEP_BYTES >>> 3;

    /**
     * Estimates from one pass over both filters' cells.
     *
     * @param a one filter
     * @param b the other, of the same shape
     * @return the estimates, in keys (NaN where a full filter leaves them unknown, as above)
     * @throws InvalidFilterFileException with {@link InvalidFilterFileException.Problem#INCOMPATIBLE} if the two
     *     differ in shape, or either is a stable filter (its cells do not count its keys)
     */
    public static SetEstimates of(BloomFilter a, BloomFilter b) throws InvalidFilterFileException {
        return of(a, b, null);
    }

    /**
     * Refuses a stable filter, whose cells say nothing of how many keys it saw: every add, repeated
     * or new, first lowers P random cells, so its zero fraction tends to the stable point whatever
     * the stream's length or distinct keys, and a count read from it would be its lifetime, not its
     * keys. A valued filter is estimated as a plain one: a cell is non-empty exactly when a key put
     * hashed to it, whatever the values, as a plain filter's bit is set.
     */
    private static void refuseStable(BloomFilter filter) throws InvalidFilterFileException {
        if (filter.stableSpec().isPresent()) {
            throw new InvalidFilterFileException(filter.path(), InvalidFilterFileException.Problem.INCOMPATIBLE,
                    "is a stable filter, whose cells do not count its keys: each add, repeated or new, lowers random "
                            + "cells, so its fill tends to a fixed point whatever the stream; estimate plain, counting or "
                            + "valued filters");
        }
    }

    /**
     * {@link #of(BloomFilter, BloomFilter)}, telling {@code bytesScanned} how many bytes of each
     * filter's cells were scanned so far (every few MiB and at the end), for a progress display.
     *
     * @param a one filter
     * @param b the other, of the same shape
     * @param bytesScanned told the bytes of either filter's cells scanned so far, on the calling thread; or null
     * @return as {@link #of(BloomFilter, BloomFilter)}
     * @throws InvalidFilterFileException with {@link InvalidFilterFileException.Problem#INCOMPATIBLE} if the two
     *     differ in shape, or either is a stable filter (its cells do not count its keys)
     */
    public static SetEstimates of(BloomFilter a, BloomFilter b, LongConsumer bytesScanned)
            throws InvalidFilterFileException {
        Merge.requireCompatible(a.path(), a.spec(), b.path(), b.spec());
        refuseStable(a);
        refuseStable(b);
        CellArray cellsA = a.cells();
        CellArray cellsB = b.cells();
        int w = a.spec().counterBits();
        long setA = 0;
        long setB = 0;
        long setEither = 0;
        for (long i = 0; i < cellsA.words(); i++) {
            long cellBits = cellsA.cellBitsOfWord(i); // padding bits, set only by damage, are no cells
            long wordA = cellsA.getWordVolatile(i) & cellBits;
            long wordB = cellsB.getWordVolatile(i) & cellBits;
            setA += CounterLanes.nonZeroLanes(wordA, w);
            setB += CounterLanes.nonZeroLanes(wordB, w);
            setEither += CounterLanes.nonZeroLanes(wordA | wordB, w);
            if ((i + 1) % PROGRESS_WORDS == 0 || i + 1 == cellsA.words()) {
                MappingFaults.raisePending();
                if (bytesScanned != null) {
                    bytesScanned.accept((i + 1) << 3);
                }
            }
        }
        // The layout's estimator, the one stats() uses: a blocked filter's keys crowd some blocks,
        // which the standard formula does not know and would undercount.
        BloomSpec spec = a.spec();
        double sizeA = FillEstimates.estimateKeys(spec, setA);
        double sizeB = FillEstimates.estimateKeys(spec, setB);
        double union = FillEstimates.estimateKeys(spec, setEither);
        double intersection = Math.max(0, sizeA + sizeB - union);
        double jaccard = union > 0 ? intersection / union : 0;
        return new SetEstimates(sizeA, sizeB, union, intersection, jaccard);
    }
}
