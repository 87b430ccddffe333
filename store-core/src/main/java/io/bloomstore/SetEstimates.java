package io.bloomstore;

import io.bloomstore.internal.cells.CellArray;
import io.bloomstore.internal.cells.CounterLanes;
import io.bloomstore.internal.math.FalsePositiveMath;

/**
 * Sizes of two key sets and of their union and intersection, estimated from two compatible filters
 * without their keys (Swamidass &amp; Baldi 2007, with the blocked layout's correction, as
 * {@link FilterStats#estimatedKeys()} has it): |A| from A's set cells, |A u B| from the cells
 * set in A or B, and |A n B| = |A| + |B| - |A u B|. Jaccard = |A n B| / |A u B|.
 *
 * @param sizeA estimated distinct keys in A
 * @param sizeB estimated distinct keys in B
 * @param union estimated |A u B|
 * @param intersection estimated |A n B|, clamped at 0
 * @param jaccard intersection / union, 0 when both are empty
 */
public record SetEstimates(double sizeA, double sizeB, double union, double intersection, double jaccard) {

    /** Estimates from one pass over both filters' cells. */
    public static SetEstimates of(BloomFilter a, BloomFilter b) throws InvalidFilterFileException {
        Merge.requireCompatible(a.path(), a.spec(), b.path(), b.spec());
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
        }
        // The layout's estimator, the one stats() uses: a blocked filter's keys crowd some blocks,
        // which the standard formula does not know and would undercount.
        BloomSpec spec = a.spec();
        double sizeA = FalsePositiveMath.estimateKeys(spec, setA);
        double sizeB = FalsePositiveMath.estimateKeys(spec, setB);
        double union = FalsePositiveMath.estimateKeys(spec, setEither);
        double intersection = Math.max(0, sizeA + sizeB - union);
        double jaccard = union > 0 ? intersection / union : 0;
        return new SetEstimates(sizeA, sizeB, union, intersection, jaccard);
    }
}
