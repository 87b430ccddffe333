package io.bloomstore.internal.segment;

import io.bloomstore.internal.probe.BatchProber;

/**
 * The regions one batch query of a one-line layout asks, read once for the call, as the batch
 * engine's target: a group loads the line of each key's first probe in every region at once
 * (in a one-line layout, its one line), then each key is asked of the regions in turn, the first
 * that may hold it ending its probing. One class for a chain's and a ring's queries alike, so the
 * engine's per-key call sees only it and the fixed filter's ({@link BatchProber} says why).
 */
final class ProbedRegions implements BatchProber.Queries {
    private final Segment[] probed;

    ProbedRegions(Segment[] probed) {
        this.probed = probed;
    }

    @Override
    public long loadForQueries(long[] hashes, int from, int to) {
        long sum = 0;
        for (Segment region : probed) {
            sum += region.loadFirstLines(hashes, from, to);
        }
        return sum;
    }

    @Override
    public boolean mightContain(long hash) {
        for (Segment region : probed) {
            if (region.mightContain(hash)) {
                return true;
            }
        }
        return false;
    }
}
