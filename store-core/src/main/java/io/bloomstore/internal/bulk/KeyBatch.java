package io.bloomstore.internal.bulk;

import io.bloomstore.KeyHasher;

/**
 * Up to {@link #CAPACITY} keys as slices of one byte array, with room for their hashes and
 * per-key answers. A {@link BatchSource} fills it without copying the keys; the slices stay valid
 * until the source's next {@code nextBatch}. Hashing a whole batch before touching the filter lets
 * {@code addHashes} / {@code mightContainHashes} overlap the cache misses of different keys.
 */
public final class KeyBatch {
    public static final int CAPACITY = 1024;

    final int[] offsets = new int[CAPACITY];
    final int[] lengths = new int[CAPACITY];
    /** Replaced, not refilled, when a batch is handed to an {@link AddPipeline}. */
    long[] hashes = new long[CAPACITY];
    final boolean[] answers = new boolean[CAPACITY];
    byte[] bytes;
    int size;

    boolean isFull() {
        return size == CAPACITY;
    }

    void clear(byte[] source) {
        bytes = source;
        size = 0;
    }

    void add(int offset, int length) {
        offsets[size] = offset;
        lengths[size] = length;
        size++;
    }

    /** Fills {@link #hashes} with the hash of every key, each a key written as text ({@link KeyHasher#hashText}). */
    void hashWith(KeyHasher hasher) {
        for (int i = 0; i < size; i++) {
            hashes[i] = hasher.hashText(bytes, offsets[i], lengths[i]);
        }
    }
}
