package io.bloomstore;

import static io.bloomstore.internal.format.FilterFixtures.cellWords;
import static org.junit.jupiter.api.Assertions.*;

import com.google.common.hash.Funnel;
import com.google.common.hash.Funnels;
import io.bloomstore.tools.UnmappedQueries;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongFunction;
import io.bloomstore.ImportFixtures.Query;
import io.bloomstore.ImportFixtures.Refusal;
import io.bloomstore.testing.ChildJvm;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Guava filters written by the real Guava, imported, answer as Guava does: every key put is
 * found, a million absent keys get Guava's own answer each, adds set Guava's bits, merges are
 * Guava's putAll, and a damaged stream creates nothing.
 */
class GuavaImportTest {
    private static final int KEYS = 100_000;
    private static final int ABSENT = 1_000_000;
    /** Generous: a child JVM's start and each answer on a machine loaded many times over. */
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(2);

    @TempDir
    Path dir;

    @Test
    void stringFunnelAnswersAsGuava() throws IOException {
        checkAgainstGuava(Funnels.stringFunnel(StandardCharsets.UTF_8), i -> "user-" + i + "-Grüße",
                (filter, key) -> filter.mightContain(key), 0.01, null);
    }

    @Test
    void longFunnelAnswersAsGuava() throws IOException {
        checkAgainstGuava(Funnels.longFunnel(), i -> i * 0x9E3779B97F4A7C15L, (filter, key) -> filter.mightContain(key),
                0.03, null);
    }

    @Test
    void byteArrayFunnelAnswersAsGuava() throws IOException {
        // lengths 0 to 20: every tail length of MurmurHash3's 16-byte blocks
        checkAgainstGuava(Funnels.byteArrayFunnel(), i -> Arrays.copyOf(Long.toString(i * 31).getBytes(StandardCharsets.US_ASCII),
                (int) (i % 21)), (filter, key) -> filter.mightContain(key), 0.05, null);
    }

    /** Guava's first strategy, which new code cannot ask for; it is still read, and answered as Guava answers it. */
    @Test
    void oldStrategyAnswersAsGuava() throws Exception {
        checkAgainstGuava(Funnels.stringFunnel(StandardCharsets.UTF_8), i -> "old-" + i,
                (filter, key) -> filter.mightContain(key), 0.01, "MURMUR128_MITZ_32");
    }

