package io.bloomstore.internal.probe;

import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import java.util.function.IntToLongFunction;

/**
 * The batch calls of one cell array (a fixed filter, a slice): which lines a group of keys loads
 * ahead, and the per-key loops, run by the one engine of every batch call ({@link LoadAhead},
 * whose comment is the cache-line argument).
 *
 * <p><b>Why queries that find little load in two rounds.</b> An absent key's probing stops at its
 * first zero cell, which in a half-full filter is its first probe half of the time, so loading all
 * k lines of an absent key loads about k - 2 lines its probing never reads, and they take the miss
 * buffers that other keys' lines need. So after a group in which fewer than half of the keys were
 * found, the next group loads its keys' first lines, then the other lines of the keys whose first
 * cell is set ({@link CellProbes#loadOtherLinesOfCandidates}): about 1 + (k - 1) / 2 lines an
 * absent key, not k. A present key then waits for two rounds of misses (two rounds for every group
 * made present keys 0.79x as fast at 200 M keys), so after a group that found keys the next loads
 * every line at once, as adds always do. So chosen, at 200 M keys (standard layout, k = 7): absent
 * keys 1.39x faster, present keys and half-and-half batches as fast as before
 * (docs/BENCHMARKS-HISTORY.md, ROUNDS-200M). The blocked layout has one line a key and loads it at once.
 *
 * <p><b>Why not for a cache-resident standard filter.</b> A standard-layout filter of at most
 * 2 MiB ({@link #CACHE_RESIDENT_BYTES}: a large server core's L2) keeps its lines in the
 * caches: there is no miss to overlap, and the pass would load each of the k lines twice. There
 * the batch calls probe key by key. A smaller L2 is no reason to load ahead either: on a core
 * with 512 KiB of L2 the pass still cost at 1.2 MB, as L3 hits overlap without help. A blocked filter loads ahead at every
 * size (and so does a sectorized one, whose key has the same one line): its pass is one load
 * per key, and it paid even at the cache-resident size. The
 * measurements behind each rule are in docs/BENCHMARKS-HISTORY.md.
 *
 * <p>Counting new keys is left to the caller, once per batch: one update of a shared counter per
 * key would be one more locked instruction per key.
 */
public final class BatchProber implements LoadAhead.Adds, LoadAhead.Queries {
    /** The size below which a standard-layout filter counts as cache-resident: see the class comment. */
    private static final long CACHE_RESIDENT_BYTES = 2L << 20;

    private final CellProbes probes;
    private final boolean loadsAhead;
    /** Whether a query group may load in two rounds: a layout with more than one line a key. */
    private final boolean queriesInRounds;

    public BatchProber(BloomSpec spec, CellProbes probes) {
        this.probes = probes;
        this.loadsAhead = spec.layout() != Layout.STANDARD || spec.cellBytes() > CACHE_RESIDENT_BYTES;
        this.queriesInRounds = loadsAhead && spec.layout() == Layout.STANDARD;
    }

    /**
     * Adds the keys whose hashes are {@code hashes[0 .. count)}.
     *
     * @return how many of them were definitely new
     */
    public int addHashes(long[] hashes, int count) {
        return LoadAhead.addHashes(this, hashes, count);
    }

    /**
     * Queries the keys whose hashes are {@code hashes[0 .. count)} into {@code results[0 .. count)}.
     *
     * @return how many may be present
     */
    public int mightContainHashes(long[] hashes, int count, boolean[] results) {
        return LoadAhead.mightContainHashes(this, hashes, count, results);
    }

    /**
     * Queries keys {@code 0 .. count)}, key i hashing to {@code hashOfKey(i)}, into
     * {@code results[0 .. count)}, hashing each group right before its probes
     * ({@link LoadAhead#mightContainAll}).
     *
     * @return how many may be present
     */
    public int mightContainAll(int count, IntToLongFunction hashOfKey, boolean[] results) {
        return LoadAhead.mightContainAll(this, count, hashOfKey, results);
    }

    /** Every line of the group's keys, unless the filter is cache-resident. */
    @Override
    public long loadForAdds(long[] hashes, int from, int to) {
        return loadsAhead ? probes.loadLines(hashes, from, to) : 0;
    }

    @Override
    public int addGroup(long[] hashes, int from, int to) {
        int added = 0;
        for (int i = from; i < to; i++) {
            added += probes.increment(hashes[i]) ? 1 : 0;
        }
        return added;
    }

    /**
     * Every line of the group's keys at once, or, after a group that found few (in a layout with
     * k lines a key), the first lines and then the candidates' other lines (see the class comment);
     * nothing if the filter is cache-resident.
     */
    @Override
    public long loadForQueries(long[] hashes, int from, int to, boolean fewFound) {
        if (!loadsAhead) {
            return 0;
        }
        return queriesInRounds && fewFound
                ? probes.loadFirstLines(hashes, from, to) + probes.loadOtherLinesOfCandidates(hashes, from, to)
                : probes.loadLines(hashes, from, to);
    }

    @Override
    public int queryGroup(long[] hashes, int from, int to, boolean[] results, int shift) {
        int present = 0;
        for (int i = from; i < to; i++) {
            boolean hit = probes.mightContain(hashes[i]);
            results[i + shift] = hit;
            present += hit ? 1 : 0;
        }
        return present;
    }
}
