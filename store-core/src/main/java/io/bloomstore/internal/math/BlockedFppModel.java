package io.bloomstore.internal.math;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The exact false-positive rate of one block of B cells holding j keys of k probes each, for every
 * j, and its Poisson average over the blocks of a filter.
 *
 * <p>With t = jk probes thrown into B cells, let X be the number of cells hit. A query probes k
 * cells independently, so it is a false positive with probability E[(X/B)^k]. The textbook form
 * (1 - (1 - 1/B)^t)^k is (E[X]/B)^k, which Jensen's inequality makes too low, and the smaller the
 * block the more: at 4-bit cells (B = 128), k = 6, 10.75 cells per key it says 1.000% where this
 * model says 1.034% and 4 million queries measure 1.039%; at 1-bit cells (B = 512) the gap is
 * 0.2 of a per cent. X's distribution comes from the occupancy recurrence
 * P_t+1(x) = P_t(x) x/B + P_t(x-1) (B-x+1)/B. Evaluated with {@link StrictMath}, in the order
 * docs/FORMAT.md gives, as {@link FalsePositiveMath} says why.
 *
 * <p>A block's rate for j keys depends on B, k and j alone, so {@link #of} keeps one model per
 * (B, k) for the life of the JVM: sizing a growing file's segments, or a block count in a
 * bisection, asks the same few hundred block rates again and again, and the recurrence behind them
 * is most of a sizing's cost. The cached rates are the very values a fresh model computes (the
 * recurrence runs in the same order either way), so sizes do not depend on what was sized before.
 */
public final class BlockedFppModel implements FppModel {
    /** The shared models, keyed by B in the high half and k in the low: a few dozen pairs, as few as the layouts' block sizes times the k tried. */
    private static final ConcurrentHashMap<Long, BlockedFppModel> SHARED = new ConcurrentHashMap<>();

    /** Beyond 20 B probes a block is full but for e^-20 of its cells: X no longer varies. */
    private static final int EXACT_PROBES_PER_CELL = 20;
    /**
     * Blocks larger than a cache line of 1-bit cells are not a layout of bloomstore's; past it X
     * concentrates around its mean (the textbook form is off by under 0.2% at 512), and the
     * recurrence's cost, which grows with B squared, buys nothing.
     */
    private static final int MAX_EXACT_CELLS = 512;

    private final int cellsPerBlock;
    private final int hashes;
    private final int exactKeys;
    private double[] occupancy;
    /** (x / B)^k for x = 0 .. B: the same values for every key count, computed once. */
    private final double[] hitPowers;
    private double[] fppWithKeys = new double[64];
    private int keysComputed;

    public BlockedFppModel(int cellsPerBlock, int hashes) {
        this.cellsPerBlock = cellsPerBlock;
        this.hashes = hashes;
        this.exactKeys = cellsPerBlock > MAX_EXACT_CELLS ? 0 : EXACT_PROBES_PER_CELL * cellsPerBlock / hashes;
        this.occupancy = new double[Math.min(cellsPerBlock, MAX_EXACT_CELLS) + 1];
        this.occupancy[0] = 1;
        this.hitPowers = new double[occupancy.length];
        for (int x = 1; x < hitPowers.length; x++) {
            hitPowers[x] = StrictMath.pow(x / (double) cellsPerBlock, hashes);
        }
    }

    /** The shared model of blocks of {@code cellsPerBlock} cells and {@code hashes} probes a key. */
    public static BlockedFppModel of(int cellsPerBlock, int hashes) {
        return SHARED.computeIfAbsent((long) cellsPerBlock << 32 | hashes, key -> new BlockedFppModel(cellsPerBlock, hashes));
    }

    /** The filter's rate: the block rate averaged over Poisson(lambda = n B / m) keys per block. */
    @Override
    public double fpp(long cells, double keys) {
        if (keys <= 0) {
            return 0;
        }
        return FalsePositiveMath.poissonAverage(keys * cellsPerBlock / cells, this::blockFpp);
    }

    /** The rate of a block holding {@code keys} keys. Synchronized: a shared model extends its table for whichever thread asks first. */
    public synchronized double blockFpp(int keys) {
        if (keys > exactKeys) {
            double empty = StrictMath.pow(1 - 1.0 / cellsPerBlock, (double) keys * hashes);
            return StrictMath.pow(1 - empty, hashes);
        }
        while (keysComputed < keys) {
            addKey();
        }
        return fppWithKeys[keys];
    }

    private void addKey() {
        double b = cellsPerBlock;
        for (int probe = 0; probe < hashes; probe++) {
            double[] next = new double[occupancy.length];
            int reachable = (int) Math.min(cellsPerBlock, (long) keysComputed * hashes + probe);
            for (int x = 0; x <= reachable; x++) {
                double p = occupancy[x];
                if (p != 0) {
                    next[x] += p * (x / b);
                    if (x < cellsPerBlock) {
                        next[x + 1] += p * ((b - x) / b);
                    }
                }
            }
            occupancy = next;
        }
        keysComputed++;
        double fpp = 0;
        for (int x = 1; x <= cellsPerBlock; x++) {
            fpp += occupancy[x] * hitPowers[x];
        }
        if (keysComputed >= fppWithKeys.length) {
            fppWithKeys = Arrays.copyOf(fppWithKeys, fppWithKeys.length * 2);
        }
        fppWithKeys[keysComputed] = fpp;
    }
}
