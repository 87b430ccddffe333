package io.bloomstore;

import static io.bloomstore.FilterAssertions.assertSameCells;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The batch calls ({@code addAll}, {@code addHashes}, {@code mightContainAll},
 * {@code mightContainHashes}) change the same cells and give the same answers, key by key, as one
 * single call per key in the same order. Each shape is tried below and above the size from which
 * the batch calls load a group's cache lines ahead (2 MiB of cells for the standard layout; the
 * blocked layout always does), with batch lengths that are not multiples of the 16-key group.
 * The queries ask members first, then strangers; a filter at its designed fill is queried with
 * both and mixed batches around the number of keys a standard filter keeps in flight.
 */
class BatchCallsTest {
    private static final int KEYS = 20_000;
    /** Batch lengths cycled through: empty, one key, a group and one, and a few thousand. */
    private static final int[] BATCH_LENGTHS = {0, 1, 17, 16, 3_001, 15, 999};

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}, {1}-bit cells, {2} expected keys")
    @CsvSource({"STANDARD,1,100000", "STANDARD,1,4000000", "STANDARD,4,100000", "STANDARD,4,1000000",
            "BLOCKED,1,100000", "BLOCKED,1,4000000", "BLOCKED,8,100000"})
    void batchCallsMatchSingleCalls(Layout layout, int counterBits, long expectedKeys) throws Exception {
        BloomSpec spec = BloomSpec.builder().expectedKeys(expectedKeys).fpp(0.01).counterBits(counterBits)
                .layout(layout).build();
        long[] longKeys = new SplittableRandom(1).longs(KEYS).toArray();
        byte[][] byteKeys = randomByteKeys(new SplittableRandom(2), KEYS);
        // Repeat some keys, so that "new" is false for some and counters go above one.
        longKeys[KEYS - 1] = longKeys[0];
        byteKeys[KEYS - 1] = byteKeys[1].clone();

        try (BloomFilter single = create("single", spec);
                BloomFilter longs = create("longs", spec);
                BloomFilter hashes = create("hashes", spec)) {
            boolean[] newBySingle = new boolean[2 * KEYS];
            for (int i = 0; i < KEYS; i++) {
                newBySingle[i] = single.add(longKeys[i]);
            }
            for (int i = 0; i < KEYS; i++) {
                newBySingle[KEYS + i] = single.add(byteKeys[i]);
            }
            // Batch adds in the same order: the same keys are new, in every batch.
            int cursor = 0;
            for (int b = 0; cursor < KEYS; b++) {
                int to = Math.min(KEYS, cursor + BATCH_LENGTHS[b % BATCH_LENGTHS.length]);
                long[] batch = Arrays.copyOfRange(longKeys, cursor, to);
                assertEquals(countTrue(newBySingle, cursor, to), longs.addAll(batch), "addAll(long[]) of keys " + cursor);
                long[] hashed = Arrays.stream(batch).map(hashes.hasher()::hash).toArray();
                assertEquals(countTrue(newBySingle, cursor, to), hashes.addHashes(hashed, hashed.length),
                        "addHashes of keys " + cursor);
                cursor = to;
            }
            cursor = 0;
            for (int b = 0; cursor < KEYS; b++) {
                int to = Math.min(KEYS, cursor + BATCH_LENGTHS[b % BATCH_LENGTHS.length]);
                byte[][] batch = Arrays.copyOfRange(byteKeys, cursor, to);
                assertEquals(countTrue(newBySingle, KEYS + cursor, KEYS + to), longs.addAll(batch),
                        "addAll(byte[][]) of keys " + cursor);
                long[] hashed = Arrays.stream(batch).mapToLong(hashes.hasher()::hash).toArray();
                assertEquals(countTrue(newBySingle, KEYS + cursor, KEYS + to), hashes.addHashes(hashed, hashed.length),
                        "addHashes of byte keys " + cursor);
                cursor = to;
            }
            assertSameCells(single, longs);
            assertSameCells(single, hashes);
            int newKeys = countTrue(newBySingle, 0, 2 * KEYS);
            assertEquals(newKeys, single.stats().approximateInsertions(), "single calls count their new keys");
            assertEquals(newKeys, longs.stats().approximateInsertions(), "batch calls count their new keys");
            assertEquals(newKeys, hashes.stats().approximateInsertions(), "addHashes counts its new keys");

            // Queries: members and strangers, batched, answer as single calls do.
            long[] queries = new SplittableRandom(3).longs(KEYS).toArray();
            System.arraycopy(longKeys, 0, queries, 0, KEYS / 2);
            byte[][] byteQueries = randomByteKeys(new SplittableRandom(4), KEYS);
            System.arraycopy(byteKeys, 0, byteQueries, 0, KEYS / 2);
            assertQueriesMatch(single, longs, queries, byteQueries);
        }
    }

    /**
     * Batch queries of a filter at its designed fill (about half its cells set, so a stranger's
     * probing stops at any of its k probes, and about p of the strangers pass all k) answer as
     * single queries do, key by key: members, strangers and both mixed by a coin toss, in batches
     * shorter and longer than the keys a standard filter beyond the caches keeps in flight (128),
     * of 0 and 1 keys, and from a hash array longer than the count, whose extra hashes and the
     * answers past the count stay untouched. The standard filters beyond 2 MiB take the queries in
     * rounds; the cache-resident one and the blocked one take them in groups.
     */
    @ParameterizedTest(name = "{0}, {1}-bit cells, {2} keys")
    @CsvSource({"STANDARD,1,2500000", "STANDARD,4,700000", "STANDARD,1,100000", "BLOCKED,1,2500000"})
    void batchQueriesAtDesignedFillMatchSingleQueries(Layout layout, int counterBits, int keys) throws Exception {
        BloomSpec spec = BloomSpec.builder().expectedKeys(keys).fpp(0.01).counterBits(counterBits).layout(layout)
                .build();
        long[] members = new SplittableRandom(5).longs(keys).toArray();
        int queries = 30_000;
        long[] strangers = new SplittableRandom(6).longs(queries).toArray();
        long[] mixed = new long[queries];
        SplittableRandom coin = new SplittableRandom(7);
        for (int i = 0; i < queries; i++) {
            mixed[i] = coin.nextBoolean() ? members[i] : strangers[i];
        }
        int[] lengths = {0, 1, 127, 128, 129, 3_001, 15, 999, 257, 2};
        try (BloomFilter filter = create("filled", spec)) {
            for (int from = 0; from < keys; from += 100_000) {
                filter.addAll(Arrays.copyOfRange(members, from, Math.min(keys, from + 100_000)));
            }
            double fill = filter.stats().fillRatio();
            assertTrue(fill > 0.35 && fill < 0.65, "about half the cells are set: " + fill);
            int falsePositives = 0;
            long[][] kinds = {Arrays.copyOf(members, queries), strangers, mixed};
            String[] kindNames = {"members", "strangers", "mixed"};
            for (int kindIndex = 0; kindIndex < kinds.length; kindIndex++) {
                long[] kind = kinds[kindIndex];
                int cursor = 0;
                for (int b = 0; cursor < queries; b++) {
                    int to = Math.min(queries, cursor + lengths[b % lengths.length]);
                    long[] batch = Arrays.copyOfRange(kind, cursor, to);
                    boolean[] expected = new boolean[batch.length];
                    for (int i = 0; i < batch.length; i++) {
                        expected[i] = filter.mightContain(batch[i]);
                    }
                    int found = countTrue(expected, 0, expected.length);
                    String where = kindNames[kindIndex] + " " + cursor + " to " + to;
                    boolean[] answers = new boolean[batch.length];
                    assertEquals(found, filter.mightContainAll(batch, answers), "mightContainAll, " + where);
                    assertArrayEquals(expected, answers, "mightContainAll, " + where);

                    long[] hashes = new long[batch.length + 5];
                    Arrays.fill(hashes, -1L);
                    for (int i = 0; i < batch.length; i++) {
                        hashes[i] = filter.hasher().hash(batch[i]);
                    }
                    long[] hashesBefore = hashes.clone();
                    boolean[] longer = new boolean[batch.length + 5];
                    Arrays.fill(longer, batch.length, longer.length, true);
                    assertEquals(found, filter.mightContainHashes(hashes, batch.length, longer), "mightContainHashes, " + where);
                    assertArrayEquals(expected, Arrays.copyOf(longer, batch.length), "mightContainHashes, " + where);
                    assertEquals(5, countTrue(longer, batch.length, longer.length), "answers past the count, " + where);
                    assertArrayEquals(hashesBefore, hashes, "the hashes are read, not written");
                    if (kind == strangers) {
                        falsePositives += found;
                    }
                    cursor = to;
                }
            }
            assertTrue(falsePositives > 0, "some strangers pass all k probes");
            assertTrue(falsePositives < queries / 20, falsePositives + " false positives of " + queries);
        }
    }

    /**
     * addAll of string keys: the same new-key count, cells and insertion count as one add per key,
     * for a key count that is not a multiple of the group, with repeats.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"STANDARD", "BLOCKED"})
    void addAllOfStringsMatchesSingleAdds(Layout layout) throws Exception {
        BloomSpec spec = BloomSpec.builder().expectedKeys(KEYS).fpp(0.01).counterBits(4).layout(layout).build();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < KEYS - 3; i++) {
            keys.add("key-" + i);
        }
        keys.addAll(List.of("key-0", "key-7", "key-0"));
        try (BloomFilter single = create("single", spec);
                BloomFilter batched = create("batched", spec)) {
            int newBySingle = 0;
            for (String key : keys) {
                newBySingle += single.add(key) ? 1 : 0;
            }
            assertEquals(newBySingle, batched.addAll(keys));
            assertSameCells(single, batched);
            assertEquals(newBySingle, batched.stats().approximateInsertions());
            assertEquals(0, batched.addAll(List.<CharSequence>of()));
        }
    }

    /**
     * addAll of string keys is batched, as documented: it hashes a group of keys before it adds
     * any of them, so no key is in the filter yet when the iteration hands over the next one
     * within a group. Added one by one, each key would be in by then.
     */
    @Test
    void addAllOfStringsHashesAGroupBeforeAddingIt() throws Exception {
        try (BloomFilter filter = create("f", BloomSpec.forExpected(KEYS, 0.01))) {
            List<String> keys = List.of("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p");
            List<Boolean> previousWasIn = new ArrayList<>();
            Iterable<String> watched = () -> new Iterator<>() {
                private int next;

                @Override
                public boolean hasNext() {
                    return next < keys.size();
                }

                @Override
                public String next() {
                    if (next > 0) {
                        previousWasIn.add(filter.mightContain(keys.get(next - 1)));
                    }
                    return keys.get(next++);
                }
            };
            assertEquals(keys.size(), filter.addAll(watched));
            assertEquals(Collections.nCopies(keys.size() - 1, false), previousWasIn,
                    "the 16 keys are hashed before any of them is added");
            for (String key : keys) {
                assertTrue(filter.mightContain(key), key);
            }
        }
    }

    @Test
    void batchCallsCheckTheirArguments() throws Exception {
        try (BloomFilter filter = create("f", BloomSpec.forExpected(1000, 0.01))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> filter.mightContainAll(new long[5], new boolean[4]));
            assertTrue(e.getMessage().contains("room for 4 answers, not 5"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> filter.mightContainAll(new byte[][] {{1}, {2}}, new boolean[1]));
            assertThrows(IllegalArgumentException.class, () -> filter.mightContainHashes(new long[3], 3, new boolean[2]));
        }
        try (BloomFilter readOnly = BloomFilter.open(dir.resolve("f.bloom"), OpenMode.READ_ONLY)) {
            assertThrows(IllegalStateException.class, () -> readOnly.addAll(new long[] {1}));
            assertThrows(IllegalStateException.class, () -> readOnly.addAll(new byte[][] {{1}}));
            assertThrows(IllegalStateException.class, () -> readOnly.addHashes(new long[] {1}, 1));
            assertEquals(0, readOnly.mightContainAll(new long[] {1, 2}, new boolean[2]), "nothing was added");
        }
    }

    private void assertQueriesMatch(BloomFilter single, BloomFilter batched, long[] longQueries, byte[][] byteQueries) {
        boolean[] expected = new boolean[longQueries.length];
        for (int i = 0; i < longQueries.length; i++) {
            expected[i] = single.mightContain(longQueries[i]);
        }
        boolean[] actual = new boolean[longQueries.length];
        assertEquals(countTrue(expected, 0, expected.length), batched.mightContainAll(longQueries, actual));
        assertArrayEquals(expected, actual, "mightContainAll(long[])");
        long[] hashed = Arrays.stream(longQueries).map(batched.hasher()::hash).toArray();
        Arrays.fill(actual, false);
        assertEquals(countTrue(expected, 0, expected.length), batched.mightContainHashes(hashed, hashed.length, actual));
        assertArrayEquals(expected, actual, "mightContainHashes");

        boolean[] expectedBytes = new boolean[byteQueries.length];
        for (int i = 0; i < byteQueries.length; i++) {
            expectedBytes[i] = single.mightContain(byteQueries[i]);
        }
        boolean[] actualBytes = new boolean[byteQueries.length + 3]; // longer than needed is fine
        assertEquals(countTrue(expectedBytes, 0, expectedBytes.length), batched.mightContainAll(byteQueries, actualBytes));
        assertArrayEquals(expectedBytes, Arrays.copyOf(actualBytes, byteQueries.length), "mightContainAll(byte[][])");
        assertEquals(byteQueries.length / 2, countTrue(expectedBytes, 0, byteQueries.length / 2), "members are present");
    }

    private BloomFilter create(String name, BloomSpec spec) throws Exception {
        return BloomFilter.create(dir.resolve(name + ".bloom"), spec, CreateOption.SPARSE);
    }

    private static byte[][] randomByteKeys(SplittableRandom random, int count) {
        byte[][] keys = new byte[count][];
        for (int i = 0; i < count; i++) {
            keys[i] = new byte[1 + random.nextInt(40)];
            for (int j = 0; j < keys[i].length; j++) {
                keys[i][j] = (byte) random.nextInt();
            }
        }
        return keys;
    }

    private static int countTrue(boolean[] values, int from, int to) {
        int count = 0;
        for (int i = from; i < to; i++) {
            count += values[i] ? 1 : 0;
        }
        return count;
    }
}
