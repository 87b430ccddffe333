package io.bloomstore;

/**
 * The calls of a counting Bloom filter, one whose cells are counters of w &gt; 1 bits
 * ({@link BloomSpec#counterBits()}): a key added can be removed again, and a key's count read.
 * {@link BloomFilter} is one, whatever its w: on a 1-bit filter {@code remove} is refused and
 * {@code count} answers 1 (may be present) or 0.
 *
 * <p>Each add increments a key's k counters, each remove decrements them, both as one lock-free
 * compare-and-set per cell word, so threads and processes may count and remove at once as they
 * add. A counter that reached its maximum (2<sup>w</sup> − 1) stays there: it is never
 * decremented again, which keeps every other key sharing it present (a saturated counter costs
 * false positives, never a false negative).
 *
 * <p>As for {@link MembershipFilter}, the key-type calls hash the key with {@link #hasher()} and
 * hand the hash to the {@code *Hash} call.
 */
public sealed interface CountingFilter extends MembershipFilter permits BloomFilter {
    /**
     * Removes one occurrence of the key whose hash is {@code hash}: decrements its k counters if
     * all are non-zero; a key that is definitely absent changes nothing. Removing a key that was
     * never added can cause false negatives for others: remove only what you added.
     *
     * @param hash the key's hash, from {@link #hasher()}
     * @return true if the key may have been present and its counters were decremented
     * @throws UnsupportedOperationException on a 1-bit filter
     * @throws IllegalStateException if the filter is open read-only or closed
     */
    boolean removeHash(long hash);

    /**
     * How many times the key whose hash is {@code hash} may have been added: the smallest of its
     * counters, an upper bound (exact unless other keys share all its cells or a counter
     * saturated). On a 1-bit filter, 1 if the key may be present, else 0.
     *
     * @param hash the key's hash, from {@link #hasher()}
     * @return the upper bound, from 0 (definitely absent) to the counters' maximum value
     */
    long countHash(long hash);

    /**
     * Removes one occurrence of a long key, as {@link #removeHash} does.
     *
     * @param key the key to remove
     * @return as {@link #removeHash}
     */
    default boolean remove(long key) {
        return removeHash(hasher().hash(key));
    }

    /**
     * Removes one occurrence of a byte[] key, as {@link #removeHash} does.
     *
     * @param key the key to remove
     * @return as {@link #removeHash}
     */
    default boolean remove(byte[] key) {
        return removeHash(hasher().hash(key));
    }

    /**
     * Removes one occurrence of the UTF-8 bytes of {@code key}, as {@link #removeHash} does.
     *
     * @param key the key to remove, encoded as UTF-8
     * @return as {@link #removeHash}
     */
    default boolean remove(CharSequence key) {
        return removeHash(hasher().hash(key));
    }

    /**
     * Counts a long key, as {@link #countHash} does.
     *
     * @param key the key to count
     * @return as {@link #countHash}
     */
    default long count(long key) {
        return countHash(hasher().hash(key));
    }

    /**
     * Counts a byte[] key, as {@link #countHash} does.
     *
     * @param key the key to count
     * @return as {@link #countHash}
     */
    default long count(byte[] key) {
        return countHash(hasher().hash(key));
    }

    /**
     * Counts the UTF-8 bytes of {@code key}, as {@link #countHash} does.
     *
     * @param key the key to count, encoded as UTF-8
     * @return as {@link #countHash}
     */
    default long count(CharSequence key) {
        return countHash(hasher().hash(key));
    }
}
