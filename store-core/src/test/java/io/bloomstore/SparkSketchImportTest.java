package io.bloomstore;

import static io.bloomstore.internal.format.FilterFixtures.cellWords;
import static org.junit.jupiter.api.Assertions.*;

import io.bloomstore.ImportFixtures.Query;
import io.bloomstore.ImportFixtures.Refusal;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongFunction;
import org.apache.spark.util.sketch.BloomFilter.Version;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark sketch Bloom filters written by the real spark-sketch, of both versions, imported, answer
 * as Spark's {@code mightContain} does for longs, strings and bytes; adds set Spark's bits; a
 * damaged stream creates nothing.
 */
class SparkSketchImportTest {
    private static final int KEYS = 100_000;
    private static final int ABSENT = 1_000_000;

    @TempDir
    Path dir;

    interface Put<T> {
        void put(org.apache.spark.util.sketch.BloomFilter sketch, T key);
    }

    interface Ask<T> {
        boolean ask(org.apache.spark.util.sketch.BloomFilter sketch, T key);
    }

    @ParameterizedTest
    @EnumSource(Version.class)
    void longsAnswerAsSpark(Version version) throws IOException {
        check(version, 0.03, i -> i * 0x9E3779B97F4A7C15L, (s, k) -> s.putLong(k), (s, k) -> s.mightContainLong(k),
                (f, k) -> f.mightContain(k));
    }

    @ParameterizedTest
    @EnumSource(Version.class)
    void stringsAnswerAsSpark(Version version) throws IOException {
        check(version, 0.01, i -> "row-" + i + (i % 3 == 0 ? "-ß" : ""), (s, k) -> s.putString(k),
                (s, k) -> s.mightContainString(k), (f, k) -> f.mightContain(k));
    }

    /** Every length from 0 to 12: Spark's murmur mixes a tail of 1 to 3 bytes its own way. */
    @ParameterizedTest
    @EnumSource(Version.class)
    void bytesAnswerAsSpark(Version version) throws IOException {
        check(version, 0.05, i -> Arrays.copyOf(Long.toString(i * 7).getBytes(StandardCharsets.US_ASCII), (int) (i % 13)),
                (s, k) -> s.putBinary(k), (s, k) -> s.mightContainBinary(k), (f, k) -> f.mightContain(k));
    }

    private <T> void check(Version version, double fpp, LongFunction<T> key, Put<T> put, Ask<T> ask, Query<T> query)
            throws IOException {
        org.apache.spark.util.sketch.BloomFilter sketch = sketch(version, KEYS, fpp, 12345);
        for (long i = 0; i < KEYS; i++) {
            put.put(sketch, key.apply(i));
        }
        Path file = importOf(sketch);
        try (BloomFilter imported = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertEquals(Layout.SPARK_SKETCH, imported.spec().layout());
            ImportFixtures.assertAnswersAsTheLibrary("Spark", imported, key, query, k -> ask.ask(sketch, k), KEYS, ABSENT);
        }
    }

    /** A sketch of {@code version}; version 2 with a murmur seed other than 0, which the file must carry. */
    private static org.apache.spark.util.sketch.BloomFilter sketch(Version version, long n, double fpp, int seed) {
        long bits = org.apache.spark.util.sketch.BloomFilter.optimalNumOfBits(n, fpp);
        return org.apache.spark.util.sketch.BloomFilter.create(version, n, bits, version == Version.V2 ? seed : 0);
    }

    private Path importOf(org.apache.spark.util.sketch.BloomFilter sketch) throws IOException {
        Path file = dir.resolve("imported-" + System.nanoTime() + ".bloom");
        SparkSketches.importStream(new ByteArrayInputStream(bytesOf(sketch)), file);
        return file;
    }

    private static byte[] bytesOf(org.apache.spark.util.sketch.BloomFilter sketch) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        sketch.writeTo(out);
        return out.toByteArray();
    }

    private static long[] sketchWords(org.apache.spark.util.sketch.BloomFilter sketch) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytesOf(sketch)));
        if (in.readInt() == 2) {
            in.readInt();
        }
        in.readInt();
        return ImportFixtures.words(in);
    }

    /** Adds through bloomstore, batch calls included, set the bits Spark's puts set. */
    @ParameterizedTest
    @EnumSource(Version.class)
    void addsSetSparksBits(Version version) throws IOException {
        org.apache.spark.util.sketch.BloomFilter sketch = sketch(version, 20_000, 0.01, -7);
        for (long i = 0; i < 5_000; i++) {
            sketch.putLong(i);
        }
        Path file = importOf(sketch);
        assertArrayEquals(sketchWords(sketch), cellWords(file, sketchWords(sketch).length));
        long[] later = new long[5_000];
        try (BloomFilter imported = BloomFilter.open(file, OpenMode.READ_WRITE)) {
            for (int i = 0; i < later.length; i++) {
                later[i] = -1 - i;
                sketch.putLong(later[i]);
            }
            imported.addAll(later);
            imported.add("a string");
            sketch.putString("a string");
        }
        assertArrayEquals(sketchWords(sketch), cellWords(file, sketchWords(sketch).length));
    }

    @Test
    void versionsAndSeedsDoNotMerge() throws IOException {
        long bits = org.apache.spark.util.sketch.BloomFilter.optimalNumOfBits(1_000, 0.01);
        Path v1 = importOf(org.apache.spark.util.sketch.BloomFilter.create(Version.V1, 1_000, bits, 0));
        Path v2 = importOf(org.apache.spark.util.sketch.BloomFilter.create(Version.V2, 1_000, bits, 0));
        Path v2seeded = importOf(org.apache.spark.util.sketch.BloomFilter.create(Version.V2, 1_000, bits, 1));
        for (List<Path> pair : List.of(List.of(v1, v2), List.of(v2, v2seeded))) {
            InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class,
                    () -> Merge.toNewFile(dir.resolve("no.bloom"), pair, MergeOp.OR, done -> { }));
            assertTrue(e.getMessage().contains("seed"), e.getMessage());
        }
        Path v2again = importOf(org.apache.spark.util.sketch.BloomFilter.create(Version.V2, 1_000, bits, 0));
        Merge.toNewFile(dir.resolve("yes.bloom"), List.of(v2, v2again), MergeOp.OR, done -> { });
        assertTrue(Files.exists(dir.resolve("yes.bloom")));
    }

    @Test
    void damagedOrHostileStreamsCreateNothing() throws IOException {
        byte[] good = bytesOf(sketch(Version.V2, 1_000, 0.01, 3));
        byte[] version9 = good.clone();
        ByteBuffer.wrap(version9).putInt(0, 9);
        byte[] huge = good.clone();
        ByteBuffer.wrap(huge).putInt(12, Integer.MAX_VALUE);
        byte[] manyHashes = good.clone();
        ByteBuffer.wrap(manyHashes).putInt(4, 1 << 20);
        ImportFixtures.assertEachCreatesNothing(dir, SparkSketches::importStream, List.of(
                new Refusal("truncated", Arrays.copyOf(good, good.length - 1), "ends after"),
                new Refusal("header cut", Arrays.copyOf(good, 10), "ends inside its header"),
                new Refusal("unknown version", version9, "version 9"),
                new Refusal("huge bit array", huge, "ends after"),
                new Refusal("too many hashes", manyHashes, "1048576 hash functions")));
    }
}
