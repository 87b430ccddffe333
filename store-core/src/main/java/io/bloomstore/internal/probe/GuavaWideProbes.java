package io.bloomstore.internal.probe;

import io.bloomstore.BloomSpec;
import io.bloomstore.internal.cells.CellArray;
import io.bloomstore.internal.hashing.Utf8;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import net.openhft.hashing.LongTupleHashFunction;

/**
 * The keys of a guava filter of Guava's {@code MURMUR128_MITZ_64} strategy (Guava's default),
 * hashed and probed as Guava's {@code BloomFilterStrategies} does: h1 and h2 are the two halves of
 * MurmurHash3_x64_128 with seed 0 of the key's bytes (Guava's {@code lowerEight} and
 * {@code upperEight} of the hash's little-endian bytes), and probe i (from 0) is
 * {@code ((h1 + i h2) & Long.MAX_VALUE) mod bits}. Both halves are needed, so these keys cannot
 * travel as one 64-bit hash through the batch calls: each key is hashed and probed here, on the
 * caller's thread, into a per-thread pair (nothing allocated per key).
 */
public final class GuavaWideProbes {
    private static final LongTupleHashFunction MURMUR3 = LongTupleHashFunction.murmur_3();
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    private static final ThreadLocal<long[]> PAIR = ThreadLocal.withInitial(() -> new long[2]);

    private final long address;
    private final long bits;
    private final int hashes;
    private final boolean singleWriter;

    public GuavaWideProbes(BloomSpec spec, CellArray cells) {
        this.address = cells.address();
        this.bits = spec.cells();
        this.hashes = spec.hashes();
        this.singleWriter = cells.isSingleWriter();
    }

    /** The hash of a long's 8 little-endian bytes, as Guava's {@code Funnels.longFunnel()} puts it. */
    public static long[] hash(long key) {
        long[] pair = PAIR.get();
        // the hash function reads a long in the platform's order; Guava's hasher puts it little-endian
        MURMUR3.hashLong(LITTLE_ENDIAN ? key : Long.reverseBytes(key), pair);
        return pair;
    }

    /** The hash of {@code key[offset .. offset + length)}, as {@code Funnels.byteArrayFunnel()} puts it. */
    public static long[] hash(byte[] key, int offset, int length) {
        long[] pair = PAIR.get();
        MURMUR3.hashBytes(key, offset, length, pair);
        return pair;
    }

    /** The hash of the buffer's remaining bytes; its position and limit are left as they were. */
    public static long[] hash(ByteBuffer key) {
        long[] pair = PAIR.get();
        MURMUR3.hashBytes(key, key.position(), key.remaining(), pair);
        return pair;
    }

    /** The hash of the UTF-8 bytes of {@code key}, as {@code Funnels.stringFunnel(UTF_8)} puts them. */
    public static long[] hash(CharSequence key) {
        Utf8.Scratch scratch = Utf8.scratch();
        return hash(scratch.bytes, 0, Utf8.encode(key, scratch));
    }

    /** Whether every bit of the key hashed to {@code pair} is set: Guava's {@code mightContain}. */
    public boolean mightContain(long[] pair) {
        long combined = pair[0];
        for (int i = 0; i < hashes; i++) {
            if (!CellArray.isBitSetVolatile(address, (combined & Long.MAX_VALUE) % bits)) {
                return false;
            }
            combined += pair[1];
        }
        return true;
    }

    /** Sets every bit of the key hashed to {@code pair}: Guava's {@code put}; whether one was clear before. */
    public boolean put(long[] pair) {
        long combined = pair[0];
        boolean changed = false;
        for (int i = 0; i < hashes; i++) {
            changed |= CellArray.setBit(address, (combined & Long.MAX_VALUE) % bits, singleWriter);
            combined += pair[1];
        }
        return changed;
    }
}