    private <T> void checkAgainstGuava(Funnel<? super T> funnel, LongFunction<T> key, Query<T> query, double fpp,
            String strategy) throws IOException {
        com.google.common.hash.BloomFilter<T> guava = strategy == null
                ? com.google.common.hash.BloomFilter.create(funnel, KEYS, fpp) : withStrategy(funnel, fpp, strategy);
        for (long i = 0; i < KEYS; i++) {
            guava.put(key.apply(i));
        }
        Path file = importOf(guava);
        try (BloomFilter imported = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertEquals(Layout.GUAVA, imported.spec().layout());
            assertEquals(strategy == null ? 1 : 0, imported.spec().seed(), "the strategy ordinal");
            ImportFixtures.assertAnswersAsTheLibrary("Guava", imported, key, query, guava::mightContain, KEYS, ABSENT);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> com.google.common.hash.BloomFilter<T> withStrategy(Funnel<? super T> funnel, double fpp,
            String strategy) {
        try {
            Class<?> strategies = Class.forName("com.google.common.hash.BloomFilterStrategies");
            Object chosen = Enum.valueOf(strategies.asSubclass(Enum.class), strategy);
            Class<?> strategyType = Class.forName("com.google.common.hash.BloomFilter$Strategy");
            Method create = com.google.common.hash.BloomFilter.class.getDeclaredMethod("create", Funnel.class, long.class,
                    double.class, strategyType);
            create.setAccessible(true);
            return (com.google.common.hash.BloomFilter<T>) create.invoke(null, funnel, (long) KEYS, fpp, chosen);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("Guava's package-private create(funnel, n, p, strategy) moved", e);
        }
    }

    private Path importOf(com.google.common.hash.BloomFilter<?> guava) throws IOException {
        Path file = dir.resolve("imported-" + System.nanoTime() + ".bloom");
        GuavaFilters.importStream(new ByteArrayInputStream(bytesOf(guava)), file);
        return file;
    }

    private static byte[] bytesOf(com.google.common.hash.BloomFilter<?> guava) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        guava.writeTo(out);
        return out.toByteArray();
    }

    /** Guava's bit array, as its stream carries it. */
    private static long[] guavaWords(com.google.common.hash.BloomFilter<?> guava) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytesOf(guava)));
        in.readByte();
        in.readByte();
        return ImportFixtures.words(in);
    }

    @Test
    void importedCellsAreGuavasBitsAndAddsSetTheBitsGuavaSets() throws IOException {
        com.google.common.hash.BloomFilter<CharSequence> guava =
                com.google.common.hash.BloomFilter.create(Funnels.stringFunnel(StandardCharsets.UTF_8), 5_000, 0.01);
        for (int i = 0; i < 5_000; i++) {
            guava.put("first-" + i);
        }
        Path file = importOf(guava);
        long[] bits = guavaWords(guava);
        assertArrayEquals(bits, cellWords(file, bits.length), "the file's cells are Guava's bit array");
        try (BloomFilter imported = BloomFilter.open(file, OpenMode.READ_WRITE)) {
            for (int i = 0; i < 3_000; i++) {
                assertEquals(guava.put("later-" + i), imported.add("later-" + i), "later-" + i + " new to both or to neither");
            }
        }
        assertArrayEquals(guavaWords(guava), cellWords(file, bits.length), "adds set the bits Guava's put sets");
    }

    /** Two processes share one import: each sees the other's adds at once, and the bits are those Guava's puts set. */
    @Test
    void processesShareAnImport() throws Exception {
        com.google.common.hash.BloomFilter<Long> guava = com.google.common.hash.BloomFilter.create(Funnels.longFunnel(), 5_000, 0.01);
        Path file = importOf(guava);
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_WRITE);
                ChildJvm child = ChildJvm.start(FilterWorkerProcess.class, file.toString())) {
            child.expectLine("ready", CHILD_TIMEOUT);
            for (long key = 0; key < 200; key += 2) {
                assertTrue(filter.add(key), key + " new here");
                guava.put(key);
                child.send("contains " + key);
                child.expectLine("true", CHILD_TIMEOUT);
                child.send("add " + (key + 1));
                child.expectLine("true", CHILD_TIMEOUT);
                guava.put(key + 1);
                assertTrue(filter.mightContain(key + 1), "the child's add of " + (key + 1) + " is seen here");
            }
        }
        long[] bits = guavaWords(guava);
        assertArrayEquals(bits, cellWords(file, bits.length), "both processes set the bits Guava's put sets");
    }

    @Test
    void mergeIsGuavasPutAll() throws IOException {
        Funnel<Long> funnel = Funnels.longFunnel();
        com.google.common.hash.BloomFilter<Long> a = com.google.common.hash.BloomFilter.create(funnel, 20_000, 0.01);
        com.google.common.hash.BloomFilter<Long> b = com.google.common.hash.BloomFilter.create(funnel, 20_000, 0.01);
        for (long i = 0; i < 10_000; i++) {
            a.put(i);
            b.put(-i - 1);
        }
        Path fileA = importOf(a);
        Path fileB = importOf(b);
        Path merged = dir.resolve("merged.bloom");
        Merge.toNewFile(merged, List.of(fileA, fileB), MergeOp.OR, done -> { });
        a.putAll(b);
        long[] bits = guavaWords(a);
        assertArrayEquals(bits, cellWords(merged, bits.length));
        try (BloomFilter union = BloomFilter.open(merged, OpenMode.READ_ONLY)) {
            for (long i = 0; i < 10_000; i++) {
                assertTrue(union.mightContain(i) && union.mightContain(-i - 1));
            }
        }
    }

    @Test
    void mergeWithAnotherShapeIsRefused() throws IOException {
        Path small = importOf(com.google.common.hash.BloomFilter.create(Funnels.longFunnel(), 1_000, 0.01));
        Path large = importOf(com.google.common.hash.BloomFilter.create(Funnels.longFunnel(), 100_000, 0.01));
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class,
                () -> Merge.toNewFile(dir.resolve("no.bloom"), List.of(small, large), MergeOp.OR, done -> { }));
        assertTrue(e.getMessage().contains("cells"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("no.bloom")));
    }

    /** Guava's default strategy needs a key's 128-bit hash: the 64-bit hash calls refuse, saying what works. */
    @Test
    void hashCallsOfTheSixtyFourBitStrategyRefuse() throws IOException {
        Path file = importOf(com.google.common.hash.BloomFilter.create(Funnels.longFunnel(), 1_000, 0.01));
        try (BloomFilter imported = BloomFilter.open(file, OpenMode.READ_WRITE)) {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> imported.hasher().hash(42L));
            assertTrue(e.getMessage().contains("takes keys one by one"), e.getMessage());
            assertThrows(UnsupportedOperationException.class, () -> imported.mightContainHash(42L));
            assertThrows(UnsupportedOperationException.class, () -> imported.addAll(new long[] {1, 2}));
        }
    }

    @Test
    void keySourcesReachTheSixtyFourBitStrategyKeyByKey() throws IOException {
        com.google.common.hash.BloomFilter<CharSequence> guava =
                com.google.common.hash.BloomFilter.create(Funnels.stringFunnel(StandardCharsets.UTF_8), 1_000, 0.01);
        guava.put("alice");
        Path file = importOf(guava);
        try (MembershipFilter filter = MembershipFilter.open(file, OpenMode.READ_WRITE, java.time.Clock.systemUTC())) {
            KeySource.Added added = KeySource.of(utf8("bob", "carol")).addTo(filter);
            assertEquals(2, added.newKeys());
        }
        guava.put("bob");
        guava.put("carol");
        for (boolean unmapped : new boolean[] {false, true}) {
            try (MembershipFilter filter = unmapped ? UnmappedQueries.open(file) : MembershipFilter.open(file, OpenMode.READ_ONLY)) {
                KeySource.Queried queried = KeySource.of(utf8("alice", "bob", "carol", "dave")).queryIn(filter, null);
                assertEquals(guava.mightContain("dave") ? 4 : 3, queried.present(), unmapped ? "unmapped" : "mapped");
            }
        }
        assertArrayEquals(guavaWords(guava), cellWords(file, guavaWords(guava).length));
    }

    private static List<byte[]> utf8(String... keys) {
        return Arrays.stream(keys).map(k -> k.getBytes(StandardCharsets.UTF_8)).toList();
    }

    @Test
    void damagedOrHostileStreamsCreateNothing() throws IOException {
        com.google.common.hash.BloomFilter<Long> guava = com.google.common.hash.BloomFilter.create(Funnels.longFunnel(), 1_000, 0.01);
        byte[] good = bytesOf(guava);
        byte[] wrongStrategy = good.clone();
        wrongStrategy[0] = 7;
        byte[] huge = good.clone();
        ByteBuffer.wrap(huge).putInt(2, Integer.MAX_VALUE); // 2^34 bytes announced, a few hundred there
        byte[] negative = good.clone();
        ByteBuffer.wrap(negative).putInt(2, -1);
        byte[] noHashes = good.clone();
        noHashes[1] = 0;
        ImportFixtures.assertEachCreatesNothing(dir, GuavaFilters::importStream, List.of(
                new Refusal("truncated", Arrays.copyOf(good, good.length - 3), "ends after"),
                new Refusal("header cut", Arrays.copyOf(good, 4), "ends inside its header"),
                new Refusal("empty", new byte[0], "ends inside its header"),
                new Refusal("wrong strategy byte", wrongStrategy, "strategy byte 7"),
                new Refusal("huge bit array", huge, "ends after"),
                new Refusal("negative bit array", negative, "announces -1 longs"),
                new Refusal("no hash functions", noHashes, "0 hash functions")));
    }
}
