package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.filesIn;
import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.util.sketch.BloomFilter.Version;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * import-guava and import-spark-sketch through the real jar, on streams the real Guava and
 * spark-sketch write here: every key put is present, and contains answers as the library does on
 * a million absent keys; the imports are added to, inspected, verified, packed and merged like any
 * file; a damaged stream is one line, exit 2, and no file.
 */
class ImportIT {
    private static final int KEYS = 100_000;
    private static final int ABSENT = 1_000_000;

    @TempDir
    Path dir;

    private static String guavaKey(int i) {
        return "user-" + i + (i % 5 == 0 ? "-Grüße" : "");
    }

    private static String sparkKey(int i) {
        return "order-" + i;
    }

    @Test
    void guavaImportAnswersAsGuava() throws Exception {
        BloomFilter<CharSequence> guava = BloomFilter.create(Funnels.stringFunnel(StandardCharsets.UTF_8), KEYS, 0.01);
        IntStream.range(0, KEYS).forEach(i -> guava.put(guavaKey(i)));
        Files.write(dir.resolve("users.guava"), guavaBytes(guava));
        String imported = run(dir, "import-guava", "users.bloom", "users.guava", "--funnel", "utf8").assertOk().stdout();
        assertTrue(imported.startsWith("imported Guava BloomFilter (MURMUR128_MITZ_64) users.guava into users.bloom: "),
                imported);
        assertTrue(imported.contains("guava layout"), imported);
        assertAnswersAs(guava::mightContain, "users.bloom", ImportIT::guavaKey);

        // adds through the jar set the bits Guava's put sets: Guava and the file agree on every key after
        Files.write(dir.resolve("later.txt"), lines(KEYS, KEYS + 1000, ImportIT::guavaKey));
        run(dir, "add", "users.bloom", "--from", "later.txt").assertOk();
        IntStream.range(KEYS, KEYS + 1000).forEach(i -> guava.put(guavaKey(i)));
        assertEquals(0, run(dir, "contains", "-q", "users.bloom", "--from", "later.txt").exit());
        assertAnswersAs(guava::mightContain, "users.bloom", ImportIT::guavaKey);

        assertTrue(run(dir, "verify", "users.bloom").assertOk().stdout().startsWith("users.bloom: ok"));
        String json = run(dir, "inspect", "users.bloom", "--json").assertOk().stdout();
        assertTrue(json.contains("\"layout\" : \"guava\""), json);
        run(dir, "pack", "users.bloom", "users.pack").assertOk();
        run(dir, "unpack", "users.pack", "copy.bloom").assertOk();
        assertEquals(0, run(dir, "contains", "-q", "copy.bloom", guavaKey(0), guavaKey(KEYS - 1)).exit());
    }

    @Test
    void guavaImportsMergeOnlyWithTheirOwnShape() throws Exception {
        BloomFilter<CharSequence> a = BloomFilter.create(Funnels.stringFunnel(StandardCharsets.UTF_8), 10_000, 0.01);
        BloomFilter<CharSequence> b = BloomFilter.create(Funnels.stringFunnel(StandardCharsets.UTF_8), 10_000, 0.01);
        BloomFilter<CharSequence> other = BloomFilter.create(Funnels.stringFunnel(StandardCharsets.UTF_8), 20_000, 0.01);
        a.put("alice");
        b.put("bob");
        Files.write(dir.resolve("a.guava"), guavaBytes(a));
        Files.write(dir.resolve("b.guava"), guavaBytes(b));
        Files.write(dir.resolve("other.guava"), guavaBytes(other));
        for (String name : List.of("a", "b", "other")) {
            run(dir, "import-guava", name + ".bloom", name + ".guava", "--funnel", "utf8").assertOk();
        }
        run(dir, "merge", "ab.bloom", "a.bloom", "b.bloom").assertOk();
        assertEquals(0, run(dir, "contains", "-q", "ab.bloom", "alice", "bob").exit());
        String refused = run(dir, "merge", "no.bloom", "a.bloom", "other.bloom").assertError(2).err();
        assertTrue(refused.contains("cells"), refused);
        assertTrue(Files.notExists(dir.resolve("no.bloom")));
    }

