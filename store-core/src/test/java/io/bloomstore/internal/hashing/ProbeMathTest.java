package io.bloomstore.internal.hashing;

import static org.junit.jupiter.api.Assertions.*;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ProbeMathTest {
    private static final long[] EDGE_HASHES = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 0x8000000000000001L,
            0x9E3779B97F4A7C15L, 0x00000000FFFFFFFFL, 0xFFFFFFFF00000000L};
    private static final long[] RANGES = {1, 2, 3, 1000, (1L << 32) - 1, 1L << 32, (1L << 33) + 1, 10_000_000_019L,
            1L << 56, (1L << 62) + 12345, Long.MAX_VALUE};

    /** The high 64 bits of the unsigned 128-bit product, by arbitrary precision. */
    private static long unsignedMultiplyHigh(long x, long range) {
        BigInteger product = new BigInteger(Long.toUnsignedString(x)).multiply(BigInteger.valueOf(range));
        return product.shiftRight(64).longValueExact();
    }

    @Test
    void reduceIsTheHighHalfOfTheUnsignedProduct() {
        SplittableRandom random = new SplittableRandom(3);
        for (long range : RANGES) {
            for (long hash : EDGE_HASHES) {
                assertReduces(hash, range);
            }
            for (int i = 0; i < 2_000; i++) {
                assertReduces(random.nextLong(), range);
            }
        }
    }

    private static void assertReduces(long hash, long range) {
        long reduced = ProbeMath.reduce(hash, range);
        assertEquals(unsignedMultiplyHigh(hash, range), reduced, () -> Long.toHexString(hash) + " into " + range);
        assertTrue(reduced >= 0 && reduced < range, () -> reduced + " outside [0, " + range + ")");
    }

    /** fastrange keeps order: the hash's high bits pick the cell, the full range is reachable. */
    @Test
    void reduceMapsTheHashSpaceOntoTheWholeRange() {
        long range = 10_000_000_019L;
        assertEquals(0, ProbeMath.reduce(0, range));
        assertEquals(range - 1, ProbeMath.reduce(-1, range));
        assertEquals(range / 2, ProbeMath.reduce(Long.MIN_VALUE, range));
    }

    @Test
    void secondHashIsFmix64ForcedOdd() {
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < 10_000; i++) {
            long h = i < EDGE_HASHES.length ? EDGE_HASHES[i] : random.nextLong();
            long expected = h;
            expected ^= expected >>> 33;
            expected *= 0xff51afd7ed558ccdL;
            expected ^= expected >>> 33;
            expected *= 0xc4ceb9fe1a85ec53L;
            expected ^= expected >>> 33;
            assertEquals(expected | 1, ProbeMath.secondHash(h));
        }
        assertEquals(1, ProbeMath.secondHash(0), "fmix64(0) = 0, forced odd");
    }
}
