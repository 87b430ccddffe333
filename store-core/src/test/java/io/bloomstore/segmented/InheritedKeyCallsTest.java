package io.bloomstore.segmented;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.GrowingBloomFilter;
import io.bloomstore.GrowingSpec;
import io.bloomstore.MembershipFilter;
import io.bloomstore.OpenMode;
import io.bloomstore.WindowSpec;
import io.bloomstore.WindowedBloomFilter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The key-type calls a growing and a windowed filter inherit from {@link MembershipFilter} (byte
 * ranges, buffers, and the batches of longs, byte arrays and strings) do what their hash calls do:
 * a batch longer than one hashing chunk (1024 keys) adds every key once and answers every key as a
 * single query does, and the batch calls check their arguments as the fixed filter's do.
 */
class InheritedKeyCallsTest {
    /** Spans several hashing chunks, and is not a multiple of one. */
    private static final int KEYS = 5_000;
    private static final long T0 = 1_700_000_000_000L;
    private static final int EPOCHS = 8;

    @TempDir
    Path dir;

    private MembershipFilter create(String kind, Path file) throws Exception {
        return kind.equals("growing")
                ? GrowingBloomFilter.create(file, GrowingSpec.of(1000, 0.01))
                : WindowedBloomFilter.create(file, WindowSpec.of(EPOCHS * 4 * KEYS, 0.01, Duration.ofHours(EPOCHS))
                        .withEpochs(EPOCHS), new TestClock(T0)); // all keys go to one slot of 4 * KEYS
    }

    private MembershipFilter openReadOnly(String kind, Path file) throws Exception {
        return kind.equals("growing")
                ? GrowingBloomFilter.open(file, OpenMode.READ_ONLY)
                : WindowedBloomFilter.open(file, OpenMode.READ_ONLY, new TestClock(T0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"growing", "windowed"})
    void batchesAddEveryKeyOnceAndAnswerAsSingleQueries(String kind) throws Exception {
        long[] longs = new SplittableRandom(1).longs(KEYS).toArray();
        byte[][] bytes = new byte[KEYS][];
        List<String> strings = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
            bytes[i] = ("bytes-" + i).getBytes(StandardCharsets.UTF_8);
            strings.add("string-" + i);
        }
        try (MembershipFilter filter = create(kind, dir.resolve(kind + ".bloom"))) {
            assertNewKeys(filter.addAll(longs), "addAll(long[])");
            assertNewKeys(filter.addAll(bytes), "addAll(byte[][])");
            assertNewKeys(filter.addAll(strings), "addAll(Iterable)");
            assertEquals(0, filter.addAll(longs) + filter.addAll(bytes) + filter.addAll(strings),
                    "every key is present the second time");

            boolean[] results = new boolean[KEYS];
            assertEquals(KEYS, filter.mightContainAll(longs, results), "members");
            assertEquals(KEYS, filter.mightContainAll(bytes, results), "members");
            for (String key : strings) {
                assertTrue(filter.mightContain(key), key);
            }

            long[] strangers = new SplittableRandom(2).longs(KEYS).toArray();
            byte[][] strangerBytes = new byte[KEYS][];
            boolean[] single = new boolean[KEYS];
            boolean[] singleBytes = new boolean[KEYS];
            for (int i = 0; i < KEYS; i++) {
                strangerBytes[i] = ("stranger-" + i).getBytes(StandardCharsets.UTF_8);
                single[i] = filter.mightContain(strangers[i]);
                singleBytes[i] = filter.mightContain(strangerBytes[i]);
            }
            boolean[] batch = new boolean[KEYS + 3]; // longer than needed is fine
            filter.mightContainAll(strangers, batch);
            assertArrayEquals(single, Arrays.copyOf(batch, KEYS), "mightContainAll(long[])");
            filter.mightContainAll(strangerBytes, batch);
            assertArrayEquals(singleBytes, Arrays.copyOf(batch, KEYS), "mightContainAll(byte[][])");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"growing", "windowed"})
    void rangesAndBuffersAreTheKeyOfTheirBytes(String kind) throws Exception {
        byte[] framed = "[order-42]".getBytes(StandardCharsets.UTF_8);
        try (MembershipFilter filter = create(kind, dir.resolve(kind + ".bloom"))) {
            assertTrue(filter.add(framed, 1, 8), "new");
            assertTrue(filter.mightContain("order-42"), "the range is the key");
            assertTrue(filter.mightContain(ByteBuffer.wrap(framed, 1, 8)), "a buffer of the same bytes");
            ByteBuffer direct = ByteBuffer.allocateDirect(8).put("order-43".getBytes(StandardCharsets.UTF_8)).flip();
            assertTrue(filter.add(direct), "new");
            assertEquals(0, direct.position(), "position left as it was");
            assertTrue(filter.mightContain("order-43".getBytes(StandardCharsets.UTF_8), 0, 8));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"growing", "windowed"})
    void batchCallsCheckTheirArguments(String kind) throws Exception {
        Path file = dir.resolve(kind + ".bloom");
        try (MembershipFilter filter = create(kind, file)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> filter.mightContainAll(new long[5], new boolean[4]));
            assertTrue(e.getMessage().contains("room for 4 answers, not 5"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> filter.mightContainAll(new byte[][] {{1}, {2}}, new boolean[1]));
        }
        try (MembershipFilter readOnly = openReadOnly(kind, file)) {
            assertThrows(IllegalStateException.class, () -> readOnly.addAll(new long[] {1}));
            assertThrows(IllegalStateException.class, () -> readOnly.addAll(new byte[][] {{1}}));
            assertThrows(IllegalStateException.class, () -> readOnly.addAll(List.of("a")));
            assertThrows(IllegalStateException.class, () -> readOnly.addAll(new long[0]), "an empty batch too");
            assertEquals(0, readOnly.mightContainAll(new long[] {1, 2}, new boolean[2]), "nothing was added");
        }
    }

    /** A batch of KEYS distinct keys: all new, but for the rare key a filter at 1% takes for a member. */
    private static void assertNewKeys(int added, String call) {
        assertTrue(added > KEYS * 0.97 && added <= KEYS, call + ": " + added + " new of " + KEYS + " distinct keys");
    }
}
