package io.bloomstore.internal.probe;

import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import io.bloomstore.internal.cells.CellArrayGroup;

/**
 * One key asked of several cell arrays of one shape (the slots of a ring, which share m, k and
 * the probing) in lockstep: may any of them hold it? The key's probe positions are computed once,
 * and the probes are read in rounds: each probe of a round in every array still in the running,
 * before any probe of the next round in any.
 *
 * <p>Why (a ring of 9 slots, each far larger than the caches): asked one array after the other,
 * an absent key ends each array's probe loop at a branch on a cell that is zero or not at random
 * (a coin toss per probe in a half-full array), so the CPU mispredicts about once an array, drops
 * what it had started beyond it, and waits for the arrays' misses one after the other: about five
 * dependent misses' time a query in the blocked layout. In lockstep the first probe's cell is read
 * in every array at once, with no branch on the values ({@link CellArrayGroup#nonZeroAt}), so those
 * misses overlap; the arrays whose cells were set go on together, and the last one left alone
 * finishes by itself, its remaining probes depending on nothing but the key, so the CPU runs
 * ahead through them. Blocked layout: under three misses' time, all of a key's cells in an array
 * sharing the line the first round loaded, so a round is one probe; reading the nine lines at once
 * and nothing else costs about one miss, and the query less than twice that
 * (docs/BENCHMARKS-HISTORY.md, LOCKSTEP and ROUNDS).
 *
 * <p>In the standard layout each probe is a line of its own, so each round waits for the misses
 * of the arrays still in the running, and a round reads two probes: an absent key then leaves a
 * quarter of the arrays in the running after a round, not half, and is done in about two rounds
 * of misses where one probe a round took about log2(9) + 1 (docs/BENCHMARKS-HISTORY.md, ROUNDS:
 * beyond the caches a tenth off a present key, a few per cent off an absent one; in cache level).
 * Three or four a round gained nothing more in the same harness and read more cells per key.
 */
public final class LockstepQueries {
    private final Probing probing;
    private final int hashes;
    private final int probesPerRound;
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
        this.probesPerRound = spec.layout() == Layout.STANDARD ? 2 : 1;
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
        long running = candidates;
        int i = 0;
        do { // a round: its probes read in every array still in the running, all at once
            long held = running;
            for (int stop = Math.min(hashes, i + probesPerRound); i < stop; i++) {
                long index = probing.index(base, step, i);
                held &= i == 0 ? arrays.nonZeroAt(index, first, end) : arrays.nonZeroAmong(index, first, running);
            }
            running = held;
        } while (i < hashes && (running & (running - 1)) != 0); // two or more still in the running
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
