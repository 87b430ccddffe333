package io.bloomstore.internal.probe;

import java.util.function.IntToLongFunction;

/**
 * The batch calls' engine, for a fixed filter ({@link BatchProber}) and for the regions of a
 * segmented file alike: keys are added and queried in groups whose cache misses overlap.
 *
 * <p><b>Why load ahead.</b> A filter larger than the caches costs a query one cache miss per line
 * it probes: k for the standard layout, one for the blocked. Key by key, those misses come one
 * after another: each key's probing stops at a branch (is this cell zero?) that depends on the
 * load, and the CPU cannot run far past it. Yet independent loads overlap: a core keeps 10 to 12
 * misses in flight (its line fill buffers), so eight independent random loads cost about what one
 * dependent load does. The engine therefore works in groups: first the target loads one word of
 * every line that the group's keys will probe ({@link Probing#loadLines}), loads that depend on
 * nothing but the hashes, so they all miss at once; then it probes the keys one by one, and finds
 * their lines in L1. Java has no prefetch instruction; a plain load whose value is kept is the
 * portable equivalent. Which lines a group loads is the target's choice: a fixed filter's rule is
 * {@link BatchProber}'s, a segmented file loads across its regions, so that one key's misses in
 * several regions overlap as different keys' do.
 *
 * <p><b>Why 16 keys.</b> Enough independent misses to fill the miss buffers (a blocked group is 16
 * lines, a standard one 16 k), few enough that the group's lines are still in L1 (16 k lines of
 * 64 bytes is 10 KiB at k = 10, within a 32 KiB L1) when the probing pass reaches them. Keys come
 * hashed ({@link #addHashes}, {@link #mightContainHashes}: the API's key batch adds hash a chunk of
 * keys first), or are hashed a group at a time right before its probes ({@link #mightContainAll}).
 *
 * <p>The target is called once a group, never once a key: its per-key loop is its own, so each
 * kind's probing stays a direct call however many kinds one program uses.
 */
public final class LoadAhead {
    /** Keys per group: see the class comment. */
    static final int GROUP = 16;
    /** Any value: {@link #keep} compares a load-ahead's sum with it. */
    private static final long KEEP_SENTINEL = 0x626C_6F6F_6D73_7472L;
    /** Sink of the load-aheads' loads; its value means nothing. */
    @SuppressWarnings("unused")
    private static long kept;

    private LoadAhead() {
    }

    /** What a batch of adds goes into: a group's loads, then its adds. */
    public interface Adds {
        /**
         * Loads the lines adding the keys of {@code hashes[from .. to)} will probe.
         *
         * @return the sum of the words loaded, which the engine keeps; 0 if nothing was loaded
         */
        long loadForAdds(long[] hashes, int from, int to);

        /**
         * Adds the keys of {@code hashes[from .. to)}, at most a group of them.
         *
         * @return how many of them were definitely new
         */
        int addGroup(long[] hashes, int from, int to);
    }

    /** What a batch of queries asks: a group's loads, then its queries. */
    public interface Queries {
        /**
         * Loads the lines querying the keys of {@code hashes[from .. to)} will probe.
         *
         * @param fewFound whether the previous group found fewer than half of its keys (a hint:
         *     then most of these keys are likely absent, and their probing stops at a first zero)
         * @return the sum of the words loaded, which the engine keeps; 0 if nothing was loaded
         */
        long loadForQueries(long[] hashes, int from, int to, boolean fewFound);

        /**
         * Queries the keys of {@code hashes[from .. to)}, at most a group of them; the answer to
         * {@code hashes[i]} goes to {@code results[i + shift]}.
         *
         * @return how many may be present
         */
        int queryGroup(long[] hashes, int from, int to, boolean[] results, int shift);
    }

    /**
     * Adds the keys whose hashes are {@code hashes[0 .. count)} into {@code target}.
     *
     * @return how many of them were definitely new
     */
    public static int addHashes(Adds target, long[] hashes, int count) {
        int added = 0;
        for (int from = 0; from < count; from += GROUP) {
            int to = Math.min(count, from + GROUP);
            keep(target.loadForAdds(hashes, from, to));
            added += target.addGroup(hashes, from, to);
        }
        return added;
    }

    /**
     * Queries the keys whose hashes are {@code hashes[0 .. count)} of {@code target} into
     * {@code results[0 .. count)}.
     *
     * @return how many may be present
     */
    public static int mightContainHashes(Queries target, long[] hashes, int count, boolean[] results) {
        int present = 0;
        boolean fewFound = false;
        for (int from = 0; from < count; from += GROUP) {
            int to = Math.min(count, from + GROUP);
            keep(target.loadForQueries(hashes, from, to, fewFound));
            int found = target.queryGroup(hashes, from, to, results, 0);
            fewFound = 2 * found < to - from;
            present += found;
        }
        return present;
    }

    /**
     * Queries keys {@code 0 .. count)} of {@code target}, key i hashing to {@code hashOfKey(i)},
     * into {@code results[0 .. count)}, hashing each group right before its probes: for the fixed
     * filter's key batch queries, where this measured faster than hashing the keys first (see
     * {@code BloomFilter.mightContainAll}).
     *
     * @return how many may be present
     */
    public static int mightContainAll(Queries target, int count, IntToLongFunction hashOfKey, boolean[] results) {
        int present = 0;
        boolean fewFound = false;
        long[] group = new long[GROUP];
        for (int from = 0; from < count; from += GROUP) {
            int size = Math.min(GROUP, count - from);
            for (int i = 0; i < size; i++) {
                group[i] = hashOfKey.applyAsLong(from + i);
            }
            keep(target.loadForQueries(group, 0, size, fewFound));
            int found = target.queryGroup(group, 0, size, results, from);
            fewFound = 2 * found < size;
            present += found;
        }
        return present;
    }

    /** Keeps the sum of a load-ahead's loads, so that they are made. */
    private static void keep(long sum) {
        // The JIT may drop loads whose values go nowhere. Compared, these stay; stored only on a
        // chance match, they write no shared cache line on every batch, which every thread
        // batching reads.
        if (sum == KEEP_SENTINEL) {
            kept = sum;
        }
    }
}
