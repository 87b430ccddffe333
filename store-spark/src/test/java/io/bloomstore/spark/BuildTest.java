package io.bloomstore.spark;

import static io.bloomstore.spark.SparkFixtures.assertSameCells;
import static org.junit.jupiter.api.Assertions.*;

import io.bloomstore.CellsCheck;
import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.FilterBuilder;
import io.bloomstore.Layout;
import io.bloomstore.OpenMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A filter built on Spark is the filter one machine builds from the same keys: the same cells byte
 * for byte, for every layout (the blocked and sectorized ones built by range), every key type, and a
 * task that fails and is retried.
 */
class BuildTest {
    private static final int KEYS = 20_000;

    @TempDir
    Path dir;

    /** Distinct string keys, some beyond ASCII (their UTF-8 bytes are the keys). */
    private static List<String> stringKeys() {
        return IntStream.range(0, KEYS).mapToObj(i -> i % 7 == 0 ? "clé-" + i + "-€" : "key-" + i).toList();
    }

    private static BloomSpec spec(Layout layout, int counterBits) {
        return BloomSpec.builder().expectedKeys(KEYS).fpp(0.01).layout(layout).counterBits(counterBits).build();
    }

    /** The file {@code bloomstore build} writes from these keys, one a line. */
    private Path builtByOneMachine(List<String> keys, BloomSpec spec) throws IOException {
        Path lines = Files.write(dir.resolve("keys.txt"), keys, StandardCharsets.UTF_8);
        Path file = dir.resolve("one-machine.bloom");
        FilterBuilder.to(file).spec(spec).fromLines(lines);
        return file;
    }

    @ParameterizedTest
    @EnumSource(value = Layout.class, names = {"SBBF", "GUAVA", "SPARK_SKETCH"}, mode = EnumSource.Mode.EXCLUDE)
    void stringKeysGiveTheCellsOfTheSingleMachineBuild(Layout layout) throws IOException {
        BloomSpec spec = spec(layout, 1);
        Path expected = builtByOneMachine(stringKeys(), spec);
        Path built = dir.resolve("spark.bloom");

        BuildResult result = BloomstoreSpark.build(SparkFixtures.strings(stringKeys(), 4), "id", spec, built.toString(),
                BuildOptions.defaults().withSlices(5));

        assertSameCells(expected, built);
        assertEquals(KEYS, result.keys());
        assertEquals(0, result.nullKeys());
        assertEquals(layout == Layout.STANDARD ? 4 : 5, result.tasks());
        try (BloomFilter filter = BloomFilter.open(built, OpenMode.READ_ONLY)) {
            assertTrue(filter.isSealed());
            assertEquals(CellsCheck.INTACT, filter.verify());
        }
        assertEquals(List.of("keys.txt", "one-machine.bloom", "spark.bloom"), listing(), "no work files left");
    }

    @ParameterizedTest
    @EnumSource(value = Layout.class, names = {"STANDARD", "BLOCKED"}) // sectorized cells are bits only
    void countingCellsAreTheSingleMachineCounts(Layout layout) throws IOException {
        BloomSpec spec = spec(layout, 4);
        // every key three times: the counters count them
        List<String> keys = stringKeys().stream().flatMap(k -> Stream.of(k, k, k)).toList();
        Path expected = dir.resolve("one-machine.bloom");
        try (BloomFilter filter = BloomFilter.create(expected, spec)) {
            keys.forEach(filter::add);
        }
        Path built = dir.resolve("spark.bloom");
        BloomstoreSpark.build(SparkFixtures.strings(keys, 3), "id", spec, built.toString());
        assertSameCells(expected, built);
    }

