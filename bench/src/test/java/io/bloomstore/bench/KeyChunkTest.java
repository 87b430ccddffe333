package io.bloomstore.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The mixed chunk holds, at each position, the present or the absent key of that index, half of each. */
class KeyChunkTest {
    @Test
    void aMixedChunkHoldsPresentAndAbsentKeysHalfOfEach() {
        long first = 7_000;
        KeyChunk mixed = new KeyChunk(KeyType.LONG);
        mixed.fillMixed(first);
        int present = 0;
        for (int i = 0; i < KeyChunk.SIZE; i++) {
            long key = mixed.longs()[i];
            boolean isPresent = key == Keys.longKey(first + i);
            assertTrue(isPresent || key == Keys.longKey(Keys.ABSENT_BASE + first + i), "key " + i);
            present += isPresent ? 1 : 0;
        }
        // Binomial(1000, 1/2): standard deviation 15.8; 5 of them either side happens by chance
        // about once in 2 million.
        assertTrue(Math.abs(present - KeyChunk.SIZE / 2) <= 79, present + " present keys of " + KeyChunk.SIZE);

        KeyChunk again = new KeyChunk(KeyType.LONG);
        again.fillMixed(first);
        assertArrayEquals(mixed.longs(), again.longs(), "the coin toss is fixed per index");

        KeyChunk bytes = new KeyChunk(KeyType.BYTES16);
        bytes.fillMixed(first);
        byte[] expected = new byte[16];
        for (int i = 0; i < KeyChunk.SIZE; i++) {
            long index = mixed.longs()[i] == Keys.longKey(first + i) ? first + i : Keys.ABSENT_BASE + first + i;
            Keys.bytes16Key(index, expected);
            assertArrayEquals(expected, bytes.bytes()[i], "16-byte key " + i + " follows the same toss");
        }
    }
}
