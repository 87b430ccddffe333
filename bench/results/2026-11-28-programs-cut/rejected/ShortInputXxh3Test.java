package io.bloomstore.internal.hashing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import net.openhft.hashing.LongHashFunction;
import org.junit.jupiter.api.Test;

/**
 * Keys of up to 240 bytes are hashed with XXH3 by {@link ShortInputXxh3}: every hash must be the
 * library's, or every filter written before would stop finding its keys. Checked at every length
 * and each of XXH3's paths, at offsets inside a larger array, with seeds 0, small, negative,
 * random and the extremes, on random, all-zero and all-one bytes.
 */
class ShortInputXxh3Test {
    private static final long[] SEEDS = {0, 1, -1, 42, 0x5EED_0F_F17E_1DL, Long.MIN_VALUE, Long.MAX_VALUE, 0xFFFF_FFFFL};

    @Test
    void everyLengthHashesAsTheLibraryDoes() {
        SplittableRandom random = new SplittableRandom(1);
        byte[] bytes = new byte[ShortInputXxh3.MAX_LENGTH + 16];
        random.nextBytes(bytes);
        for (long seed : SEEDS) {
            for (int length = 0; length <= ShortInputXxh3.MAX_LENGTH; length++) {
                for (int offset : new int[] {0, 1, 7, 16 - length % 16}) {
                    assertSameHash(bytes, offset, length, seed);
                }
            }
        }
        for (int i = 0; i < 20_000; i++) {
            assertSameHash(bytes, random.nextInt(16), random.nextInt(ShortInputXxh3.MAX_LENGTH + 1), random.nextLong());
        }
    }

    @Test
    void zerosAndOnesHashAsTheLibraryDoes() {
        for (byte fill : new byte[] {0, -1, '\n'}) {
            byte[] bytes = new byte[ShortInputXxh3.MAX_LENGTH];
            java.util.Arrays.fill(bytes, fill);
            for (int length = 0; length <= ShortInputXxh3.MAX_LENGTH; length++) {
                assertSameHash(bytes, 0, length, 7);
            }
        }
    }

    @Test
    void longerInputsAreRefused() {
        byte[] bytes = new byte[ShortInputXxh3.MAX_LENGTH + 1];
        assertThrows(IllegalArgumentException.class, () -> ShortInputXxh3.hash(bytes, 0, bytes.length, 0));
    }

    private static void assertSameHash(byte[] bytes, int offset, int length, long seed) {
        assertEquals(LongHashFunction.xx3(seed).hashBytes(bytes, offset, length), ShortInputXxh3.hash(bytes, offset, length, seed),
                "length " + length + ", offset " + offset + ", seed " + seed);
    }
}
