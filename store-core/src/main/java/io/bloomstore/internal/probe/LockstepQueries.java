package io.bloomstore.internal.probe;

import io.bloomstore.BloomSpec;
import io.bloomstore.internal.cells.CellArrayGroup;

/**
 * One key asked of several cell arrays of one shape (the slots of a ring, which share m, k and
 * the probing) in lockstep: may any of them hold it? The key's probe positions are computed once,
 * and probe i is read in every array still in the running before probe i + 1 in any.
 *
 * <p>Why, with the numbers of docs/BENCHMARKS.md (LOCKSTEP; EPYC, a ring of 9 slots of 8 M keys
 * each, one dependent miss ~236 ns): asked one array after the other, an absent key ends each
 * array's probe loop at a branch on a cell that is zero or not at random (a coin toss per probe
 * in a half-full array), so the CPU mispredicts about once an array, drops what it had started
 * beyond it, and waits for the arrays' misses one after the other: 1,216 ns a query in the
 * blocked layout, 8.4 times the fixed filter's. In lockstep the first probe's cell is read in
 * every array at once, with no branch on the values ({@link CellArrayGroup#nonZeroAt}), so those
 * misses overlap; the arrays whose cell was set go on together probe by probe, and the last one
 * left alone finishes by itself, its remaining probes depending on nothing but the key, so the
 * CPU runs ahead through them. Blocked layout: 633 ns, 3.8 times the fixed filter (nine lines in
 * nine places cost 379 ns on their own), all of a key's cells in an array sharing the line round
 * 0 loaded. Standard layout, where each probe is a line of its own, so that a round waits for the
 * misses of the arrays still in the running: 1,625 against 2,147 ns. Present keys wait for every
 * array's first line where the other order stopped at the holder: 1.2 times faster all the same
 * in the blocked layout (741 against 890 ns, the holder scattered over the slots as in use), 1.2
 * times slower in the standard layout (2,087 against 1,690 ns).
 */
public final class LockstepQueries {
    private final Probing probing;
    private final int hashes;
    private final CellArrayGroup arrays;

    /**
     * @param spec the arrays' one shape (m, k, w, layout)
     * @param arrays the arrays, each holding {@code spec}'s m cells of w bits
     * @throws IllegalArgumentException if the arrays' m or w is not the spec's: a probe would read
     *     outside them
     */
    public LockstepQueries(BloomSpec spec, CellArrayGroup arrays) {
        if (arrays.cells() != spec.cells() || arrays.counterBits() != spec.counterBits()) {
            throw new IllegalArgumentException("arrays of " + arrays.cells() + " cells of " + arrays.counterBits()
                    + " bits probed as " + spec.cells() + " cells of " + spec.counterBits() + " bits");
        }
        this.probing = Probing.of(spec);
        this.hashes = spec.hashes();
        this.arrays = arrays;
    }

    /**
     * Whether one of the arrays among {@code candidates} may hold the key: every one of the key's k
     * cells in it is non-zero. The first probe's cell is read in arrays {@code first} to
     * {@code first + 63} (or the last) whatever the candidates.
     *
     * @param hash the key's 64-bit hash
     * @param first the array that bit 0 of {@code candidates} stands for
     * @param candidates the arrays to ask, bit b for array {@code first + b}; none past the last
     * @return whether one of them may hold the key
     */
    public boolean anyHolds(long hash, int first, long candidates) {
        long base = probing.base(hash);
        long step = probing.step(hash);
        int end = Math.min(arrays.size(), first + Long.SIZE);
        long running = candidates & arrays.nonZeroAt(probing.index(base, step, 0), first, end);
        int i = 1;
        for (; i < hashes && (running & (running - 1)) != 0; i++) { // two or more still in the running
            running = arrays.nonZeroAmong(probing.index(base, step, i), first, running);
        }
        if (running == 0) {
            return false;
        }
        int last = first + Long.numberOfTrailingZeros(running);
        for (; i < hashes; i++) {
            if (!arrays.isNonZero(last, probing.index(base, step, i))) {
                return false;
            }
        }
        return true;
    }
}
