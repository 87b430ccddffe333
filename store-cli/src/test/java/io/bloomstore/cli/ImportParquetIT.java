package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.internal.parquet.CompactThrift;
import io.bloomstore.internal.parquet.ParquetFooter;
import io.bloomstore.internal.parquet.SplitBlockHeader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code import-parquet} and {@code export-sbbf} through the real jar, on a Parquet file Spark
 * wrote (src/test/resources/parquet, made by store-spark's {@code ParquetFiltersSparkTest.writeFixtures}:
 * 3000 rows, several row groups, Bloom filters on {@code l} = 7 id (INT64) and {@code s} = "s-" id
 * (BYTE_ARRAY), ids 0 to 2999), and on damaged copies of it: one line, exit status 2, nothing created.
 */
class ImportParquetIT {
    private static final String FIXTURE = "ids-7x-0-2999.parquet";
    private static final int ROWS = 3000;

    @TempDir
    Path dir;

    @BeforeEach
    void copyFixture() throws IOException {
        try (InputStream in = ImportParquetIT.class.getResourceAsStream("/parquet/" + FIXTURE)) {
            Files.copy(in, dir.resolve(FIXTURE));
        }
    }

    private void writeKeys(String name, LongStream ids, java.util.function.LongFunction<String> key) throws IOException {
        Files.writeString(dir.resolve(name), ids.mapToObj(key).collect(Collectors.joining("\n", "", "\n")));
    }

    @Test
    void everyWrittenValueIsFoundAndAbsentOnesAtTheFiltersRate() throws IOException {
        String out = run(dir, "import-parquet", "l.bloom", FIXTURE, "--column", "l").assertOk().stdout();
        assertTrue(out.startsWith("imported column l (INT64) from 1 files, "), out);
        writeKeys("present.txt", LongStream.range(0, ROWS), id -> Long.toString(id * 7));
        run(dir, "contains", "l.bloom", "--from", "present.txt").assertOk();
        writeKeys("absent.txt", LongStream.range(ROWS, ROWS + 20_000), id -> Long.toString(id * 7));
        String present = run(dir, "contains", "l.bloom", "--from", "absent.txt", "--print", "present").stdout();
        double rate = present.lines().count() / 20_000.0;
        // The four row groups' filters, each sized for 1000 values, ORed into one of their size, hold
        // all 3000 values: the rate is that filter's own, which inspect estimates from its fill.
        double predicted = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(run(dir, "inspect", "l.bloom", "--json").assertOk().stdout()).get("currentFpp").asDouble();
        double sigma = Math.sqrt(predicted * (1 - predicted) / 20_000);
        assertTrue(Math.abs(rate - predicted) < 0.1 * predicted + 5 * sigma, "measured " + rate + ", predicted " + predicted);

        run(dir, "import-parquet", "s.bloom", dir.toString(), "--column", "s").assertOk();
        writeKeys("strings.txt", LongStream.range(0, ROWS), id -> "s-" + id);
        run(dir, "contains", "s.bloom", "--from", "strings.txt").assertOk();
        assertEquals(1, run(dir, "contains", "s.bloom", "s-3000000").exit(), "a string no row holds");
    }

    @Test
    void exportWritesParquetsHeaderThenTheBitset() throws IOException {
        run(dir, "import-parquet", "l.bloom", FIXTURE, "--column", "l").assertOk();
        run(dir, "export-sbbf", "l.bloom", "l.sbbf").assertOk();
        byte[] bytes = Files.readAllBytes(dir.resolve("l.sbbf"));
        SplitBlockHeader header;
        try {
            header = SplitBlockHeader.read(ByteBuffer.wrap(bytes));
        } catch (CompactThrift.MalformedThriftException e) {
            throw new AssertionError(e);
        }
        assertEquals(null, header.unsupported());
        assertEquals(bytes.length, header.headerLength() + header.numBytes());
        assertEquals(ByteBuffer.wrap(Files.readAllBytes(dir.resolve("l.bloom")), 4096, header.numBytes()),
                ByteBuffer.wrap(bytes, header.headerLength(), header.numBytes()), "the bitset is the cells");
        run(dir, "export-sbbf", "l.bloom", "l.sbbf").assertError(2);
    }

    @Test
    void aTruncatedFooterIsOneLineAndCreatesNothing() throws IOException {
        Path damaged = dir.resolve("truncated.parquet");
        byte[] bytes = Files.readAllBytes(dir.resolve(FIXTURE));
        Files.write(damaged, java.util.Arrays.copyOf(bytes, bytes.length - 100));
        assertRefused("truncated.parquet", "no PAR1 magic at its end");
    }

    @Test
    void aFilterPastTheEndOfTheFileIsOneLineAndCreatesNothing() throws IOException {
        byte[] bytes = Files.readAllBytes(dir.resolve(FIXTURE));
        long firstFilter = filterOffsets().stream().mapToLong(Long::longValue).min().orElseThrow();
        // Bytes cut from the data pages move the footer, not the offsets it holds: every filter of
        // the column now starts at or past the end of the file. (Parquet writes the filters after the data.)
        int cut = (int) (bytes.length - firstFilter);
        assertTrue(cut < firstFilter - 4, "room to cut");
        byte[] shorter = new byte[bytes.length - cut];
        System.arraycopy(bytes, 0, shorter, 0, 4);
        System.arraycopy(bytes, 4 + cut, shorter, 4, bytes.length - 4 - cut);
        Files.write(dir.resolve("short.parquet"), shorter);
        assertRefused("short.parquet", "runs past the end of the file");
    }

    @Test
    void aFilterHeaderClaimingATerabyteIsOneLineAndCreatesNothing() throws IOException {
        long offset = filterOffsets().get(0);
        // field 1 (i32 numBytes) = 2^40 as a zigzag varint (2^41: 42 bits, 6 bytes), then stop
        byte[] header = {0x15, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x40, 0};
        Path damaged = dir.resolve("huge.parquet");
        Files.copy(dir.resolve(FIXTURE), damaged);
        try (FileChannel channel = FileChannel.open(damaged, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(header), offset);
        }
        assertRefused("huge.parquet", "claims 1099511627776 bytes");
    }

    @Test
    void aColumnWithoutFilterOrOfNoSuchNameIsRefused() throws IOException {
        assertRefused(FIXTURE, "no column nope", "nope");
    }

    private void assertRefused(String input, String expected) throws IOException {
        assertRefused(input, expected, "l");
    }

    private void assertRefused(String input, String expected, String column) throws IOException {
        List<String> before = JarProcess.filesIn(dir);
        JarProcess.Result result = run(dir, "import-parquet", "out.bloom", input, "--column", column).assertError(2);
        assertTrue(result.err().contains(expected), result.err());
        assertFalse(Files.exists(dir.resolve("out.bloom")));
        assertEquals(before, JarProcess.filesIn(dir), "nothing created");
    }

    /** The filter offsets of the fixture's column {@code l}, read with the importer's own footer reader. */
    private List<Long> filterOffsets() throws IOException {
        try (FileChannel channel = FileChannel.open(dir.resolve(FIXTURE))) {
            return ParquetFooter.read(dir.resolve(FIXTURE), channel).rowGroups().stream().flatMap(List::stream)
                    .filter(c -> "l".equals(c.path())).map(ParquetFooter.ColumnChunk::filterOffset).toList();
        }
    }
}
