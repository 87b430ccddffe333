package io.bloomstore.internal.hashing;

import java.nio.ByteOrder;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * XXH3-64 of an input longer than 240 bytes in a native store: the same value as
 * zero-allocation-hashing's {@code LongHashFunction.xx3(seed).hashMemory}, computed as the
 * reference {@code xxhash.h} computes it (its scalar path: stripes of 64 bytes into eight
 * accumulators, scrambled after each block of 16 stripes, then merged).
 *
 * <p>Why not the library's: its one method handles every length, and in a process that first
 * hashed millions of short keys the JIT compiled it for those, so the one long input a seal
 * checksums left the compiled code and ran in the interpreter, a few per cent of a short build's
 * CPU. Here the long input has methods of its own, a block's stripes one call, which the JIT
 * compiles after a few hundred blocks. {@code LongInputXxh3Test} checks it against the library.
 */
final class LongInputXxh3 {
    /** Inputs up to this long take XXH3's short paths, which this class does not have. */
    static final int MAX_SHORT_INPUT = 240;

    private static final long PRIME32_1 = 0x9E3779B1L;
    private static final long PRIME32_2 = 0x85EBCA77L;
    private static final long PRIME32_3 = 0xC2B2AE3DL;
    private static final long PRIME64_1 = 0x9E3779B185EBCA87L;
    private static final long PRIME64_2 = 0xC2B2AE3D27D4EB4FL;
    private static final long PRIME64_3 = 0x165667B19E3779F9L;
    private static final long PRIME64_4 = 0x85EBCA77C2B2AE63L;
    private static final long PRIME64_5 = 0x27D4EB2F165667C5L;
    private static final int STRIPE = 64;
    private static final int STRIPES_PER_BLOCK = 16;
    private static final int BLOCK = STRIPE * STRIPES_PER_BLOCK;
    private static final int SECRET_LONGS = 24;
    /** The last stripe's secret starts this many bytes before the last 64 of the secret. */
    private static final int LAST_STRIPE_SECRET_BACK = 7;
    private static final int MERGE_SECRET_START = 11;
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    /** XXH3's default secret, kSecret: 192 bytes, as little-endian longs. */
    private static final long[] K_SECRET = littleEndianLongs(new int[] {
        0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
        0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
        0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
        0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
        0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
        0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
        0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
        0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
        0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
        0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
        0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
        0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
    });

    private LongInputXxh3() {
    }

    /**
     * XXH3-64 with {@code seed} of bytes {@code [offset, offset + length)} of {@code store}.
     *
     * @param length more than {@value #MAX_SHORT_INPUT}
     */
    static long hash(BytesStore<?, ?> store, long offset, long length, long seed) {
        if (length <= MAX_SHORT_INPUT) {
            throw new IllegalArgumentException("XXH3's long-input path takes more than " + MAX_SHORT_INPUT + " bytes, not " + length);
        }
        // the seed's secret: kSecret with the seed added to the first long of each 16 bytes, taken from the second
        long[] secret = new long[SECRET_LONGS];
        for (int i = 0; i < SECRET_LONGS; i += 2) {
            secret[i] = K_SECRET[i] + seed;
            secret[i + 1] = K_SECRET[i + 1] - seed;
        }
        long[] acc = {PRIME32_3, PRIME64_1, PRIME64_2, PRIME64_3, PRIME64_4, PRIME32_2, PRIME64_5, PRIME32_1};
        long blocks = (length - 1) / BLOCK;
        for (long b = 0; b < blocks; b++) {
            accumulate(acc, store, offset + b * BLOCK, secret, STRIPES_PER_BLOCK);
            scramble(acc, secret);
        }
        int lastStripes = (int) (((length - 1) - blocks * BLOCK) / STRIPE);
        accumulate(acc, store, offset + blocks * BLOCK, secret, lastStripes);
        byte[] secretBytes = secretBytes(secret);
        accumulateStripe(acc, store, offset + length - STRIPE, secretBytes,
                SECRET_LONGS * Long.BYTES - STRIPE - LAST_STRIPE_SECRET_BACK);
        long result = length * PRIME64_1;
        for (int i = 0; i < 4; i++) {
            result += foldedProduct(acc[2 * i] ^ readLong(secretBytes, MERGE_SECRET_START + 16 * i),
                    acc[2 * i + 1] ^ readLong(secretBytes, MERGE_SECRET_START + 16 * i + 8));
        }
        return avalanche(result);
    }

    /** {@code stripes} stripes from {@code at}, stripe n with the secret from its byte 8 n. */
    private static void accumulate(long[] acc, BytesStore<?, ?> store, long at, long[] secret, int stripes) {
        for (int n = 0; n < stripes; n++) {
            long stripe = at + (long) n * STRIPE;
            for (int i = 0; i < 8; i++) {
                long data = readLong(store, stripe + 8L * i);
                long key = data ^ secret[n + i];
                acc[i ^ 1] += data;
                acc[i] += (key & 0xFFFF_FFFFL) * (key >>> 32);
            }
        }
    }

    /** The last stripe, whose secret starts at an odd byte. */
    private static void accumulateStripe(long[] acc, BytesStore<?, ?> store, long at, byte[] secret, int secretAt) {
        for (int i = 0; i < 8; i++) {
            long data = readLong(store, at + 8L * i);
            long key = data ^ readLong(secret, secretAt + 8 * i);
            acc[i ^ 1] += data;
            acc[i] += (key & 0xFFFF_FFFFL) * (key >>> 32);
        }
    }

    /** After each block, with the secret's last 64 bytes. */
    private static void scramble(long[] acc, long[] secret) {
        for (int i = 0; i < 8; i++) {
            long a = acc[i];
            a ^= a >>> 47;
            a ^= secret[SECRET_LONGS - 8 + i];
            acc[i] = a * PRIME32_1;
        }
    }

    private static long foldedProduct(long a, long b) {
        long high = Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
        return a * b ^ high;
    }

    private static long avalanche(long h) {
        h ^= h >>> 37;
        h *= 0x165667919E3779F9L;
        return h ^ h >>> 32;
    }

    private static long readLong(BytesStore<?, ?> store, long offset) {
        long value = store.readLong(offset);
        return LITTLE_ENDIAN ? value : Long.reverseBytes(value);
    }

    private static long readLong(byte[] bytes, int at) {
        long value = 0;
        for (int i = 7; i >= 0; i--) {
            value = value << 8 | (bytes[at + i] & 0xFF);
        }
        return value;
    }

    private static byte[] secretBytes(long[] secret) {
        byte[] bytes = new byte[secret.length * Long.BYTES];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (secret[i / Long.BYTES] >>> 8 * (i % Long.BYTES));
        }
        return bytes;
    }

    private static long[] littleEndianLongs(int[] bytes) {
        long[] longs = new long[bytes.length / Long.BYTES];
        for (int i = 0; i < bytes.length; i++) {
            longs[i / Long.BYTES] |= (long) bytes[i] << 8 * (i % Long.BYTES);
        }
        return longs;
    }
}