    /** Parquet's filters are imported or built on one machine, not on Spark: refused before any work, naming both ways. */
    @Test
    void anSbbfSpecIsRefusedBeforeAnyWork() {
        Path out = dir.resolve("ids.sbbf.bloom");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> BloomstoreSpark.build(
                SparkFixtures.strings(List.of("a", "b"), 1), "id",
                io.bloomstore.ParquetFilters.spec(io.bloomstore.ParquetType.BYTE_ARRAY, 1000, 0.01, false), out.toString()));
        assertTrue(refused.getMessage().contains("bloomstore build --layout sbbf"), refused.getMessage());
        assertFalse(Files.exists(out));
    }

    @Test
    void wholeNumberColumnsAreLongKeysAndBinaryColumnsTheirBytes() throws IOException {
        BloomSpec spec = spec(Layout.BLOCKED, 1);
        List<Long> longs = LongStream.range(0, KEYS).map(i -> i * 0x9E3779B97F4A7C15L).boxed().toList();
        List<Integer> ints = IntStream.range(-KEYS / 2, KEYS / 2).boxed().toList();
        List<byte[]> bytes = IntStream.range(0, KEYS).mapToObj(i -> ("b" + i).getBytes(StandardCharsets.UTF_8)).toList();
        Path expected = dir.resolve("expected.bloom");
        try (BloomFilter filter = BloomFilter.create(expected, spec)) {
            longs.forEach(filter::add);
            ints.forEach(i -> filter.add((long) i));
            bytes.forEach(filter::add);
        }
        List<Object> mixed = new ArrayList<>();
        BloomstoreSpark.build(SparkFixtures.column("n", DataTypes.LongType, longs, 3), "n", spec, dir.resolve("l").toString());
        BloomstoreSpark.build(SparkFixtures.column("n", DataTypes.IntegerType, ints, 3), "n", spec, dir.resolve("i").toString());
        BloomstoreSpark.build(SparkFixtures.column("n", DataTypes.BinaryType, bytes, 3), "n", spec, dir.resolve("b").toString());
        Path union = dir.resolve("union.bloom");
        io.bloomstore.Merge.toNewFile(union, List.of(dir.resolve("l"), dir.resolve("i"), dir.resolve("b")),
                io.bloomstore.MergeOp.OR);
        assertSameCells(expected, union);
        assertTrue(mixed.isEmpty());
    }

    @Test
    void nullKeysAreSkippedAndCounted() throws IOException {
        List<String> keys = new ArrayList<>(stringKeys());
        List<String> withNulls = new ArrayList<>(keys);
        for (int i = 0; i < 37; i++) {
            withNulls.add(i * 500, null);
        }
        BloomSpec spec = spec(Layout.BLOCKED, 1);
        Path expected = builtByOneMachine(keys, spec);
        Path built = dir.resolve("spark.bloom");
        BuildResult result = BloomstoreSpark.build(SparkFixtures.strings(withNulls, 4), "id", spec, built.toString());
        assertEquals(37, result.nullKeys());
        assertEquals(KEYS, result.keys());
        assertSameCells(expected, built);
    }

    @ParameterizedTest
    @EnumSource(value = Layout.class, names = {"SBBF", "GUAVA", "SPARK_SKETCH"}, mode = EnumSource.Mode.EXCLUDE)
    void aTaskThatFailsAfterWritingItsPartIsRetriedAndTheFileIsStillExact(Layout layout) throws IOException {
        var conf = SharedSpark.session().sparkContext().hadoopConfiguration();
        conf.set("fs." + FailOnceFileSystem.SCHEME + ".impl", FailOnceFileSystem.class.getName());
        conf.setBoolean("fs." + FailOnceFileSystem.SCHEME + ".impl.disable.cache", true);
        BloomSpec spec = spec(layout, 1);
        Path expected = builtByOneMachine(stringKeys(), spec);
        Path built = dir.resolve("spark.bloom");

        BloomstoreSpark.build(SparkFixtures.strings(stringKeys(), 4), "id", spec,
                FailOnceFileSystem.SCHEME + "://" + built, BuildOptions.defaults().withSlices(4));

        assertSameCells(expected, built);
        assertEquals(List.of("keys.txt", "one-machine.bloom", "spark.bloom"), listing(), "no work files left");
    }

    @Test
    void aMissingColumnIsNamedWithTheColumnsThereAre() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BloomstoreSpark.build(
                SparkFixtures.strings(List.of("a"), 1), "user_id", spec(Layout.BLOCKED, 1), dir.resolve("f").toString()));
        assertEquals("no column user_id to take keys from; the columns are id", e.getMessage());
        assertFalse(Files.exists(dir.resolve("f")));
    }

    @Test
    void aColumnOfAnotherTypeIsRefusedSayingWhatToCastTo() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BloomstoreSpark.build(
                SparkFixtures.column("d", DataTypes.DoubleType, List.of(1.5), 1), "d", spec(Layout.BLOCKED, 1),
                dir.resolve("f").toString()));
        assertTrue(e.getMessage().startsWith("column d is of type double;") && e.getMessage().contains("cast"),
                e.getMessage());
    }

    @Test
    void anExistingFileIsReplacedOnlyWhenAsked() throws IOException {
        Path built = Files.writeString(dir.resolve("spark.bloom"), "precious");
        BloomSpec spec = spec(Layout.BLOCKED, 1);
        FileAlreadyExistsException e = assertThrows(FileAlreadyExistsException.class,
                () -> BloomstoreSpark.build(SparkFixtures.strings(stringKeys(), 2), "id", spec, built.toString()));
        assertTrue(e.getMessage().contains(built.toString()), e.getMessage());
        assertEquals("precious", Files.readString(built));

        BloomstoreSpark.build(SparkFixtures.strings(stringKeys(), 2), "id", spec, built.toString(),
                BuildOptions.defaults().withReplaceExisting(true));
        assertSameCells(builtByOneMachine(stringKeys(), spec), built);
    }

    private List<String> listing() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }
}
