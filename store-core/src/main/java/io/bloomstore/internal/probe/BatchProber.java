package io.bloomstore.internal.probe;

import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import java.util.function.IntToLongFunction;

/**
 * The batch calls' engine: adds and queries many keys so that their cache misses overlap.
 *
 * <p><b>Why load ahead.</b> A filter larger than the caches costs a query one cache miss per line
 * it probes: k for the standard layout, one for the blocked. Key by key, those misses come one
 * after another: each key's probing stops at a branch (is this cell zero?) that depends on the
 * load, and the CPU cannot run far past it. Yet independent loads overlap: a core keeps 10 to 12
 * misses in flight (its line fill buffers), so eight independent random loads cost about what one
 * dependent load does. The engine therefore works in groups: first it loads one word of every line
 * that the group's keys will probe ({@link Probing#loadLines}), loads that depend on nothing but the
 * hashes, so they all miss at once; then it probes the keys one by one, and finds their lines in
 * L1. Java has no prefetch instruction; a plain load whose value is kept is the portable equivalent.
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
 * <p><b>Why 16 keys.</b> Enough independent misses to fill the miss buffers (a blocked group is 16
 * lines, a standard one 16 k), few enough that the group's lines are still in L1 (16 k lines of
 * 64 bytes is 10 KiB at k = 10, within a 32 KiB L1) when the probing pass reaches them. Keys come
 * hashed ({@link #addHashes}, {@link #mightContainHashes}: the API's key batch adds hash a chunk of
 * keys first), or are hashed a group at a time right before its probes ({@link #mightContainAll}).
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
public final class BatchProber {
    /** Keys per group: see the class comment. */
    private static final int BATCH = 16;
    /** The size below which a standard-layout filter counts as cache-resident: see the class comment. */
    private static final long CACHE_RESIDENT_BYTES = 2L << 20;
    /** Any value: {@link #keep} compares a load-ahead's sum with it. */
    private static final long TOUCH_SENTINEL = 0x626C_6F6F_6D73_7472L;

    private final CellProbes probes;
    private final boolean loadsAhead;
    /** Whether a query group may load in two rounds: a layout with more than one line a key. */
    private final boolean queriesInRounds;
    /** Sink of the load-aheads' loads; its value means nothing. */
    @SuppressWarnings("unused")
    private long touched;

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
        int added = 0;
        for (int from = 0; from < count; from += BATCH) {
            added += addGroup(hashes, from, Math.min(count, from + BATCH));
        }
        return added;
    }

    /**
     * Queries the keys whose hashes are {@code hashes[0 .. count)} into {@code results[0 .. count)}.
     *
     * @return how many may be present
     */
    public int mightContainHashes(long[] hashes, int count, boolean[] results) {
        int present = 0;
        boolean inRounds = false;
        for (int from = 0; from < count; from += BATCH) {
            int to = Math.min(count, from + BATCH);
            int found = queryGroup(hashes, from, to, results, 0, inRounds);
            inRounds = nextGroupInRounds(found, to - from);
            present += found;
        }
        return present;
    }

    /**
     * Queries keys {@code 0 .. count)}, key i hashing to {@code hashOfKey(i)}, into
     * {@code results[0 .. count)}, hashing each group right before its probes: for the fixed
     * filter's key batch queries, where this measured faster than hashing the keys first (see
     * {@code BloomFilter.mightContainAll}).
     *
     * @return how many may be present
     */
    public int mightContainAll(int count, IntToLongFunction hashOfKey, boolean[] results) {
        int present = 0;
        boolean inRounds = false;
        long[] group = new long[BATCH];
        for (int from = 0; from < count; from += BATCH) {
            int size = Math.min(BATCH, count - from);
            for (int i = 0; i < size; i++) {
                group[i] = hashOfKey.applyAsLong(from + i);
            }
            int found = queryGroup(group, 0, size, results, from, inRounds);
            inRounds = nextGroupInRounds(found, size);
            present += found;
        }
        return present;
    }

    /**
     * Whether the next group loads in two rounds: fewer than half of this one's keys were found,
     * in a layout with k lines a key.
     */
    private boolean nextGroupInRounds(int found, int size) {
        return queriesInRounds && 2 * found < size;
    }

    /** Adds the keys of {@code hashes[from .. to)}, at most {@value #BATCH} of them. */
    private int addGroup(long[] hashes, int from, int to) {
        if (loadsAhead) {
            keep(probes.loadLines(hashes, from, to));
        }
        int added = 0;
        for (int i = from; i < to; i++) {
            added += probes.increment(hashes[i]) ? 1 : 0;
        }
        return added;
    }

    /**
     * Queries the keys of {@code hashes[from .. to)}; the answer to {@code hashes[i]} goes to
     * {@code results[i + shift]}. {@code inRounds}: load the first lines, then the candidates'
     * other lines (see the class comment), rather than every line at once.
     */
    private int queryGroup(long[] hashes, int from, int to, boolean[] results, int shift, boolean inRounds) {
        if (loadsAhead) {
            keep(inRounds
                    ? probes.loadFirstLines(hashes, from, to) + probes.loadOtherLinesOfCandidates(hashes, from, to)
                    : probes.loadLines(hashes, from, to));
        }
        int present = 0;
        for (int i = from; i < to; i++) {
            boolean hit = probes.mightContain(hashes[i]);
            results[i + shift] = hit;
            present += hit ? 1 : 0;
        }
        return present;
    }

    /** Keeps the sum of a load-ahead's loads, so that they are made. */
    private void keep(long sum) {
        // The JIT may drop loads whose values go nowhere. Compared, these stay; stored only on a
        // chance match, they do not write this object's cache line on every batch, which every
        // thread batching through the same handle reads on every call.
        if (sum == TOUCH_SENTINEL) {
            touched = sum;
        }
    }
}
