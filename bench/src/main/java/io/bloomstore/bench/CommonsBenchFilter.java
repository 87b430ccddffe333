package io.bloomstore.bench;

import net.openhft.hashing.LongTupleHashFunction;
import org.apache.commons.collections4.bloomfilter.EnhancedDoubleHasher;
import org.apache.commons.collections4.bloomfilter.Hasher;
import org.apache.commons.collections4.bloomfilter.Shape;
import org.apache.commons.collections4.bloomfilter.SimpleBloomFilter;

/**
 * Apache Commons Collections' {@code SimpleBloomFilter} (a {@code long[]} bit map) of
 * {@code Shape.fromNP(n, p)}. The package does not hash keys: {@code EnhancedDoubleHasher}'s docs
 * have the user hash a key with a hash function ("a byte array output of a hashing or MessageDigest
 * algorithm") and turn its first 128 bits into the k indices by enhanced double hashing. The hash
 * here is Murmur3 x64 128 (zero-allocation-hashing's, already on the class path for bloomstore),
 * whose two longs go to the hasher's {@code (initial, increment)} constructor. An add is
 * {@code merge(hasher)}, which answers only that the merge was done, so every key counts as new; a
 * query is {@code contains(hasher)}.
 *
 * <p>The {@code Shape}'s bit count is an int: at most 2^31 - 1 bits, about 224 M keys at p = 1 %.
 * No serial form of its own (the bit maps can be copied out and merged back, O(m)): built in each trial.
 */
final class CommonsBenchFilter extends PeerBenchFilter {
    private static final LongTupleHashFunction MURMUR3_128 = LongTupleHashFunction.murmur_3();

    private SimpleBloomFilter filter;

    private CommonsBenchFilter(SimpleBloomFilter filter) {
        this.filter = filter;
    }

    static CommonsBenchFilter create(long expectedKeys, double fpp, KeyType type) {
        return new CommonsBenchFilter(new SimpleBloomFilter(Shape.fromNP(Math.toIntExact(expectedKeys), fpp)));
    }

    /** The k indices of a long key: its Murmur3 x64 128 halves as the enhanced double hasher's start and step. */
    private static Hasher hasher(long key) {
        long[] hash = MURMUR3_128.hashLong(key);
        return new EnhancedDoubleHasher(hash[0], hash[1]);
    }

    private static Hasher hasher(byte[] key) {
        long[] hash = MURMUR3_128.hashBytes(key);
        return new EnhancedDoubleHasher(hash[0], hash[1]);
    }

    @Override
    boolean add(long key) {
        return filter.merge(hasher(key));
    }

    @Override
    boolean add(byte[] key) {
        return filter.merge(hasher(key));
    }

    @Override
    boolean mightContain(long key) {
        return filter.contains(hasher(key));
    }

    @Override
    boolean mightContain(byte[] key) {
        return filter.contains(hasher(key));
    }

    @Override
    public long bits() {
        return filter.getShape().getNumberOfBits();
    }

    @Override
    public void clear() {
        filter.clear();
    }

    @Override
    public void close() {
        filter = null;
    }
}
