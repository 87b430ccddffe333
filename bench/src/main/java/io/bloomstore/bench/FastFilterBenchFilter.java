package io.bloomstore.bench;

import io.bloomstore.internal.math.FalsePositiveMath;
import java.util.function.Supplier;
import net.openhft.hashing.LongHashFunction;
import org.fastfilter.Filter;
import org.fastfilter.bloom.SizedBlooms;

/**
 * FastFilter_java's {@code Bloom} or {@code BlockedBloom}: a plain {@code long[]} on the heap, plain
 * stores, no atomics. FastFilter is sized by whole bits per key, not by a rate, and takes long keys
 * only, which it hashes itself (a seeded 64-bit mix, a random seed per filter):
 * <ul>
 *   <li>bits per key: the textbook optimum for n at p, m / n = -ln p / (ln 2)^2, rounded up to a
 *       whole bit: 10 at p = 1 % (the blocked filter's rate at that size is worse than p; the
 *       accuracy table says by how much);</li>
 *   <li>16-byte keys: first hashed to a long with XXH3-64 (zero-allocation-hashing, already on the
 *       class path for bloomstore), the fast 64-bit hash a FastFilter user would pick.</li>
 * </ul>
 * {@code add} answers nothing, so every key counts as new. No serial form: built in each trial.
 */
final class FastFilterBenchFilter extends PeerBenchFilter {
    private static final LongHashFunction BYTES_HASH = LongHashFunction.xx3();

    private final Supplier<Filter> empty;
    private Filter filter;

    private FastFilterBenchFilter(Supplier<Filter> empty) {
        this.empty = empty;
        this.filter = empty.get();
    }

    /** {@code org.fastfilter.bloom.Bloom}: k = round(bits per key ln 2), 7 at 10 bits per key. */
    static FastFilterBenchFilter bloom(long expectedKeys, double fpp, KeyType type) {
        int n = Math.toIntExact(expectedKeys);
        int bitsPerKey = bitsPerKey(expectedKeys, fpp);
        return new FastFilterBenchFilter(() -> SizedBlooms.bloom(n, bitsPerKey));
    }

    /**
     * {@code org.fastfilter.bloom.BlockedBloom}. Version 1.0.2 computes its size in bits as an int,
     * so n times bits per key must stay below 2^31: at most 214 M keys at 10 bits per key.
     */
    static FastFilterBenchFilter blocked(long expectedKeys, double fpp, KeyType type) {
        int n = Math.toIntExact(expectedKeys);
        int bitsPerKey = bitsPerKey(expectedKeys, fpp);
        if ((long) n * bitsPerKey > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("FastFilter's BlockedBloom holds at most " + Integer.MAX_VALUE / bitsPerKey
                    + " keys at " + bitsPerKey + " bits per key, not " + n);
        }
        return new FastFilterBenchFilter(() -> SizedBlooms.blocked(n, bitsPerKey));
    }

    private static int bitsPerKey(long n, double fpp) {
        return (int) Math.ceil((double) FalsePositiveMath.optimalCells(n, fpp) / n);
    }

    @Override
    boolean add(long key) {
        filter.add(key);
        return true;
    }

    @Override
    boolean add(byte[] key) {
        filter.add(BYTES_HASH.hashBytes(key));
        return true;
    }

    @Override
    boolean mightContain(long key) {
        return filter.mayContain(key);
    }

    @Override
    boolean mightContain(byte[] key) {
        return filter.mayContain(BYTES_HASH.hashBytes(key));
    }

    @Override
    public long bits() {
        return filter.getBitCount();
    }

    /** FastFilter has no clear: a new filter of the same size. */
    @Override
    public void clear() {
        filter = empty.get();
    }

    @Override
    public void close() {
        filter = null;
    }
}
