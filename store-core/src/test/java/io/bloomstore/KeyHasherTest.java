package io.bloomstore;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import net.openhft.hashing.LongHashFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every key type hashes as its canonical bytes (FORMAT.md, "Keys"), under XXH3-64 with the seed. */
class KeyHasherTest {
    private static final long SEED = BloomSpec.DEFAULT_SEED;
    private final KeyHasher hasher = new KeyHasher(HashAlgorithm.XXH3_64, SEED);
    private final LongHashFunction xxh3 = LongHashFunction.xx3(SEED);

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 42, -1, -2, Long.MIN_VALUE, Long.MAX_VALUE, 0x0123456789ABCDEFL, 0x8000000000000001L})
    void longKeysHashAsTheirEightLittleEndianBytes(long key) {
        byte[] littleEndian = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(key).array();
        assertEquals(xxh3.hashBytes(littleEndian), hasher.hash(key));
        assertEquals(hasher.hash(littleEndian), hasher.hash(key));
        byte[] bigEndian = ByteBuffer.allocate(8).order(ByteOrder.BIG_ENDIAN).putLong(key).array();
        if (!Arrays.equals(littleEndian, bigEndian)) {
            assertNotEquals(hasher.hash(bigEndian), hasher.hash(key), "big-endian bytes are another key");
        }
    }

    @Test
    void aLongAndTheStringOfItsDigitsAreDifferentKeys() {
        assertNotEquals(hasher.hash(42L), hasher.hash("42"));
        assertEquals(hasher.hash("42"), hasher.hash(new byte[] {'4', '2'}));
    }

    @Test
    void byteSlicesAndBuffersHashAsTheirBytes() {
        byte[] data = new byte[300];
        new SplittableRandom(7).nextBytes(data);
        for (int[] slice : new int[][] {{0, 0}, {0, 300}, {1, 3}, {17, 16}, {100, 129}, {10, 241}}) {
            int offset = slice[0];
            int length = slice[1];
            byte[] copy = Arrays.copyOfRange(data, offset, offset + length);
            long expected = xxh3.hashBytes(copy);
            assertEquals(expected, hasher.hash(copy));
            assertEquals(expected, hasher.hash(data, offset, length));

            ByteBuffer heap = ByteBuffer.wrap(data, offset, length);
            assertBufferHashes(expected, heap);
            assertBufferHashes(expected, heap.asReadOnlyBuffer());
            ByteBuffer direct = ByteBuffer.allocateDirect(data.length).put(data);
            direct.position(offset).limit(offset + length);
            assertBufferHashes(expected, direct);
            assertBufferHashes(expected, direct.slice());
        }
    }

    /** Hashes the buffer's remaining bytes and leaves its position and limit alone. */
    private void assertBufferHashes(long expected, ByteBuffer buffer) {
        int position = buffer.position();
        int limit = buffer.limit();
        assertEquals(expected, hasher.hash(buffer), buffer.toString());
        assertEquals(position, buffer.position());
        assertEquals(limit, buffer.limit());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "hello", "Grüße, 世界 🌍", "lone \ud800 surrogate"})
    void charSequencesHashAsTheirUtf8Bytes(String key) {
        long expected = xxh3.hashBytes(key.getBytes(StandardCharsets.UTF_8));
        assertEquals(expected, hasher.hash(key));
        assertEquals(expected, hasher.hash(new StringBuilder(key)));
    }

    @Test
    void theSeedChangesEveryHash() {
        KeyHasher other = new KeyHasher(HashAlgorithm.XXH3_64, SEED + 1);
        assertEquals(SEED, hasher.seed());
        assertNotEquals(hasher.hash(42L), other.hash(42L));
        assertNotEquals(hasher.hash("hello"), other.hash("hello"));
        assertEquals(LongHashFunction.xx3(0).hashBytes(new byte[0]), new KeyHasher(HashAlgorithm.XXH3_64, 0).hash(new byte[0]));
        assertEquals(0x2d06800538d394c2L, new KeyHasher(HashAlgorithm.XXH3_64, 0).hash(new byte[0]),
                "the reference XXH3-64 of the empty input");
    }
}
