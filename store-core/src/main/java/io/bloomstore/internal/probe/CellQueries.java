package io.bloomstore.internal.probe;

import io.bloomstore.BloomSpec;
import io.bloomstore.internal.cells.PackedCells;

/**
 * The per-key queries of a filter's cells, each one loop over the key's k probes ({@link Probing}),
 * on cells read in whichever way ({@link PackedCells}): from memory by {@link CellProbes}, which
 * adds the updates, or from the file by a positional read per probe. Nothing here allocates; the
 * loops have the shape {@link CellProbes} describes.
 */
public class CellQueries {
    private final PackedCells cells;
    final Probing probing;
    final int hashes;

    /**
     * Queries of the cells of a filter of shape {@code spec}.
     *
     * @param cells the filter's m cells of w bits, in the layout {@code spec} names
     */
    public CellQueries(BloomSpec spec, PackedCells cells) {
        this(spec, cells, Probing.of(spec));
    }

    CellQueries(BloomSpec spec, PackedCells cells, Probing probing) {
        this.cells = cells;
        this.probing = probing;
        this.hashes = spec.hashes();
    }

    /**
     * Whether all k cells are non-zero. Stops at the first zero: an absent key costs about two
     * probes on average in a filter at its designed fill, where about half the cells are zero.
     */
    public boolean mightContain(long hash) {
        long base = probing.base(hash);
        long step = probing.step(hash);
        for (int i = 0; i < hashes; i++) {
            if (cells.getVolatile(probing.index(base, step, i)) == 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The smallest of the k counters: an upper bound of how often the key was added, since every
     * add of it raised all k and other keys only raise some further. Stops at a zero.
     */
    public final long minimum(long hash) {
        long base = probing.base(hash);
        long step = probing.step(hash);
        long min = Long.MAX_VALUE;
        for (int i = 0; i < hashes && min > 0; i++) {
            min = Math.min(min, cells.getVolatile(probing.index(base, step, i)));
        }
        return min;
    }
}
