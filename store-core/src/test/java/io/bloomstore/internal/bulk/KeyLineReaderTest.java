package io.bloomstore.internal.bulk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KeyLineReaderTest {
    /** Reads every key, copying each slice out before the next batch invalidates it. */
    private static List<byte[]> keys(InputStream in, int bufferSize) throws IOException {
        List<byte[]> keys = new ArrayList<>();
        try (KeyLineReader reader = new KeyLineReader(in, bufferSize, null)) {
            KeyBatch batch = new KeyBatch();
            while (reader.nextBatch(batch)) {
                assertTrue(batch.size > 0, "a batch that is returned holds keys");
                for (int i = 0; i < batch.size; i++) {
                    keys.add(Arrays.copyOfRange(batch.bytes, batch.offsets[i], batch.offsets[i] + batch.lengths[i]));
                }
            }
            assertEquals(0, batch.size);
        }
        return keys;
    }

    private static List<String> text(byte[] input, int bufferSize) throws IOException {
        List<String> lines = new ArrayList<>();
        for (byte[] key : keys(new ByteArrayInputStream(input), bufferSize)) {
            lines.add(new String(key, StandardCharsets.UTF_8));
        }
        return lines;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7, 64, KeyLineReader.DEFAULT_BUFFER})
    void linesDropTrailingCarriageReturnAndSkipEmptyOnesAtAnyBufferSize(int bufferSize) throws IOException {
        byte[] input = "alpha\r\nbeta\n\n\r\ngamma\r\r\nlast-without-newline".getBytes(StandardCharsets.UTF_8);
        assertEquals(List.of("alpha", "beta", "gamma\r", "last-without-newline"), text(input, bufferSize));
    }

    @Test
    void emptyInputHasNoKeys() throws IOException {
        assertEquals(List.of(), text(new byte[0], 16));
        assertEquals(List.of(), text("\n\r\n\n".getBytes(StandardCharsets.US_ASCII), 16));
    }

    @Test
    void everyOtherByteIsPartOfTheKey() throws IOException {
        byte[] binary = {0, (byte) 0xff, (byte) 0xfe, 'a', 0, '\r', 'b', (byte) 0xc3};
        ByteArrayOutputStream input = new ByteArrayOutputStream();
        input.writeBytes(binary);
        input.write('\n');
        input.writeBytes(binary);
        List<byte[]> keys = keys(new ByteArrayInputStream(input.toByteArray()), 4);
        assertEquals(2, keys.size());
        assertArrayEquals(binary, keys.get(0));
        assertArrayEquals(binary, keys.get(1));
    }

    @Test
    void megabyteLinesGrowTheBuffer() throws IOException {
        byte[] longKey = new byte[3 << 20];
        Arrays.fill(longKey, (byte) 'x');
        longKey[longKey.length - 1] = 'y';
        ByteArrayOutputStream input = new ByteArrayOutputStream();
        input.writeBytes("short\n".getBytes(StandardCharsets.US_ASCII));
        input.writeBytes(longKey);
        input.writeBytes("\nafter\n".getBytes(StandardCharsets.US_ASCII));
        List<byte[]> keys = keys(new TrickleInputStream(input.toByteArray(), 65_536), 1024);
        assertEquals(3, keys.size());
        assertArrayEquals(longKey, keys.get(1));
        assertEquals("after", new String(keys.get(2), StandardCharsets.US_ASCII));
    }

    @Test
    void batchesHoldAtMostTheirCapacityAndLoseNoLine() throws IOException {
        StringBuilder input = new StringBuilder();
        int lines = KeyBatch.CAPACITY * 3 + 17;
        for (int i = 0; i < lines; i++) {
            input.append(i).append('\n');
        }
        List<String> keys = text(input.toString().getBytes(StandardCharsets.US_ASCII), 100);
        assertEquals(lines, keys.size());
        for (int i = 0; i < lines; i++) {
            assertEquals(Integer.toString(i), keys.get(i));
        }
    }

    @Test
    void countsBytesAndFlushesBeforeEachRead() throws IOException {
        byte[] input = "a\nbb\nccc\n".getBytes(StandardCharsets.US_ASCII);
        AtomicInteger flushes = new AtomicInteger();
        try (KeyLineReader reader = new KeyLineReader(new TrickleInputStream(input, 3), 16, flushes::incrementAndGet)) {
            KeyBatch batch = new KeyBatch();
            while (reader.nextBatch(batch)) {
                // consume
            }
            assertEquals(input.length, reader.bytesRead());
        }
        // 3 reads of data and the read that finds the end
        assertEquals(4, flushes.get());
    }

    /**
     * Random inputs against the definition of a key (split on '\n', drop one trailing '\r', skip
     * empty lines): inputs of up to 400 bytes where about one byte in 22 is a newline, so newlines
     * fall at every offset of the eight-byte words the reader scans, with bytes that differ from '\n' in one bit (0x0B, 0x8A) and the borrow
     * cases of its zero-byte test (0x00, 0x01, 0x09), through buffers and reads of many sizes.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void randomInputsSplitAsTheDefinitionSays(long seed) throws IOException {
        Random random = new Random(seed);
        byte[] alphabet = {'\n', '\n', '\r', 0, 1, 9, 0x0B, (byte) 0x8A, (byte) 0xFF, 'a', 'z'};
        for (int trial = 0; trial < 50; trial++) {
            byte[] input = new byte[random.nextInt(400)];
            for (int i = 0; i < input.length; i++) {
                input[i] = random.nextInt(4) == 0 ? alphabet[random.nextInt(alphabet.length)] : (byte) ('a' + random.nextInt(26));
            }
            List<String> expected = new ArrayList<>();
            for (String line : new String(input, StandardCharsets.ISO_8859_1).split("\n", -1)) {
                String key = line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
                if (!key.isEmpty()) {
                    expected.add(key);
                }
            }
            int bufferSize = 1 + random.nextInt(64);
            List<String> actual = new ArrayList<>();
            for (byte[] key : keys(new TrickleInputStream(input, 1 + random.nextInt(100)), bufferSize)) {
                actual.add(new String(key, StandardCharsets.ISO_8859_1));
            }
            assertEquals(expected, actual, "seed " + seed + ", trial " + trial + ", buffer " + bufferSize);
        }
    }

    @Test
    void argumentsComeOutAsGivenInOrder() throws IOException {
        List<byte[]> given = List.of("one".getBytes(StandardCharsets.UTF_8), new byte[] {0, 1, 2}, "thr\nee".getBytes(StandardCharsets.UTF_8));
        KeyBatch batch = new KeyBatch();
        ListedKeys keys = new ListedKeys(given);
        assertTrue(keys.nextBatch(batch));
        assertEquals(3, batch.size);
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(given.get(i), Arrays.copyOfRange(batch.bytes, batch.offsets[i], batch.offsets[i] + batch.lengths[i]));
        }
        assertFalse(keys.nextBatch(batch));
    }

    /** Hands out at most {@code chunk} bytes per read, like a pipe. */
    private static final class TrickleInputStream extends InputStream {
        private final ByteArrayInputStream bytes;
        private final int chunk;

        TrickleInputStream(byte[] content, int chunk) {
            this.bytes = new ByteArrayInputStream(content);
            this.chunk = chunk;
        }

        @Override
        public int read() {
            return bytes.read();
        }

        @Override
        public int read(byte[] b, int off, int len) {
            return bytes.read(b, off, Math.min(len, chunk));
        }
    }
}
