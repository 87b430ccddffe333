package io.bloomstore.internal.hashing;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * XXH3-64 of a byte-array input of at most {@value #MAX_LENGTH} bytes: the same value as
 * zero-allocation-hashing's {@code LongHashFunction.xx3(seed).hashBytes}, computed as the
 * reference {@code xxhash.h} computes it (its paths for 0, 1 to 3, 4 to 8, 9 to 16, 17 to 128 and
 * 129 to 240 bytes, each with the default secret and the seed).
 *
 * <p>Why not the library's: a key file's lines are hashed by the million, and the library's one
 * method for every length and every kind of input (a 2,700-byte method, every path inlined) is what
 * the JIT must compile twice over in a short run, where these paths are a few small methods, each
 * compiled for the lengths it meets. {@code ShortInputXxh3Test} checks every length against the
 * library.
 */
public final class ShortInputXxh3 {
    /** The longest input hashed here: XXH3's long inputs take its striped path instead. */
    public static final int MAX_LENGTH = LongInputXxh3.MAX_SHORT_INPUT;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long PRIME64_1 = 0x9E3779B185EBCA87L;
    private static final long PRIME64_2 = 0xC2B2AE3D27D4EB4FL;
    private static final long PRIME64_3 = 0x165667B19E3779F9L;
    private static final long PRIME_MX2 = 0x9FB21C651E98DF25L;
    private static final byte[] SECRET = LongInputXxh3.defaultSecret();
    private static final int MIDSIZE_START = 3;
    private static final int MIDSIZE_LAST = 136 - 17;

    private ShortInputXxh3() {
    }

    /**
     * XXH3-64 with {@code seed} of {@code input[offset .. offset + length)}.
     *
     * @param length 0 to {@value #MAX_LENGTH}
     */
    public static long hash(byte[] input, int offset, int length, long seed) {
        if (length <= 16) {
            return upTo16(input, offset, length, seed);
        }
        if (length <= 128) {
            return upTo128(input, offset, length, seed);
        }
        if (length <= MAX_LENGTH) {
            return upTo240(input, offset, length, seed);
        }
        throw new IllegalArgumentException("XXH3's short paths take at most " + MAX_LENGTH + " bytes, not " + length);
    }

    private static long upTo16(byte[] input, int offset, int length, long seed) {
        if (length > 8) {
            long low = readLong(input, offset) ^ ((secretLong(24) ^ secretLong(32)) + seed);
            long high = readLong(input, offset + length - 8) ^ ((secretLong(40) ^ secretLong(48)) - seed);
            return avalanche(length + Long.reverseBytes(low) + high + foldedProduct(low, high));
        }
        if (length >= 4) {
            long seeded = seed ^ (long) Integer.reverseBytes((int) seed) << 32;
            long first = readInt(input, offset);
            long last = readInt(input, offset + length - 4);
            long keyed = (last + (first << 32)) ^ ((secretLong(8) ^ secretLong(16)) - seeded);
            return rrmxmx(keyed, length);
        }
        if (length > 0) {
            int combined = (input[offset] & 0xFF) << 16 | (input[offset + (length >> 1)] & 0xFF) << 24
                    | (input[offset + length - 1] & 0xFF) | length << 8;
            long flip = ((secretInt(0) ^ secretInt(4)) & 0xFFFF_FFFFL) + seed;
            return xxh64Avalanche((combined & 0xFFFF_FFFFL) ^ flip);
        }
        return xxh64Avalanche(seed ^ (secretLong(56) ^ secretLong(64)));
    }

    private static long upTo128(byte[] input, int offset, int length, long seed) {
        long acc = length * PRIME64_1;
        int end = offset + length;
        if (length > 32) {
            if (length > 64) {
                if (length > 96) {
                    acc += mix16(input, offset + 48, 96, seed);
                    acc += mix16(input, end - 64, 112, seed);
                }
                acc += mix16(input, offset + 32, 64, seed);
                acc += mix16(input, end - 48, 80, seed);
            }
            acc += mix16(input, offset + 16, 32, seed);
            acc += mix16(input, end - 32, 48, seed);
        }
        acc += mix16(input, offset, 0, seed);
        acc += mix16(input, end - 16, 16, seed);
        return avalanche(acc);
    }

    private static long upTo240(byte[] input, int offset, int length, long seed) {
        long acc = length * PRIME64_1;
        for (int i = 0; i < 8; i++) {
            acc += mix16(input, offset + 16 * i, 16 * i, seed);
        }
        acc = avalanche(acc);
        int rounds = length / 16;
        for (int i = 8; i < rounds; i++) {
            acc += mix16(input, offset + 16 * i, 16 * (i - 8) + MIDSIZE_START, seed);
        }
        acc += mix16(input, offset + length - 16, MIDSIZE_LAST, seed);
        return avalanche(acc);
    }

    private static long mix16(byte[] input, int at, int secretAt, long seed) {
        return foldedProduct(readLong(input, at) ^ (secretLong(secretAt) + seed),
                readLong(input, at + 8) ^ (secretLong(secretAt + 8) - seed));
    }

    static long foldedProduct(long a, long b) {
        long high = Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
        return a * b ^ high;
    }

    static long avalanche(long h) {
        h ^= h >>> 37;
        h *= 0x165667919E3779F9L;
        return h ^ h >>> 32;
    }

    private static long rrmxmx(long h, int length) {
        h ^= Long.rotateLeft(h, 49) ^ Long.rotateLeft(h, 24);
        h *= PRIME_MX2;
        h ^= (h >>> 35) + length;
        h *= PRIME_MX2;
        return h ^ h >>> 28;
    }

    private static long xxh64Avalanche(long h) {
        h ^= h >>> 33;
        h *= PRIME64_2;
        h ^= h >>> 29;
        h *= PRIME64_3;
        return h ^ h >>> 32;
    }

    private static long readLong(byte[] bytes, int at) {
        return (long) LONGS.get(bytes, at);
    }

    private static long readInt(byte[] bytes, int at) {
        return (int) INTS.get(bytes, at) & 0xFFFF_FFFFL;
    }

    private static long secretLong(int at) {
        return (long) LONGS.get(SECRET, at);
    }

    private static long secretInt(int at) {
        return (int) INTS.get(SECRET, at) & 0xFFFF_FFFFL;
    }
}
