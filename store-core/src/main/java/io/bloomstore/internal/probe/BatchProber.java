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
 * <p><b>Why a standard filter's queries go in rounds, keys in flight.</b> An absent key's probing
 * stops at its first zero cell. In a filter at its designed fill, about half of the cells are
 * zero, so an absent key reads about 2 of its k lines (1 + 1/2 + 1/4 + ...: 1.98 at k = 7), a
 * present key all k. Loading every line of a group's keys ahead loads about k - 2 lines an absent
 * key never reads, and they take the miss buffers that other keys' lines need (loading a group's
 * first lines, then the other lines of the keys whose first cell is set, still loaded
 * 1 + (k - 1) / 2 = 4 at k = 7). So beyond the caches a standard filter's batch query keeps
 * {@link Probing.Standard#KEYS_IN_FLIGHT} keys in flight, each at its next probe, and goes in
 * rounds ({@link CellProbes#mightContainInRounds}): a round first reads the word of every key's
 * current probe, back to back, loads that depend on nothing but the keys' own state, so their
 * misses overlap; then it tests each key's cell, ends the key at a zero cell (absent) or at its
 * k-th set one (present), moves the others on to their next probe, and takes new keys in place
 * of the ended ones. Every key loads exactly the lines its probing reads, and every round
 * overlaps as many misses as there are keys in flight: a present key waits for k rounds, but each
 * round is full of other keys' misses, so its k misses overlap with others as they did when its k
 * lines were loaded at once.
 *
 * <p><b>Why rounds, not each key chained on its own.</b> Asynchronous memory access chaining
 * (AMAC, Kocberber et al., VLDB 2015) tests the oldest key in flight and moves it on, one key at
 * a time. Java has no prefetch instruction: a key's next line comes in by a real load, which the
 * core cannot retire before its line arrives, and with one key's test and bookkeeping between two
 * such loads (some forty instructions) the reorder buffer fills behind the oldest miss after a few
 * keys, however many are in flight. A round issues its loads from a loop of a few instructions
 * each, so many more misses overlap: the chained form measured slower on present keys, the rounds
 * faster on all (docs/BENCHMARKS-HISTORY.md, KEYS-IN-FLIGHT).
 *
 * <p><b>Why 128 keys in flight.</b> Enough that a round issues more misses than the core overlaps,
 * even at the end of a batch, when ended keys leave their places empty; few enough that a
 * round's lines (128 of 64 bytes: 8 KiB) are still in L1 when its tests reach them. From 64 to 256
 * the query cost the same.
 *
 * <p><b>Why groups of 16 keys, for adds and the other layouts' queries.</b> Enough independent
 * misses to fill the miss buffers (a blocked group is 16 lines, a standard add group 16 k), few
 * enough that the group's lines are still in L1 (16 k lines of 64 bytes is 10 KiB at k = 10,
 * within a 32 KiB L1) when the probing pass reaches them. An add sets all k cells, so it reads
 * every line, and the blocked and sectorized layouts have one line a key, loaded at once. Keys
 * come hashed ({@link #addHashes}, {@link #mightContainHashes}: the API's key batch adds hash a
 * chunk of keys first), or are hashed a group at a time right before its probes (a key at a
 * time, before its first, in rounds; {@link #mightContainAll}).
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
 * <p><b>One engine for one cell array and for several: adds.</b> The groups of a batch add, their
 * load-ahead and the sink that keeps its loads ({@link #addInGroups}) serve a fixed filter (its
 * target, {@link OneArray}: one cell array) and the regions of a growing chain or windowed ring
 * (their target, in {@code internal.segment}, loads a group's lines in every region, then adds
 * each key by the chain's or ring's protocol). The target is asked once a group for the loads and
 * once a key for the add; the per-key call is the one that counts, so it must stay a call the JIT
 * inlines. It does while its call site sees at most two classes (the JIT inlines both behind a type
 * test; a third would make it a table call per key), so each side brings one class. A chain's or
 * ring's batch query of a one-line layout keeps a group loop of its own
 * ({@code Regions.mightContainHashes}, with this class's {@link #BATCH} and {@link #keep}): driven
 * through this engine's query, it measured slower than its own loop on a quiet host, where the
 * adds measured level (docs/BENCHMARKS-HISTORY.md, ONE-ENGINE).
 *
 * <p>Counting new keys is left to the caller, once per batch: one update of a shared counter per
 * key would be one more locked instruction per key.
 */
public final class BatchProber {
    /** Keys per group: see the class comment. */
    public static final int BATCH = 16;
    /** The size below which a standard-layout filter counts as cache-resident: see the class comment. */
    private static final long CACHE_RESIDENT_BYTES = 2L << 20;
    /** Any value: {@link #keep} compares a load-ahead's sum with it. */
    private static final long TOUCH_SENTINEL = 0x626C_6F6F_6D73_7472L;
    /** Sink of the load-aheads' loads; its value means nothing. */
    @SuppressWarnings("unused")
    private static long touched;

    private final CellProbes probes;
    private final boolean loadsAhead;
    /** The engine's target for this filter's batch adds. */
    private final OneArray target;
    /** Whether queries keep keys in flight, in rounds: a standard-layout filter beyond the caches. */
    private final boolean queriesInRounds;

    /** What a batch add goes into, for {@link #addInGroups}: see the class comment. */
    public interface Adds {
        /**
         * Loads the lines that adding the keys of {@code hashes[from .. to)} will probe, asked once
         * a group, right before its adds (so it may follow a growth or rotation made by the group before).
         *
         * @return the sum of the words loaded, which the engine keeps; 0 if nothing was loaded
         */
        long loadForAdds(long[] hashes, int from, int to);

        /**
         * Adds one key.
         *
         * @return whether it was definitely new
         */
        boolean add(long hash);
    }

    public BatchProber(BloomSpec spec, CellProbes probes) {
        this.probes = probes;
        this.loadsAhead = spec.layout() != Layout.STANDARD || spec.cellBytes() > CACHE_RESIDENT_BYTES;
        this.target = new OneArray(probes, loadsAhead);
        this.queriesInRounds = loadsAhead && spec.layout() == Layout.STANDARD;
    }

    /**
     * Adds the keys whose hashes are {@code hashes[0 .. count)}.
     *
     * @return how many of them were definitely new
     */
    public int addHashes(long[] hashes, int count) {
        return addInGroups(target, hashes, count);
    }

    /**
     * Queries the keys whose hashes are {@code hashes[0 .. count)} into {@code results[0 .. count)}.
     *
     * @return how many may be present
     */
    public int mightContainHashes(long[] hashes, int count, boolean[] results) {
        if (queriesInRounds) {
            return probes.mightContainInRounds(count, i -> hashes[i], results);
        }
        int present = 0;
        for (int from = 0; from < count; from += BATCH) {
            present += queryGroup(hashes, from, Math.min(count, from + BATCH), results, 0);
        }
        return present;
    }

    /**
     * Queries keys {@code 0 .. count)}, key i hashing to {@code hashOfKey(i)}, into
     * {@code results[0 .. count)}, hashing each group right before its probes (each key right
     * before its first probe, in rounds): for the fixed filter's key batch queries, where this
     * measured faster than hashing the keys first (see {@code BloomFilter.mightContainAll}).
     *
     * @return how many may be present
     */
    public int mightContainAll(int count, IntToLongFunction hashOfKey, boolean[] results) {
        if (queriesInRounds) {
            return probes.mightContainInRounds(count, hashOfKey, results);
        }
        int present = 0;
        long[] group = new long[BATCH];
        for (int from = 0; from < count; from += BATCH) {
            int size = Math.min(BATCH, count - from);
            for (int i = 0; i < size; i++) {
                group[i] = hashOfKey.applyAsLong(from + i);
            }
            present += queryGroup(group, 0, size, results, from);
        }
        return present;
    }

    /** One cell array as the engine's target: a fixed filter's, a slice's, a region's own. */
    private static final class OneArray implements Adds {
        private final CellProbes probes;
        private final boolean loadsAhead;

        OneArray(CellProbes probes, boolean loadsAhead) {
            this.probes = probes;
            this.loadsAhead = loadsAhead;
        }

        /** Every line of the group's keys, unless the filter is cache-resident. */
        @Override
        public long loadForAdds(long[] hashes, int from, int to) {
            return loadsAhead ? probes.loadLines(hashes, from, to) : 0;
        }

        /** {@inheritDoc} Increments the key's cells ({@link CellProbes#increment}). */
        @Override
        public boolean add(long hash) {
            return probes.increment(hash);
        }
    }

    /**
     * The engine's adds: the keys whose hashes are {@code hashes[0 .. count)} added into
     * {@code target} in groups of {@value #BATCH}, each group's lines loaded ahead.
     *
     * @return how many of them were definitely new
     * @throws RuntimeException as the target's add; the keys before the refused one are in
     */
    public static int addInGroups(Adds target, long[] hashes, int count) {
        int added = 0;
        for (int from = 0; from < count; from += BATCH) {
            int to = Math.min(count, from + BATCH);
            keep(target.loadForAdds(hashes, from, to));
            for (int i = from; i < to; i++) {
                added += target.add(hashes[i]) ? 1 : 0;
            }
        }
        return added;
    }

    /**
     * Queries the keys of {@code hashes[from .. to)}, at most {@value #BATCH} of them; the answer to
     * {@code hashes[i]} goes to {@code results[i + shift]}.
     */
    private int queryGroup(long[] hashes, int from, int to, boolean[] results, int shift) {
        if (loadsAhead) {
            keep(probes.loadLines(hashes, from, to));
        }
        int present = 0;
        for (int i = from; i < to; i++) {
            boolean hit = probes.mightContain(hashes[i]);
            results[i + shift] = hit;
            present += hit ? 1 : 0;
        }
        return present;
    }

    /** Keeps the sum of a load-ahead's loads, so that they are made: the engine's, and a ring's or chain's query groups'. */
    public static void keep(long sum) {
        // The JIT may drop loads whose values go nowhere. Compared, these stay; stored only on a
        // chance match, they write no shared cache line on every batch, which every thread
        // batching reads on every call.
        if (sum == TOUCH_SENTINEL) {
            touched = sum;
        }
    }
}
