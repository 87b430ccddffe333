package io.bloomstore.bench;

import java.util.function.IntToLongFunction;

/**
 * A thread's batch of {@link #SIZE} consecutive keys of one {@link KeyType}, plus the answers
 * array the batch queries need. Every micro-benchmark operation works on one
 * chunk: the keys are written into it outside the measured code (JMH {@code Level.Invocation}
 * set-up), so key generation is never measured, and single-key and batch calls see the same keys.
 */
public final class KeyChunk {
    /** Keys per chunk: the batch size of the batch benchmarks. Every n benchmarked is a multiple of it. */
    public static final int SIZE = 1000;

    private final KeyType type;
    private final long[] longs;
    private final byte[][] bytes;
    private final boolean[] answers = new boolean[SIZE];

    public KeyChunk(KeyType type) {
        this.type = type;
        this.longs = type == KeyType.LONG ? new long[SIZE] : null;
        this.bytes = type == KeyType.BYTES16 ? new byte[SIZE][16] : null;
    }

    /** Makes this chunk hold the keys with indices {@code first .. first + SIZE - 1}. */
    public void fill(long first) {
        fill(i -> first + i);
    }

    /**
     * Makes this chunk hold key i of index {@code first + i} or {@code Keys.ABSENT_BASE + first + i}
     * by a coin toss fixed per index (the low bit of the present key, a splitmix64 output): present
     * and absent keys, half of each, in an order no branch predictor can learn.
     */
    public void fillMixed(long first) {
        fill(i -> (Keys.mix(first + i) & 1) == 0 ? first + i : Keys.ABSENT_BASE + first + i);
    }

    private void fill(IntToLongFunction indexOfKey) {
        if (type == KeyType.LONG) {
            for (int i = 0; i < SIZE; i++) {
                longs[i] = Keys.longKey(indexOfKey.applyAsLong(i));
            }
        } else {
            for (int i = 0; i < SIZE; i++) {
                Keys.bytes16Key(indexOfKey.applyAsLong(i), bytes[i]);
            }
        }
    }

    public KeyType type() {
        return type;
    }

    /** The keys, when {@link #type()} is LONG. */
    public long[] longs() {
        return longs;
    }

    /** The keys, when {@link #type()} is BYTES16. */
    public byte[][] bytes() {
        return bytes;
    }

    /** Scratch for the answers of a batch query; owned by this chunk's thread. */
    public boolean[] answerScratch() {
        return answers;
    }
}
