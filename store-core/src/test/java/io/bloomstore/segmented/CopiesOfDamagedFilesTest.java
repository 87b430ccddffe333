package io.bloomstore.segmented;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.bloomstore.BloomSpec;
import io.bloomstore.Checkpoint;
import io.bloomstore.GrowingBloomFilter;
import io.bloomstore.GrowingSpec;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.OpenMode;
import io.bloomstore.Pack;
import io.bloomstore.WindowSpec;
import io.bloomstore.WindowedBloomFilter;
import io.bloomstore.internal.format.FilterHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pack and checkpoint refuse a damaged growing or windowed file as opening it and {@code verify}
 * refuse it, with the same problem, before anything is written: no pack, no new copy, an existing
 * copy left as it was.
 */
class CopiesOfDamagedFilesTest {
    private static final long T0 = 1_700_000_000_000L;

    @TempDir
    Path dir;

    /** A growing file of three segments or more, and its checkpoint taken while it was intact. */
    private byte[] growing() throws IOException {
        Path file = dir.resolve("live.bloom");
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(file, GrowingSpec.of(1_000, 0.01))) {
            for (long key = 0; key < 5_000; key++) {
                filter.add(key);
            }
        }
        Checkpoint.write(file, dir.resolve("copy.bloom"));
        return Files.readAllBytes(file);
    }

    @Test
    void aSegmentWhoseHeaderIsDamagedIsNeitherPackedNorCheckpointed() throws IOException {
        byte[] file = growing();
        file[(int) regionOffset(file, 1) + 20] ^= 1; // a field under the segment's own CRC
        assertCopiesRefused(file, Problem.HEADER_CHECKSUM);
    }

    @Test
    void aSegmentOfAnotherShapeThanTheSizingGivesIsNeitherPackedNorCheckpointed() throws IOException {
        byte[] file = growing();
        int offset = (int) regionOffset(file, 1);
        BloomSpec actual = FilterHeader.decodeRegion(Path.of("x"), java.util.Arrays.copyOfRange(file, offset, offset + 128),
                regionLength(file, 1)).spec();
        BloomSpec other = BloomSpec.builder().cells(actual.cells()).hashes(actual.hashes() + 1).seed(actual.seed())
                .layout(actual.layout()).build(); // valid on its own, with its own CRC: only verify's sizing check finds it
        byte[] header = FilterHeader.unbound(other, 0, false).newFilePage().array();
        System.arraycopy(header, 0, file, offset, 128);
        assertCopiesRefused(file, Problem.BAD_FIELD);
    }

    @Test
    void aSegmentWithAPaddingBitSetIsNeitherPackedNorCheckpointed() throws IOException {
        byte[] file = growing();
        file[(int) (regionOffset(file, 0) + regionLength(file, 0)) - 1] = (byte) 0x80; // the last bit of segment 0's cells
        assertCopiesRefused(file, Problem.CELLS_PADDING);
    }

    @Test
    void aWindowedSlotWithAPaddingBitSetIsNeitherPackedNorCheckpointed() throws IOException {
        Path file = dir.resolve("live.bloom");
        WindowSpec spec = WindowSpec.of(8_000, 0.01, Duration.ofSeconds(4)).withEpochs(4);
        WindowedBloomFilter.create(file, spec, java.time.Clock.fixed(java.time.Instant.ofEpochMilli(T0),
                java.time.ZoneOffset.UTC)).close();
        Checkpoint.write(file, dir.resolve("copy.bloom"));
        byte[] bytes = Files.readAllBytes(file);
        bytes[(int) (regionOffset(bytes, 2) + regionLength(bytes, 2)) - 1] = (byte) 0x80;
        assertCopiesRefused(bytes, Problem.CELLS_PADDING);
    }

    /** With {@code damaged} as the live file: verify's problem, then pack and checkpoint refuse with it, writing nothing. */
    private void assertCopiesRefused(byte[] damaged, Problem problem) throws IOException {
        Path live = dir.resolve("live.bloom");
        Path copy = dir.resolve("copy.bloom");
        Files.write(live, damaged);
        byte[] copyBefore = Files.readAllBytes(copy);
        InvalidFilterFileException verify = assertThrows(InvalidFilterFileException.class, () -> verify(live));
        assertEquals(problem, verify.problem(), verify.getMessage());

        InvalidFilterFileException pack = assertThrows(InvalidFilterFileException.class,
                () -> Pack.packTo(live, dir.resolve("live.pack")));
        assertEquals(verify.getMessage(), pack.getMessage(), "the same check, the same words");
        InvalidFilterFileException update = assertThrows(InvalidFilterFileException.class,
                () -> Checkpoint.write(live, copy));
        assertEquals(verify.getMessage(), update.getMessage());
        assertArrayEquals(copyBefore, Files.readAllBytes(copy), "the copy was left as it was");
        assertThrows(InvalidFilterFileException.class, () -> Checkpoint.write(live, dir.resolve("new.bloom")));
        try (var files = Files.list(dir)) {
            assertEquals(List.of("copy.bloom", "live.bloom"), files.map(p -> p.getFileName().toString()).sorted().toList(),
                    "no pack, no new copy, no temporary");
        }
        assertFalse(Files.exists(dir.resolve("live.pack")));
    }

    private static void verify(Path file) throws IOException {
        if (Files.readAllBytes(file)[15] == 1) {
            try (GrowingBloomFilter filter = GrowingBloomFilter.open(file, OpenMode.READ_ONLY)) {
                filter.verify();
            }
        } else {
            try (WindowedBloomFilter filter = WindowedBloomFilter.open(file, OpenMode.READ_ONLY, java.time.Clock.systemUTC())) {
                filter.verify();
            }
        }
    }

    private static long regionOffset(byte[] file, int region) {
        return ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).getLong(256 + 32 * region);
    }

    private static long regionLength(byte[] file, int region) {
        return ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).getLong(256 + 32 * region + 8);
    }
}
