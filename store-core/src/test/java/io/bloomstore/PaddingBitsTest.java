package io.bloomstore;

import static org.junit.jupiter.api.Assertions.*;

import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.internal.format.FilterFileDescriptor;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Padding bits set by damage are not cells (docs/FORMAT.md, "Cells"): an in-place merge does not
 * carry a source's into the target, statistics and estimates do not count them, and a growing
 * file's verify finds them in a segment. (PaddingBitsIT covers verify, inspect and merge through
 * the command line.)
 */
class PaddingBitsTest {
    /** 1000 one-bit cells: 15 full words and 40 bits of word 15; the rest of the 4 KiB page is padding. */
    private static final BloomSpec SPEC = BloomSpec.builder().cells(1000).hashes(7).build();
    private static final long LAST_CELL_WORD = FilterFileDescriptor.CELLS_START + 15 * 8;

    @TempDir
    Path dir;

    private Path filterWith(String name, String... keys) throws IOException {
        Path file = dir.resolve(name);
        try (BloomFilter filter = BloomFilter.create(file, SPEC)) {
            for (String key : keys) {
                filter.add(key);
            }
        }
        return file;
    }

    /** Sets the high byte of the last cell word (cells 1000 .. 1023 lie above bit 40) and the file's last byte. */
    private static void setPadding(Path file) throws IOException {
        try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
            raw.seek(LAST_CELL_WORD + 7);
            raw.write(0xFF);
            raw.seek(raw.length() - 1);
            raw.write(0x01);
        }
    }

    @Test
    void anInPlaceMergeDoesNotCarryASourcesPaddingIntoTheTarget() throws IOException {
        Path target = filterWith("target.bloom", "alice");
        Path source = filterWith("source.bloom", "bob");
        setPadding(source);
        try (BloomFilter into = BloomFilter.open(target, OpenMode.READ_WRITE);
                BloomFilter from = BloomFilter.open(source, OpenMode.READ_ONLY)) {
            Merge.inPlace(into, from, MergeOp.OR, null);
            assertTrue(into.mightContain("alice"));
            assertTrue(into.mightContain("bob"));
            assertFalse((into.verify() == CellsCheck.INTACT), "intact, not sealed");
        }
        byte[] bytes = Files.readAllBytes(target);
        assertEquals(0, bytes[(int) LAST_CELL_WORD + 7]);
        assertEquals(0, bytes[bytes.length - 1]);
    }

    @Test
    void statisticsAndEstimatesDoNotCountPadding() throws IOException {
        Path clean = filterWith("clean.bloom", "alice", "bob");
        Path padded = filterWith("padded.bloom", "alice", "bob");
        Path other = filterWith("other.bloom", "bob", "carol");
        setPadding(padded);
        try (BloomFilter a = BloomFilter.open(clean, OpenMode.READ_ONLY);
                BloomFilter b = BloomFilter.open(padded, OpenMode.READ_ONLY);
                BloomFilter c = BloomFilter.open(other, OpenMode.READ_ONLY)) {
            assertEquals(a.stats(), b.stats());
            assertEquals(SetEstimates.of(a, c), SetEstimates.of(b, c));
            assertEquals(SetEstimates.of(c, a), SetEstimates.of(c, b));
            InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class, b::verify);
            assertEquals(Problem.CELLS_PADDING, e.problem());
        }
    }

    @Test
    void aGrowingFilesVerifyFindsPaddingInASegment() throws IOException {
        Path file = dir.resolve("growing.bloom");
        GrowingSpec spec = GrowingSpec.of(1000, 0.01);
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(file, spec)) {
            filter.add("alice");
            filter.verify();
        }
        // Segment 0 (13,541 cells: one 4 KiB page) is the version 1 file at 4096; its cells end at 12288.
        byte[] bytes = Files.readAllBytes(file);
        assertEquals("BLOOMSTR", new String(Arrays.copyOfRange(bytes, 4096, 4104), java.nio.charset.StandardCharsets.US_ASCII));
        try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
            raw.seek(4096 + 8192 - 1);
            raw.write(0x80);
        }
        try (GrowingBloomFilter filter = GrowingBloomFilter.open(file, OpenMode.READ_ONLY)) {
            InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class, filter::verify);
            assertEquals(Problem.CELLS_PADDING, e.problem());
            assertTrue(e.getMessage().contains("segment 0"), e.getMessage());
        }
    }
}
