package io.bloomstore.internal.segment;

import io.bloomstore.internal.probe.LoadAhead;

/**
 * The regions one batch query asks, read once for the call: the line of each key's first probe is
 * loaded in every region at once, then each key is asked of the regions in turn. An absent key's
 * probing stops in a region at its first zero cell, its first probe half the time in a half-full
 * region, so the pass loads one line a key and region (all k of them, in the standard layout, cost
 * 2 to 3 times the CPU a key at 10 M: docs/BENCHMARKS-HISTORY.md, "Growing and windowed filters").
 */
record ProbedRegions(Segment[] probed) implements LoadAhead.Queries {
    @Override
    public long loadForQueries(long[] hashes, int from, int to, boolean fewFound) {
        long sum = 0;
        for (Segment region : probed) {
            sum += region.loadFirstLines(hashes, from, to);
        }
        return sum;
    }

    @Override
    public int queryGroup(long[] hashes, int from, int to, boolean[] results, int shift) {
        int present = 0;
        for (int i = from; i < to; i++) {
            boolean hit = anyMightContain(hashes[i]);
            results[i + shift] = hit;
            present += hit ? 1 : 0;
        }
        return present;
    }

    private boolean anyMightContain(long hash) {
        for (Segment region : probed) {
            if (region.mightContain(hash)) {
                return true;
            }
        }
        return false;
    }
}