    @Test
    void theOldGuavaStrategyIsReadWithAWarning() throws Exception {
        BloomFilter<CharSequence> guava = BloomFilter.create(Funnels.stringFunnel(StandardCharsets.UTF_8), 1000, 0.01);
        byte[] old = guavaBytes(guava);
        old[0] = 0; // MURMUR128_MITZ_32's ordinal: the same layout of bytes, probed the old way
        Files.write(dir.resolve("old.guava"), old);
        JarProcess.Result result = run(dir, "import-guava", "old.bloom", "old.guava", "--funnel", "utf8");
        assertEquals(0, result.exit(), result.err());
        assertTrue(result.err().startsWith("bloomstore: warning: old.guava uses Guava's old MURMUR128_MITZ_32 strategy")
                && result.err().contains("2^31 bits") && result.err().lines().count() == 1, result.err());
        assertTrue(result.stdout().contains("MURMUR128_MITZ_32"), result.stdout());
    }

    @Test
    void damagedStreamsAreOneLineAndLeaveNoFile() throws Exception {
        byte[] good = guavaBytes(BloomFilter.create(Funnels.longFunnel(), 1000, 0.01));
        byte[] wrongStrategy = good.clone();
        wrongStrategy[0] = 9;
        Files.write(dir.resolve("cut.guava"), Arrays.copyOf(good, good.length / 2));
        Files.write(dir.resolve("strategy.guava"), wrongStrategy);
        List<String> before = filesIn(dir);
        String cut = run(dir, "import-guava", "cut.bloom", "cut.guava", "--funnel", "long").assertError(2).err();
        assertTrue(cut.contains("cut.guava: the stream ends after") && cut.contains("nothing was created"), cut);
        String strategy = run(dir, "import-guava", "s.bloom", "strategy.guava", "--funnel", "long").assertError(2).err();
        assertTrue(strategy.contains("strategy byte 9"), strategy);
        String sketch = run(dir, "import-spark-sketch", "k.bloom", "strategy.guava", "--type", "long").assertError(2).err();
        assertTrue(sketch.contains("not a Spark sketch Bloom filter's"), sketch);
        assertEquals(before, filesIn(dir), "no file, not even a temporary, was left");
    }

    @Test
    void sparkSketchImportsOfBothVersionsAnswerAsSpark() throws Exception {
        for (Version version : Version.values()) {
            long bits = org.apache.spark.util.sketch.BloomFilter.optimalNumOfBits(KEYS, 0.02);
            org.apache.spark.util.sketch.BloomFilter sketch =
                    org.apache.spark.util.sketch.BloomFilter.create(version, KEYS, bits, version == Version.V2 ? 99 : 0);
            IntStream.range(0, KEYS).forEach(i -> sketch.putString(sparkKey(i)));
            ByteArrayOutputStream stream = new ByteArrayOutputStream();
            sketch.writeTo(stream);
            String file = "ids-" + version + ".bloom";
            String imported = run(dir, stream.toByteArray(), "import-spark-sketch", file, "-", "--type", "utf8")
                    .assertOk().stdout();
            assertTrue(imported.startsWith("imported Spark sketch BloomFilter version " + (version == Version.V1 ? 1 : 2)
                    + " stdin into " + file), imported);
            assertAnswersAs(sketch::mightContainString, file, ImportIT::sparkKey);
            assertTrue(run(dir, "inspect", file, "--json").assertOk().stdout().contains("\"layout\" : \"spark_sketch\""));
        }
    }

    /** Every key below {@link #KEYS} is present, and of the next {@link #ABSENT}, exactly those the library says may be. */
    private void assertAnswersAs(Predicate<String> library, String file, IntFunction<String> key) throws IOException {
        Files.write(dir.resolve("put.txt"), lines(0, KEYS, key));
        assertEquals(0, run(dir, "contains", "-q", file, "--from", "put.txt").exit(), "every key put is present");
        Files.write(dir.resolve("absent.txt"), lines(KEYS + 1000, KEYS + 1000 + ABSENT, key));
        String present = run(dir, "contains", file, "--from", "absent.txt", "--print", "present").stdout();
        String expected = IntStream.range(KEYS + 1000, KEYS + 1000 + ABSENT).mapToObj(key)
                .filter(library).map(k -> k + "\n").collect(Collectors.joining());
        assertTrue(!expected.isEmpty(), "the library has false positives among " + ABSENT + " absent keys to compare");
        assertEquals(expected, present, "the absent keys answered present are exactly the library's false positives");
    }

    private static List<String> lines(int from, int to, IntFunction<String> key) {
        return IntStream.range(from, to).mapToObj(key).toList();
    }

    private static byte[] guavaBytes(BloomFilter<?> guava) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        guava.writeTo(out);
        return out.toByteArray();
    }
}
