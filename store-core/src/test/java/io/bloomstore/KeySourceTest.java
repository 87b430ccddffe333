package io.bloomstore;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The public bulk API: the keys of files, streams and channels, added and queried as single calls would. */
class KeySourceTest {
    /** p = 1e-9: a key never added answers present with probability 1e-9, so "absent" is what a test sees. */
    private static final BloomSpec SPEC = BloomSpec.builder().expectedKeys(200_000).fpp(1e-9).build();

    @TempDir
    Path dir;

    /** {@code count} distinct text keys drawn from {@code seed}, of 1 to 40 characters (some multi-byte). */
    private static List<String> keys(long seed, int count) {
        SplittableRandom random = new SplittableRandom(seed);
        List<String> keys = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            StringBuilder key = new StringBuilder().append(i).append('-');
            for (int n = random.nextInt(40); n > 0; n--) {
                key.append((char) (random.nextInt(50) == 0 ? 'é' : 'a' + random.nextInt(26)));
            }
            keys.add(key.toString());
        }
        return keys;
    }

    private Path keyFile(List<String> keys, String newline) throws IOException {
        Path file = dir.resolve("keys.txt");
        Files.writeString(file, String.join(newline, keys) + newline, StandardCharsets.UTF_8);
        return file;
    }

    @Test
    void theLinesOfAFileAreTheSameKeysAsTheirTextAddedOneByOne() throws IOException {
        List<String> members = keys(1, 100_000);
        Path file = keyFile(members, "\r\n");
        try (BloomFilter bulk = BloomFilter.create(dir.resolve("bulk.bloom"), SPEC);
                KeySource lines = KeySource.lines(file)) {
            KeySource.Added added = lines.addTo(bulk);
            assertEquals(members.size(), added.keys());
            for (String key : members) {
                assertTrue(bulk.mightContain(key), key);
            }
            for (String stranger : keys(2, 10_000)) {
                assertFalse(bulk.mightContain(stranger + "-stranger"), stranger);
            }
        }
    }

    @Test
    void oneAdderCountsNewKeysAsSequentialAddsDo() throws IOException {
        List<String> input = new ArrayList<>(keys(3, 50_000));
        input.addAll(input.subList(0, 10_000)); // repeated keys: not new the second time
        long sequential;
        try (BloomFilter one = BloomFilter.create(dir.resolve("one.bloom"), SPEC)) {
            sequential = input.stream().filter(one::add).count();
        }
        try (BloomFilter bulk = BloomFilter.create(dir.resolve("bulk.bloom"), SPEC);
                KeySource lines = KeySource.lines(keyFile(input, "\n"))) {
            assertEquals(new KeySource.Added(input.size(), sequential), lines.addTo(bulk, 1));
        }
    }

    @Test
    void queriesAnswerEveryKeyInInputOrderAsMightContainDoes() throws IOException {
        List<String> members = keys(4, 30_000);
        List<String> input = new ArrayList<>();
        for (String member : members) {
            input.add(member);
            input.add(member + "-absent");
        }
        try (BloomFilter filter = BloomFilter.create(dir.resolve("f.bloom"), SPEC)) {
            members.forEach(filter::add);
            List<String> seen = new ArrayList<>();
            List<Boolean> answers = new ArrayList<>();
            KeySource.Queried queried;
            try (FileChannel channel = FileChannel.open(keyFile(input, "\n"), StandardOpenOption.READ);
                    KeySource lines = KeySource.lines(channel)) {
                queried = lines.queryIn(filter, (bytes, offset, length, present) -> {
                    seen.add(new String(bytes, offset, length, StandardCharsets.UTF_8));
                    answers.add(present);
                });
            }
            assertEquals(input, seen);
            for (int i = 0; i < input.size(); i++) {
                assertEquals(filter.mightContain(input.get(i)), answers.get(i), input.get(i));
            }
            assertEquals(new KeySource.Queried(input.size(), members.size()), queried);
            assertFalse(queried.allPresent());
        }
    }

    @Test
    void forEachHandsOutEachKeyWithTheHashOfItsBytes() throws IOException {
        byte[] input = "alpha\r\n\nbeta\n\r\ngamma".getBytes(StandardCharsets.US_ASCII);
        KeyHasher hasher = new KeyHasher(HashAlgorithm.XXH3_64, 7);
        List<String> seen = new ArrayList<>();
        try (KeySource lines = KeySource.lines(new ByteArrayInputStream(input))) {
            long count = lines.forEach(hasher, (bytes, offset, length, hash) -> {
                byte[] key = Arrays.copyOfRange(bytes, offset, offset + length);
                assertEquals(hasher.hash(key, 0, key.length), hash);
                seen.add(new String(key, StandardCharsets.US_ASCII));
            });
            assertEquals(3, count);
        }
        assertEquals(List.of("alpha", "beta", "gamma"), seen, "\\r dropped, empty lines skipped");
    }

    @Test
    void listedKeysComeFirstWholeThenTheLinesAndProgressCountsTheLinesBytes() throws IOException {
        byte[] lines = "c\nd\n".getBytes(StandardCharsets.US_ASCII);
        List<byte[]> listed = List.of("a\nb".getBytes(StandardCharsets.US_ASCII), "x\r".getBytes(StandardCharsets.US_ASCII));
        List<Long> progress = new ArrayList<>();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (KeySource keys = KeySource.concat(List.of(KeySource.of(listed), KeySource.lines(new ByteArrayInputStream(lines))))) {
            assertEquals(4, keys.onProgress(progress::add).forEach(new KeyHasher(HashAlgorithm.XXH3_64, 0),
                    (bytes, offset, length, hash) -> {
                        out.write(bytes, offset, length);
                        out.write('|');
                    }));
            assertEquals(lines.length, keys.bytesRead());
        }
        assertArrayEquals("a\nb|x\r|c|d|".getBytes(StandardCharsets.US_ASCII), out.toByteArray());
        assertEquals(lines.length, progress.get(progress.size() - 1));
        assertThrows(IllegalArgumentException.class, () -> KeySource.of(List.of(new byte[0])));
    }

    @Test
    void anAddToAReadOnlyFilterFailsWithTheFiltersException() throws IOException {
        Path file = dir.resolve("f.bloom");
        BloomFilter.create(file, SPEC).close();
        try (BloomFilter readOnly = BloomFilter.open(file, OpenMode.READ_ONLY);
                KeySource lines = KeySource.lines(keyFile(keys(5, 5_000), "\n"))) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> lines.addTo(readOnly, 2));
            assertTrue(e.getMessage().contains("read-only"), e.getMessage());
        }
    }
}
