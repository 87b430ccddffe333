package io.bloomstore;

import java.util.function.IntToLongFunction;

/**
 * The key-type batch calls of {@link MembershipFilter}, once for every kind of filter: keys are
 * hashed a chunk at a time into one array and handed to {@link MembershipFilter#addHashes} or
 * {@link MembershipFilter#mightContainHashes}, which overlap the chunk's cache misses as the kind
 * of filter does it. A chunk of {@value #CHUNK} hashes is 8 KiB: it stays in L1 beside the lines a
 * load-ahead group brings in, and a call's fixed costs (this array, the argument checks) spread
 * over enough keys to vanish per key.
 *
 * <p>Each call makes at least one call of the hash batch method, even for no keys, so that a
 * closed or read-only handle refuses an empty batch as it refuses any other.
 */
final class HashChunks {
    /** Keys hashed per call of the hash batch method: see the class comment. */
    static final int CHUNK = 1024;

    private HashChunks() {
    }

    /** Adds keys {@code 0 .. count)}, key i hashing to {@code hashOfKey(i)}; returns how many were new. */
    static int addAll(MembershipFilter filter, int count, IntToLongFunction hashOfKey) {
        long[] hashes = new long[Math.min(count, CHUNK)];
        int added = 0;
        int from = 0;
        do {
            int size = hash(hashOfKey, from, count, hashes);
            added += filter.addHashes(hashes, size);
            from += size;
        } while (from < count);
        return added;
    }

    /** Adds the UTF-8 bytes of every key of an iteration, whose length is not known before; returns how many were new. */
    static int addAll(MembershipFilter filter, Iterable<? extends CharSequence> keys) {
        KeyHasher hasher = filter.hasher();
        long[] hashes = new long[CHUNK];
        int added = 0;
        int size = 0;
        for (CharSequence key : keys) {
            hashes[size++] = hasher.hash(key);
            if (size == CHUNK) {
                added += filter.addHashes(hashes, size);
                size = 0;
            }
        }
        return added + filter.addHashes(hashes, size);
    }

    /**
     * Queries keys {@code 0 .. count)}, key i hashing to {@code hashOfKey(i)}, into
     * {@code results[0 .. count)}; returns how many may be present.
     */
    static int mightContainAll(MembershipFilter filter, int count, IntToLongFunction hashOfKey, boolean[] results) {
        requireRoom(count, results);
        long[] hashes = new long[Math.min(count, CHUNK)];
        // The hash batch call answers from index 0: a chunk after the first answers into a scratch array.
        boolean[] answers = count <= CHUNK ? results : new boolean[CHUNK];
        int present = 0;
        int from = 0;
        do {
            int size = hash(hashOfKey, from, count, hashes);
            present += filter.mightContainHashes(hashes, size, answers);
            if (answers != results) {
                System.arraycopy(answers, 0, results, from, size);
            }
            from += size;
        } while (from < count);
        return present;
    }

    /**
     * Checks that a batch query's {@code results} can hold {@code count} answers.
     *
     * @throws IllegalArgumentException if it cannot
     */
    static void requireRoom(int count, boolean[] results) {
        if (results.length < count) {
            throw new IllegalArgumentException("results has room for " + results.length + " answers, not " + count);
        }
    }

    /** Hashes the keys of the chunk starting at key {@code from} into {@code hashes}; returns how many. */
    private static int hash(IntToLongFunction hashOfKey, int from, int count, long[] hashes) {
        int size = Math.min(hashes.length, count - from);
        for (int i = 0; i < size; i++) {
            hashes[i] = hashOfKey.applyAsLong(from + i);
        }
        return size;
    }
}
