package io.bloomstore.internal.probe;

import io.bloomstore.BloomSpec;
import io.bloomstore.internal.cells.CellArray;

/**
 * Probing into a slice of a blocked or sectorized filter: the cells of a contiguous range of its
 * blocks (lines), held apart from the rest (by one task of a distributed build). Such a key's k
 * cells all lie in one block, so the keys whose block is in the slice are set in it exactly as in
 * the whole filter; the slices laid end to end are the whole filter's cells.
 */
public final class SliceProbes {
    private final long firstBlock;
    private final long blockCount;
    private final long blocks;
    private final CellProbes probes;
    private final BatchProber batches;

    /**
     * @param spec the whole filter's shape (blocked or sectorized)
     * @param firstBlock the slice's first block
     * @param cells the slice's cells: cell 0 is the first cell of {@code firstBlock}
     * @throws IllegalArgumentException if the layout is standard, whose keys are not kept in one block
     */
    public SliceProbes(BloomSpec spec, long firstBlock, CellArray cells) {
        this.blocks = Probing.Blocked.blocks(spec);
        this.firstBlock = firstBlock;
        this.blockCount = cells.cells() / spec.cellsPerBlock();
        this.probes = new CellProbes(spec, cells, Probing.slice(spec, firstBlock));
        this.batches = new BatchProber(spec, probes);
    }

    /** The block of a filter of shape {@code spec} (blocked or sectorized) that holds the cells of the key whose hash is {@code hash}. */
    public static long blockOf(BloomSpec spec, long hash) {
        return Probing.Blocked.block(hash, Probing.Blocked.blocks(spec));
    }

    /**
     * Sets the cells of the keys whose hashes are {@code hashes[0 .. count)}, all of whose blocks
     * must lie in the slice: checked first, since a cell index outside the slice's memory would
     * write into memory that is not the filter's.
     *
     * @return how many of them were definitely new to the slice
     * @throws IllegalArgumentException naming the first hash whose block is not in the slice; no cell is set
     */
    public int addHashes(long[] hashes, int count) {
        for (int i = 0; i < count; i++) {
            long block = Probing.Blocked.block(hashes[i], blocks) - firstBlock;
            if (block < 0 || block >= blockCount) {
                throw new IllegalArgumentException(String.format("hash %016x falls in block %d, outside the slice's"
                        + " blocks [%d, %d)", hashes[i], block + firstBlock, firstBlock, firstBlock + blockCount));
            }
        }
        return batches.addHashes(hashes, count);
    }
}
