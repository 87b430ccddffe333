package io.bloomstore.cli;

import java.util.Arrays;

/**
 * The hashes of the keys whose lines are printed but not yet marked seen, in order, each once: a
 * key that comes again before its first line is delivered is not printed again, although the filter
 * cannot know it yet. An open-addressing set of longs beside the list: no boxing per line.
 */
final class PendingKeys {
    private static final int INITIAL = 1024;
    private static final long EMPTY = 0;

    private long[] hashes = new long[INITIAL];
    private int count;
    /** Slots of the set; {@code EMPTY} is free, so the hash 0 itself is kept in {@link #hasZero}. */
    private long[] slots = new long[2 * INITIAL];
    private boolean hasZero;

    /** Adds {@code hash}; false if it is already pending. */
    boolean add(long hash) {
        if (hash == EMPTY) {
            if (hasZero) {
                return false;
            }
            hasZero = true;
        } else if (!insert(slots, hash)) {
            return false;
        }
        if (count == hashes.length) {
            hashes = Arrays.copyOf(hashes, 2 * count);
        }
        hashes[count++] = hash;
        if (2 * count > slots.length) {
            rehash();
        }
        return true;
    }

    /** The pending hashes, {@code [0 .. count())}, in the order they came. */
    long[] hashes() {
        return hashes;
    }

    int count() {
        return count;
    }

    void clear() {
        if (count == 0) {
            return;
        }
        Arrays.fill(slots, EMPTY);
        hasZero = false;
        count = 0;
    }

    /** Puts {@code hash} (not {@link #EMPTY}) in {@code table}; false if it is there. The hashes are uniform: their low bits index. */
    private static boolean insert(long[] table, long hash) {
        int mask = table.length - 1;
        for (int i = (int) hash & mask; ; i = (i + 1) & mask) {
            if (table[i] == hash) {
                return false;
            }
            if (table[i] == EMPTY) {
                table[i] = hash;
                return true;
            }
        }
    }

    private void rehash() {
        slots = new long[2 * slots.length];
        for (int i = 0; i < count; i++) {
            if (hashes[i] != EMPTY) {
                insert(slots, hashes[i]);
            }
        }
    }
}
