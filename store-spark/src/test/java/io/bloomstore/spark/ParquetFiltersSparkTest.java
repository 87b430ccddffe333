package io.bloomstore.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.BloomFilter;
import io.bloomstore.OpenMode;
import io.bloomstore.ParquetFilters;
import io.bloomstore.ParquetType;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;
import java.util.stream.Stream;
import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter;
import org.apache.parquet.format.BloomFilterHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.io.api.Binary;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parquet's column filters in and out, against the real writer and reader: Spark writes Parquet
 * files with Bloom filters on INT32, INT64, DOUBLE and BINARY (string) columns, in several row
 * groups and, across two writes, two filter sizes; {@link ParquetFilters#importColumn} merges each
 * column's filters into one file that finds every written value and meets its false-positive rate
 * on absent ones; {@link ParquetFilters#exportSbbf}'s bytes, read by parquet-java's own
 * {@code Util.readBloomFilterHeader} and {@code BlockSplitBloomFilter}, give the same answers.
 *
 * <p>With {@code -Dbloomstore.parquet.fixtures=DIR}, the small files of {@link #writeFixtures} are
 * also copied to DIR: that is how store-cli's {@code src/test/resources/parquet} files were made
 * (store-cli's integration tests cannot run Spark).
 */
class ParquetFiltersSparkTest {
    private static final int ROWS = 40_000;
    private static final int ABSENT = 200_000;

    @TempDir
    static Path dir;
    private static Path dataset;

    /**
     * Two appends to one directory: rows 0..ROWS/2 with filters sized for 2 000 distinct values a
     * row group, the rest for 20 000, so the import folds filters of two sizes. Row groups of
     * 64 KiB give several per file. Column {@code n} has no filter.
     */
    @BeforeAll
    static void writeParquet() {
        dataset = dir.resolve("events");
        write(0, ROWS / 2, 2_000, SaveMode.Overwrite, dataset);
        write(ROWS / 2, ROWS, 20_000, SaveMode.Append, dataset);
    }

    private static void write(long from, long to, int ndv, SaveMode mode, Path out) {
        Dataset<Row> rows = SharedSpark.session().range(from, to, 1, 2).selectExpr(
                "cast(id as int) as i", "id * 7 as l", "cast(id as double) + 0.25 as d",
                "cast(cast(id as double) + 0.5 as float) as f", "concat('s-', id) as s",
                "cast(id * 1000003 as decimal(20, 0)) as x", "id as n");
        var writer = rows.write().mode(mode).option("parquet.block.size", 64 * 1024)
                .option("parquet.page.size.row.check.min", 100).option("parquet.page.size.row.check.max", 1000);
        for (String column : new String[] {"i", "l", "d", "f", "s", "x"}) {
            writer = writer.option("parquet.bloom.filter.enabled#" + column, "true")
                    .option("parquet.bloom.filter.expected.ndv#" + column, ndv);
        }
        writer.parquet(out.toString());
    }

    /**
     * A column: its values as bloomstore's CLI and API take them ({@code value}: a long, or text
     * that the filter's Parquet type reads), and as parquet-java's {@code hash(Object)} takes them
     * ({@code parquetValue}: the Java type of the column's physical type).
     */
    record Column(String name, ParquetType type, LongFunction<Object> value, LongFunction<Object> parquetValue) {
    }

    static List<Column> columns() {
        return List.of(new Column("i", ParquetType.INT32, id -> id, id -> (int) id),
                new Column("l", ParquetType.INT64, id -> id * 7, id -> id * 7),
                new Column("d", ParquetType.DOUBLE, id -> Double.toString(id + 0.25), id -> id + 0.25),
                new Column("f", ParquetType.FLOAT, id -> Float.toString(id + 0.5f), id -> id + 0.5f),
                new Column("s", ParquetType.BYTE_ARRAY, id -> "s-" + id, id -> Binary.fromString("s-" + id)),
                new Column("x", ParquetType.FIXED_LEN_BYTE_ARRAY, DecimalKeys::decimal20,
                        id -> Binary.fromConstantByteArray(DecimalKeys.decimal20(id))));
    }

    /** Keys as a Parquet writer stores decimal values. */
    private static final class DecimalKeys {
        /**
         * A decimal(20, 0) value of the test column, id · 1000003, as Parquet stores it: a
         * FIXED_LEN_BYTE_ARRAY of 9 bytes (the fewest that hold 20 digits), the unscaled value in
         * big-endian two's complement.
         */
        static byte[] decimal20(long id) {
            byte[] unscaled = BigInteger.valueOf(id * 1000003).toByteArray();
            byte[] fixed = new byte[9];
            System.arraycopy(unscaled, 0, fixed, fixed.length - unscaled.length, unscaled.length);
            return fixed;
        }
    }

    private static boolean mightContain(BloomFilter filter, Object key) {
        return key instanceof Long l ? filter.mightContain(l)
                : key instanceof byte[] bytes ? filter.mightContain(bytes) : filter.mightContain((String) key);
    }

    @Test
    void importedColumnsFindEveryValueAndMeetTheirRate() throws Exception {
        for (Column column : columns()) {
            Path out = dir.resolve(column.name() + ".bloom");
            List<Long> progress = new ArrayList<>();
            ParquetFilters.ImportReport report = ParquetFilters.importColumn(out, List.of(dataset), column.name(),
                    progress::add);
            assertEquals(column.type(), report.type());
            assertTrue(report.skipped().isEmpty(), report.skipped().toString());
            assertEquals(report.rowGroups(), report.filtersMerged());
            assertTrue(report.rowGroups() > report.files(), report.rowGroups() + " row groups in " + report.files() + " files");
            assertEquals(report.files(), progress.size());
            long footersAndFilters = report.bytesRead() - report.filterBytes();
            assertTrue(footersAndFilters < report.filterBytes(), "read " + report.bytesRead() + " for "
                    + report.filterBytes() + " bytes of filters");
            try (BloomFilter filter = BloomFilter.open(out, OpenMode.READ_ONLY)) {
                assertEquals(column.type(), filter.spec().parquetType());
                for (long id = 0; id < ROWS; id++) {
                    assertTrue(mightContain(filter, column.value().apply(id)), column + " lost " + id);
                }
                int positives = 0;
                for (long id = ROWS; id < ROWS + ABSENT; id++) {
                    positives += mightContain(filter, column.value().apply(id)) ? 1 : 0;
                }
                double rate = positives / (double) ABSENT;
                double model = filter.spec().expectedFpp(ROWS);
                assertTrue(rate <= model * 1.1 + 5 * Math.sqrt(model / ABSENT),
                        column.name() + ": measured " + rate + ", the merged filter's model " + model);
            }
        }
    }

    @Test
    void exportedBytesAreReadByParquetJavaWithTheSameAnswers() throws Exception {
        for (Column column : columns()) {
            Path imported = dir.resolve("export-source-" + column.name() + ".bloom");
            ParquetFilters.importColumn(imported, List.of(dataset), column.name());
            Path exported = dir.resolve(column.name() + ".sbbf");
            long length = ParquetFilters.exportSbbf(imported, exported);
            byte[] bytes = Files.readAllBytes(exported);
            assertEquals(length, bytes.length);
            InputStream in = new ByteArrayInputStream(bytes);
            BloomFilterHeader header = Util.readBloomFilterHeader(in);
            assertTrue(header.getAlgorithm().isSetBLOCK() && header.getHash().isSetXXHASH()
                    && header.getCompression().isSetUNCOMPRESSED(), header.toString());
            byte[] bitset = in.readAllBytes();
            assertEquals(header.getNumBytes(), bitset.length);
            BlockSplitBloomFilter parquet = new BlockSplitBloomFilter(bitset);
            try (BloomFilter filter = BloomFilter.open(imported, OpenMode.READ_ONLY)) {
                for (long id = 0; id < ROWS + ABSENT; id++) {
                    boolean ours = mightContain(filter, column.value().apply(id));
                    assertEquals(ours, parquet.findHash(parquet.hash(column.parquetValue().apply(id))),
                            column.name() + " value of id " + id);
                }
            }
        }
        // and a filter of strings built here, hashed by parquet-java as Binary
        Path strings = dir.resolve("strings.bloom");
        try (BloomFilter filter = BloomFilter.create(strings, ParquetFilters.spec(ParquetType.BYTE_ARRAY, 5000, 0.01, true))) {
            for (int i = 0; i < 5000; i++) {
                filter.add("k" + i);
            }
        }
        Path stringsOut = dir.resolve("strings.sbbf");
        ParquetFilters.exportSbbf(strings, stringsOut);
        InputStream stringsIn = Files.newInputStream(stringsOut);
        Util.readBloomFilterHeader(stringsIn);
        BlockSplitBloomFilter stringsParquet = new BlockSplitBloomFilter(stringsIn.readAllBytes());
        try (BloomFilter filter = BloomFilter.open(strings, OpenMode.READ_ONLY)) {
            for (int i = 0; i < 50_000; i++) {
                String key = "k" + i;
                boolean ours = filter.mightContain(key);
                assertEquals(ours, stringsParquet.findHash(stringsParquet.hash(Binary.fromString(key))), key);
                assertTrue(i >= 5000 || ours);
            }
        }
    }

    @Test
    void aColumnWithoutFiltersIsReportedAndNothingIsCreated() {
        Path out = dir.resolve("n.bloom");
        IOException e = assertThrows(IOException.class,
                () -> ParquetFilters.importColumn(out, List.of(dataset), "n"));
        assertTrue(e.getMessage().contains("no Bloom filter of column n"), e.getMessage());
        assertFalse(Files.exists(out));
        IOException missing = assertThrows(IOException.class,
                () -> ParquetFilters.importColumn(out, List.of(dataset), "nope"));
        assertTrue(missing.getMessage().contains("no column nope"), missing.getMessage());
    }

    /**
     * The small files store-cli's ImportParquetIT reads: one file of 3 row groups with filtered
     * INT64 and string columns; written here, copied there when asked (see the class comment).
     */
    @Test
    void writeFixtures() throws Exception {
        Path out = dir.resolve("fixtures");
        Dataset<Row> rows = SharedSpark.session().range(0, 3000, 1, 1).selectExpr("id * 7 as l", "concat('s-', id) as s");
        rows.write().mode(SaveMode.Overwrite).option("parquet.block.size", 16 * 1024)
                .option("parquet.page.size.row.check.min", 100).option("parquet.page.size.row.check.max", 1000)
                .option("parquet.bloom.filter.enabled#l", "true").option("parquet.bloom.filter.expected.ndv#l", 1000)
                .option("parquet.bloom.filter.enabled#s", "true").option("parquet.bloom.filter.expected.ndv#s", 1000)
                .parquet(out.toString());
        Path file;
        try (Stream<Path> files = Files.list(out)) {
            file = files.filter(p -> p.toString().endsWith(".parquet")).findFirst().orElseThrow();
        }
        ParquetFilters.ImportReport report = ParquetFilters.importColumn(dir.resolve("fixture.bloom"), List.of(file), "l");
        assertTrue(report.rowGroups() >= 2, report.rowGroups() + " row groups");
        String target = System.getProperty("bloomstore.parquet.fixtures");
        if (target != null) {
            Files.copy(file, Path.of(target).resolve("ids-7x-0-2999.parquet"), StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
