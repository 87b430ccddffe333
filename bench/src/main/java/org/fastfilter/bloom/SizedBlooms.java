package org.fastfilter.bloom;

/**
 * FastFilter's Bloom filters sized for n keys and left empty. FastFilter 1.0.2's public way in is
 * {@code construct(long[] keys, bitsPerKey)}, which needs every key in one array up front (1.6 GB
 * of {@code long} at 200 M keys, more than a benchmark fork's heap) and fills the filter itself;
 * its constructors for an empty filter of n keys, followed by {@code add}, are package-private. A
 * user who adds keys as they come has to reach them like this, from the same package.
 */
public final class SizedBlooms {
    private SizedBlooms() {
    }

    /** A plain Bloom filter with k = round(bitsPerKey ln 2), the k its {@code construct} picks. */
    public static Bloom bloom(int n, int bitsPerKey) {
        return new Bloom(n, bitsPerKey, Math.max(1, (int) Math.round(bitsPerKey * Math.log(2))));
    }

    /** The blocked Bloom filter (4 bits in two words of one bucket). */
    public static BlockedBloom blocked(int n, int bitsPerKey) {
        return new BlockedBloom(n, bitsPerKey);
    }
}
