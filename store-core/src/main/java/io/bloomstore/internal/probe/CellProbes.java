package io.bloomstore.internal.probe;

import io.bloomstore.BloomSpec;
import io.bloomstore.internal.cells.CellArray;
import java.util.function.IntToLongFunction;

/**
 * The per-key operations on a filter's cells in memory, each one loop over the key's k probes
 * ({@link Probing}): the updates and the load-ahead here, the queries inherited from
 * {@link CellQueries}. Nothing here allocates, and every loop has the same shape (two per-key
 * values, then a closed form per probe), which the JIT compiles to straight-line code with the
 * layout's {@code index} inlined.
 *
 * <p>Reads are volatile, so a query sees every add that completed before it, through any handle of
 * any process. Writes are one compare-and-set per cell ({@link CellArray}).
 *
 * <p>A filter of 1-bit cells, the usual kind, is queried and added to by loops that each layout
 * writes out with its constants in locals ({@link Probing#allBitsSetVolatile},
 * {@link Probing#setBits}): after a volatile read, the general loop here loads the probing's and
 * the array's fields again at every probe, and an in-cache query or add cost a third more that way
 * (docs/BENCHMARKS-HISTORY.md, FUSED). Counters keep the general loops.
 */
public final class CellProbes extends CellQueries {
    /** The cells the queries read, as the array that also takes updates. */
    private final CellArray array;
    /** Whether the cells are bits, which the layout's own loops probe ({@link Probing#allBitsSetVolatile}). */
    private final boolean bits;
    /** The array's word 0, for those loops. */
    private final long address;
    private final boolean singleWriter;

    public CellProbes(BloomSpec spec, CellArray cells) {
        this(spec, cells, Probing.of(spec));
    }

    CellProbes(BloomSpec spec, CellArray cells, Probing probing) {
        super(spec, cells, probing);
        this.array = cells;
        this.bits = cells.counterBits() == 1;
        this.address = cells.address();
        this.singleWriter = cells.isSingleWriter();
    }

    /** {@inheritDoc} A filter of 1-bit cells is probed by its layout's own loop, as the class says. */
    @Override
    public boolean mightContain(long hash) {
        return bits ? probing.allBitsSetVolatile(address, hash) : super.mightContain(hash);
    }

    /**
     * Increments the k cells of the key whose hash is {@code hash} (saturating); sets them if they
     * are bits, by the layout's own loop ({@link Probing#setBits}).
     *
     * @return whether one of them was zero before: the key was definitely absent
     */
    public boolean increment(long hash) {
        if (bits) {
            return probing.setBits(address, hash, singleWriter);
        }
        long base = probing.base(hash);
        long step = probing.step(hash);
        boolean changed = false;
        for (int i = 0; i < hashes; i++) {
            changed |= array.incrementSaturating(probing.index(base, step, i)) == 0;
        }
        return changed;
    }

    /**
     * Loads one word of every cache line the keys of {@code keyHashes[from .. to)} probe, and
     * returns their sum, which the caller must keep so the loads are not dropped: the load-ahead
     * pass of {@link BatchProber}, also run over several filters at once by a segmented file's
     * batch query, so that the misses of all its regions overlap.
     */
    public long loadLines(long[] keyHashes, int from, int to) {
        return probing.loadLines(array, keyHashes, from, to);
    }

    /** Loads the line of each key's first probe ({@link Probing#loadFirstLines}); returns a sum to keep. */
    public long loadFirstLines(long[] keyHashes, int from, int to) {
        return probing.loadFirstLines(array, keyHashes, from, to);
    }

    /**
     * Queries keys {@code 0 .. count)}, key i hashing to {@code hashOfKey(i)}, into
     * {@code results[0 .. count)}, many keys in flight ({@link Probing.Standard#mightContainInRounds}):
     * the batch query of a standard-layout filter beyond the caches.
     *
     * @return how many may be present
     * @throws ClassCastException if the filter's layout is not the standard one
     */
    public int mightContainInRounds(int count, IntToLongFunction hashOfKey, boolean[] results) {
        return ((Probing.Standard) probing).mightContainInRounds(address,
                Integer.numberOfTrailingZeros(array.counterBits()), array.maxValue(), count, hashOfKey, results);
    }

    /**
     * Decrements the k counters if the key may be present (saturated counters stay, see
     * {@link CellArray#decrementSaturating}); a definitely absent key changes nothing, since lowering
     * its non-zero cells would only take occurrences from other keys.
     *
     * @return whether the key may have been present, and so was decremented
     */
    public boolean decrement(long hash) {
        if (!mightContain(hash)) {
            return false;
        }
        long base = probing.base(hash);
        long step = probing.step(hash);
        for (int i = 0; i < hashes; i++) {
            array.decrementSaturating(probing.index(base, step, i));
        }
        return true;
    }
}
