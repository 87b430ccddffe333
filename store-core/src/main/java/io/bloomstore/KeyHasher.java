package io.bloomstore;

import io.bloomstore.internal.hashing.ForeignSeeds;
import io.bloomstore.internal.hashing.NoSingleHash;
import io.bloomstore.internal.hashing.SparkMurmur3;
import io.bloomstore.internal.hashing.Utf8;
import java.nio.ByteBuffer;
import net.openhft.hashing.LongHashFunction;

/**
 * The 64-bit hash of a key's canonical bytes, the only input to probing. Every key type maps to
 * one byte string (docs/FORMAT.md, "Keys"), so the same key hashes the same whether it comes from
 * the Java API, a file or the command line:
 *
 * <ul>
 *   <li>{@code byte[]} and {@link ByteBuffer}: the bytes themselves (a buffer's position..limit);
 *   <li>{@code long}: its 8 bytes, little-endian;
 *   <li>{@link CharSequence}: its UTF-8 bytes, as {@code String.getBytes(UTF_8)} would give them.
 * </ul>
 *
 * None of these allocate: XXH3 reads arrays, buffers and longs in place, and strings are encoded
 * into a per-thread scratch array.
 */
public final class KeyHasher {
    private final LongHashFunction function;
    private final long seed;

    /**
     * A hasher for {@code algorithm} keyed with {@code seed}.
     *
     * @param algorithm the hash function: {@link HashAlgorithm#XXH3_64}, or an imported layout's
     *     (whose hashes of a Guava filter of the 64-bit strategy refuse: its keys are probed by the
     *     key calls of {@link BloomFilter})
     * @param seed any 64-bit value; a filter's is {@link BloomSpec#seed()}
     */
    public KeyHasher(HashAlgorithm algorithm, long seed) {
        this.function = switch (algorithm) {
            case XXH3_64 -> LongHashFunction.xx3(seed);
            case MURMUR3_X64_128 -> seed == ForeignSeeds.GUAVA_MITZ_32 ? LongHashFunction.murmur_3()
                    : new NoSingleHash("a guava filter of Guava's default strategy (MURMUR128_MITZ_64) is probed"
                            + " with both halves of a key's 128-bit hash, so it takes keys one by one (add, contains,"
                            + " mightContain), not 64-bit hashes: dedup, count and the hash and batch calls cannot reach it");
            case MURMUR3_X86_32 -> new SparkMurmur3(ForeignSeeds.sparkSeed(seed));
        };
        this.seed = seed;
    }

    /**
     * The seed this hasher hashes with: the filter's.
     *
     * @return the seed, any 64-bit value
     */
    public long seed() {
        return seed;
    }

    /**
     * The hash of a long's 8 little-endian bytes.
     *
     * @param key any long, 0 and negative ones included
     * @return the 64-bit hash
     */
    public long hash(long key) {
        return function.hashLong(key);
    }

    /**
     * The hash of a byte[] key's bytes.
     *
     * @param key the key's bytes; empty is a key too
     * @return the 64-bit hash
     */
    public long hash(byte[] key) {
        return function.hashBytes(key);
    }

    /**
     * The hash of {@code key[offset .. offset + length)}.
     *
     * @param key the array holding the key
     * @param offset where the key starts in {@code key}, from 0
     * @param length the key's length in bytes; 0 is the empty key
     * @return the 64-bit hash
     */
    public long hash(byte[] key, int offset, int length) {
        return function.hashBytes(key, offset, length);
    }

    /**
     * The hash of the buffer's remaining bytes; its position and limit are left as they were.
     *
     * @param key the key's bytes, from position to limit
     * @return the 64-bit hash
     */
    public long hash(ByteBuffer key) {
        return function.hashBytes(key, key.position(), key.remaining());
    }

    /**
     * The hash of the UTF-8 bytes of {@code key}.
     *
     * @param key the key; an unpaired surrogate is encoded as {@code ?}, as {@code String.getBytes(UTF_8)} does
     * @return the 64-bit hash
     */
    public long hash(CharSequence key) {
        Utf8.Scratch scratch = Utf8.scratch();
        int length = Utf8.encode(key, scratch);
        return function.hashBytes(scratch.bytes, 0, length);
    }
}
