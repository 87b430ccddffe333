package io.bloomstore.internal.math;

import java.util.function.IntFunction;

/**
 * Sizing of a layout whose m is a whole number of blocks (lines): for every k from {@code fromK}
 * to {@code toK} whose model {@code modelOfK} gives (null: k not tried), the fewest blocks that
 * reach p, searched as docs/FORMAT.md's "Sizing" says; the fewest win, the smallest k on a tie.
 *
 * @param keys n
 * @param fpp p
 * @param perBlock B, the cells of a block
 * @param maxBlocks the most blocks a filter may have
 * @param fromK the smallest k tried
 * @param toK the largest k tried
 * @param modelOfK the rate of each k, or null for a k not tried
 */
public record LineSearch(long keys, double fpp, int perBlock, long maxBlocks, int fromK, int toK,
        IntFunction<FppModel> modelOfK) {

    /**
     * The fewest blocks that reach p, over every k tried, and their k; the smallest k on a tie.
     *
     * <p>The k are tried from the largest down, and a smaller k is searched only if it reaches p in
     * the best count so far (one rate evaluation: it wins a tie, so it need not beat it). The rate
     * falls as blocks are added, so a k that misses p there would end above the best: this chooses
     * what searching every k chooses, with a bisection for the few k that improve on the best
     * instead of one for every k (up to 32 of them far down a growing file's table, most of which
     * miss p in any filter the format allows; {@code LineSearchTest}).
     *
     * @return {blocks, k}, or null if no k reaches p within {@link #maxBlocks}
     */
    public long[] fewest() {
        long bestBlocks = Long.MAX_VALUE;
        int bestK = 0;
        for (int k = toK; k >= fromK; k--) {
            FppModel model = modelOfK.apply(k);
            if (model == null || bestBlocks != Long.MAX_VALUE && model.fpp(bestBlocks * perBlock, keys) > fpp) {
                continue;
            }
            long blocks = fewestBlocks(model, perBlock, maxBlocks, keys, fpp);
            if (blocks <= bestBlocks && blocks != Long.MAX_VALUE) {
                bestBlocks = blocks;
                bestK = k;
            }
        }
        return bestBlocks == Long.MAX_VALUE ? null : new long[] {bestBlocks, bestK};
    }

    /**
     * Whether {@link #fewest} chooses k for {@code cells} cells, given that they are the fewest
     * that reach p with k: no smaller k reaches p in as many blocks and no larger one in fewer.
     * One rate evaluation per other k, where the search bisects the block count for each.
     *
     * @param cells m, a multiple of {@link #perBlock}
     * @param k the k to check
     * @return whether the search chooses k
     */
    public boolean chooses(long cells, int k) {
        if (k < fromK || k > toK || modelOfK.apply(k) == null) {
            return false;
        }
        long blocks = cells / perBlock;
        for (int other = fromK; other <= toK; other++) {
            FppModel model = other == k ? null : modelOfK.apply(other);
            long tried = other < k ? blocks : blocks - 1;
            if (model != null && tried >= 1 && model.fpp(tried * perBlock, keys) <= fpp) {
                return false;
            }
        }
        return true;
    }

    /**
     * The smallest block count reaching {@code fpp} under {@code model}: doubled from the
     * standard optimum until it reaches p, then bisected, half the standard optimum taken as not
     * reaching it.
     *
     * @return the blocks, or Long.MAX_VALUE if none up to {@code maxBlocks} reaches p
     */
    public static long fewestBlocks(FppModel model, int perBlock, long maxBlocks, long keys, double fpp) {
        long high = Math.max(1, FalsePositiveMath.optimalCells(keys, fpp) / perBlock);
        while (model.fpp(high * perBlock, keys) > fpp) {
            if (high >= maxBlocks) {
                return Long.MAX_VALUE;
            }
            high = Math.min(maxBlocks, high * 2);
        }
        long low = high / 2; // below half the standard optimum, no block count reaches p
        while (high - low > 1) {
            long mid = low + (high - low) / 2;
            if (model.fpp(mid * perBlock, keys) <= fpp) {
                high = mid;
            } else {
                low = mid;
            }
        }
        return high;
    }
}
