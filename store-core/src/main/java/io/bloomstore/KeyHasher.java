package io.bloomstore;

import io.bloomstore.internal.hashing.ForeignSeeds;
import io.bloomstore.internal.hashing.NoSingleHash;
import io.bloomstore.internal.hashing.SparkMurmur3;
import io.bloomstore.internal.hashing.Utf8;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
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
 *
 * <p>A hasher of a {@link Layout#SBBF} filter ({@link #of(BloomSpec)}) hashes with XXH64 and turns
 * {@code long} and {@code CharSequence} keys into the PLAIN encoding of the filter's
 * {@link ParquetType} instead (the table there), as Parquet's writers hash a column's values.
 */
public final class KeyHasher {
    private final LongHashFunction function;
    private final long seed;
    /** The physical type whose PLAIN encoding long and text keys take; null: the canonical bytes. */
    private final ParquetType parquetType;

    /**
     * A hasher for {@code algorithm} keyed with {@code seed}.
     *
     * @param algorithm the hash function: {@link HashAlgorithm#XXH3_64}, {@link HashAlgorithm#XXH64}, or
     *     an imported layout's (whose hashes of a Guava filter of the 64-bit strategy refuse: its keys
     *     are probed by the key calls of {@link BloomFilter})
     * @param seed any 64-bit value; a filter's is {@link BloomSpec#seed()}
     */
    public KeyHasher(HashAlgorithm algorithm, long seed) {
        this(algorithm, seed, null);
    }

    private KeyHasher(HashAlgorithm algorithm, long seed, ParquetType parquetType) {
        this.function = switch (algorithm) {
            case XXH3_64 -> LongHashFunction.xx3(seed);
            case XXH64 -> LongHashFunction.xx(seed);
            case MURMUR3_X64_128 -> seed == ForeignSeeds.GUAVA_MITZ_32 ? LongHashFunction.murmur_3()
                    : new NoSingleHash("a guava filter of Guava's default strategy (MURMUR128_MITZ_64) is probed"
                            + " with both halves of a key's 128-bit hash, so it takes keys one by one (add, contains,"
                            + " mightContain), not 64-bit hashes: dedup, count and the hash and batch calls cannot reach it");
            case MURMUR3_X86_32 -> new SparkMurmur3(ForeignSeeds.sparkSeed(seed));
        };
        this.seed = seed;
        this.parquetType = parquetType;
    }

    /**
     * The hasher of filters of shape {@code spec}: its algorithm and seed, and for a
     * {@link Layout#SBBF} filter its keys' Parquet type.
     *
     * @param spec the filter's shape
     * @return a hasher giving the hashes that filter's cells were set with
     */
    public static KeyHasher of(BloomSpec spec) {
        return new KeyHasher(spec.hashAlgorithm(), spec.seed(), spec.parquetType());
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
        if (parquetType == null) {
            return function.hashLong(key);
        }
        return switch (parquetType) {
            case INT32 -> {
                if ((int) key != key) {
                    throw new IllegalArgumentException("key " + key + " is outside the range of a Parquet INT32 column");
                }
                yield function.hashInt((int) key);
            }
            case FLOAT -> function.hashInt(Float.floatToRawIntBits((float) key));
            case DOUBLE -> function.hashLong(Double.doubleToRawLongBits((double) key));
            default -> function.hashLong(key);
        };
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
     * The hash of a key written as text, {@code utf8[offset .. offset + length)}: a line of a key
     * file ({@link KeySource}). Its bytes, as {@link #hash(byte[], int, int)} hashes them, except in
     * a {@link Layout#SBBF} filter of a numeric {@link ParquetType}, where the text is the number, as
     * {@link #hash(CharSequence)} reads it.
     *
     * @param utf8 the array holding the key's text
     * @param offset where the key starts in {@code utf8}, from 0
     * @param length the key's length in bytes
     * @return the 64-bit hash
     * @throws IllegalArgumentException if the filter's keys are numbers and this text is not one
     */
    public long hashText(byte[] utf8, int offset, int length) {
        if (parquetType == null || !parquetType.isNumeric()) {
            return function.hashBytes(utf8, offset, length);
        }
        return hashNumber(new String(utf8, offset, length, StandardCharsets.UTF_8));
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
        if (parquetType != null && parquetType.isNumeric()) {
            return hashNumber(key.toString());
        }
        Utf8.Scratch scratch = Utf8.scratch();
        int length = Utf8.encode(key, scratch);
        return function.hashBytes(scratch.bytes, 0, length);
    }

    /** A numeric Parquet column's value written as text: parsed, then hashed as its PLAIN encoding. */
    private long hashNumber(String text) {
        try {
            return switch (parquetType) {
                case INT32 -> function.hashInt(Integer.parseInt(text));
                case INT64 -> function.hashLong(Long.parseLong(text));
                case FLOAT -> function.hashInt(Float.floatToRawIntBits(Float.parseFloat(text)));
                default -> function.hashLong(Double.doubleToRawLongBits(Double.parseDouble(text)));
            };
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("key \"" + text + "\" is not a Parquet " + parquetType
                    + " value; write it as a decimal number", e);
        }
    }
}
