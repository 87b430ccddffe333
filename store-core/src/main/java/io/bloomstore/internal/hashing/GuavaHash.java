package io.bloomstore.internal.hashing;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import net.openhft.hashing.LongTupleHashFunction;

/**
 * A key's hash as Guava's {@code Hashing.murmur3_128()} computes it for its Bloom filters: the
 * two 64-bit halves of MurmurHash3_x64_128 with seed 0 of the key's bytes, h1 first (Guava's
 * {@code lowerEight} of the hash's little-endian bytes) and h2 second ({@code upperEight}), into a
 * per-thread pair, so that hashing a key allocates nothing. The pair is valid until the thread's
 * next call.
 */
public final class GuavaHash {
    private static final LongTupleHashFunction MURMUR3 = LongTupleHashFunction.murmur_3();
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    private static final ThreadLocal<long[]> PAIR = ThreadLocal.withInitial(() -> new long[2]);

    private GuavaHash() {
    }

    /** A long's 8 little-endian bytes, as Guava's {@code Funnels.longFunnel()} puts them. */
    public static long[] of(long key) {
        long[] pair = PAIR.get();
        // the function reads a long in the platform's order; Guava's hasher puts it little-endian
        MURMUR3.hashLong(LITTLE_ENDIAN ? key : Long.reverseBytes(key), pair);
        return pair;
    }

    /** {@code key[offset .. offset + length)}, as {@code Funnels.byteArrayFunnel()} puts it. */
    public static long[] of(byte[] key, int offset, int length) {
        long[] pair = PAIR.get();
        MURMUR3.hashBytes(key, offset, length, pair);
        return pair;
    }

    /** The buffer's remaining bytes; its position and limit are left as they were. */
    public static long[] of(ByteBuffer key) {
        long[] pair = PAIR.get();
        MURMUR3.hashBytes(key, key.position(), key.remaining(), pair);
        return pair;
    }

    /** The UTF-8 bytes of {@code key}, as {@code Funnels.stringFunnel(UTF_8)} puts them. */
    public static long[] of(CharSequence key) {
        Utf8.Scratch scratch = Utf8.scratch();
        return of(scratch.bytes, 0, Utf8.encode(key, scratch));
    }
}
