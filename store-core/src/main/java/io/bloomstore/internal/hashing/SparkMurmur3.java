package io.bloomstore.internal.hashing;

import net.openhft.hashing.Access;
import net.openhft.hashing.LongHashFunction;

/**
 * Spark's sketch hash of a key, as one 64-bit value: h1 = MurmurHash3_x86_32 of the key's bytes
 * with the sketch's seed in the low 32 bits, h2 = the same hash with h1 as the seed in the high 32
 * bits, as {@code BloomFilterBase.hashBytesToIntPair} and {@code hashLongToIntPair} compute them.
 * Spark's {@code Murmur3_x86_32.hashUnsafeBytes} mixes each byte of a tail shorter than 4 bytes as
 * a whole (sign-extended) block, where the reference packs the tail into one block: so this is not
 * the reference MurmurHash3 for lengths that are not multiples of 4, and must not be "fixed".
 * A long is its 8 little-endian bytes, as Spark's {@code hashLong} takes it.
 */
public final class SparkMurmur3 extends LongHashFunction {
    private static final long serialVersionUID = 1L;
    private static final int C1 = 0xcc9e2d51;
    private static final int C2 = 0x1b873593;

    private final int seed;

    public SparkMurmur3(int seed) {
        this.seed = seed;
    }

    /** The two 32-bit hashes packed as this function returns them: h1 low, h2 high. */
    public static long pack(int h1, int h2) {
        return (h1 & 0xFFFF_FFFFL) | ((long) h2 << 32);
    }

    /** Spark's {@code Murmur3_x86_32.hashLong(input, seed)}. */
    public static int hashLong(long input, int seed) {
        int h1 = mixH1(seed, mixK1((int) input));
        h1 = mixH1(h1, mixK1((int) (input >>> 32)));
        return fmix(h1, 8);
    }

    private static <T> int hashBytes(T input, Access<T> access, long offset, int length, int seed) {
        int aligned = length - length % 4;
        int h1 = seed;
        for (int i = 0; i < aligned; i += 4) {
            int block = (access.getByte(input, offset + i) & 0xFF)
                    | (access.getByte(input, offset + i + 1) & 0xFF) << 8
                    | (access.getByte(input, offset + i + 2) & 0xFF) << 16
                    | (access.getByte(input, offset + i + 3) & 0xFF) << 24;
            h1 = mixH1(h1, mixK1(block));
        }
        for (int i = aligned; i < length; i++) {
            h1 = mixH1(h1, mixK1((byte) access.getByte(input, offset + i)));
        }
        return fmix(h1, length);
    }

    private static int mixK1(int k1) {
        return Integer.rotateLeft(k1 * C1, 15) * C2;
    }

    private static int mixH1(int h1, int k1) {
        return Integer.rotateLeft(h1 ^ k1, 13) * 5 + 0xe6546b64;
    }

    private static int fmix(int h1, int length) {
        h1 ^= length;
        h1 ^= h1 >>> 16;
        h1 *= 0x85ebca6b;
        h1 ^= h1 >>> 13;
        h1 *= 0xc2b2ae35;
        return h1 ^ (h1 >>> 16);
    }

    @Override
    public long hashLong(long input) {
        int h1 = hashLong(input, seed);
        return pack(h1, hashLong(input, h1));
    }

    @Override
    public <T> long hash(T input, Access<T> access, long offset, long length) {
        int h1 = hashBytes(input, access, offset, (int) length, seed);
        return pack(h1, hashBytes(input, access, offset, (int) length, h1));
    }

    @Override
    public long hashInt(int input) {
        return hashBytes(new byte[] {(byte) input, (byte) (input >>> 8), (byte) (input >>> 16), (byte) (input >>> 24)});
    }

    @Override
    public long hashShort(short input) {
        return hashBytes(new byte[] {(byte) input, (byte) (input >>> 8)});
    }

    @Override
    public long hashChar(char input) {
        return hashShort((short) input);
    }

    @Override
    public long hashByte(byte input) {
        return hashBytes(new byte[] {input});
    }

    @Override
    public long hashVoid() {
        return hashBytes(new byte[0]);
    }
}
