package io.bloomstore.internal.format;

import static io.bloomstore.internal.format.FilterFileDescriptor.*;
import static org.junit.jupiter.api.Assertions.*;

import io.bloomstore.BloomFilter;
import io.bloomstore.CellsCheck;
import io.bloomstore.BloomSpec;
import io.bloomstore.FilterFileInfo;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.OpenMode;
import io.bloomstore.internal.files.FilterFiles;
import io.bloomstore.tools.FileForensics;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reader does what docs/FORMAT.md, "Values a reader must tolerate", says, row by row: each test
 * writes the value into a real, sealed file (re-signing the header where the value is under the CRC)
 * and opens, queries and verifies it.
 */
class ToleratedValuesTest {
    private static final BloomSpec SPEC = BloomSpec.builder().expectedKeys(1000).fpp(0.01).build();

    @TempDir
    Path dir;

    /** A sealed file holding "alice", of {@code header}'s version, with {@code edit} applied to its bytes. */
    private Path sealedFile(FilterHeader header, Consumer<ByteBuffer> edit) throws IOException {
        Path file = dir.resolve("f" + System.nanoTime() + ".bloom");
        FilterFiles.publishFilter(file, false, header, true, FilterFiles.emptyCells(header));
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_WRITE)) {
            filter.add("alice");
            filter.seal();
        }
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        edit.accept(bytes);
        Files.write(file, bytes.array());
        return file;
    }

    private Path sealedFile(Consumer<ByteBuffer> edit) throws IOException {
        return sealedFile(FilterHeader.newFile(SPEC, 1_700_000_000_000L, false), edit);
    }

    /** {@code edit} applied to the header, then the CRC32C recomputed: a well-formed header. */
    private static Consumer<ByteBuffer> resigned(Consumer<ByteBuffer> edit) {
        return bytes -> {
            byte[] forged = FilterFixtures.forgeHeader(Arrays.copyOf(bytes.array(), HEADER_LENGTH), b -> edit.accept(b));
            System.arraycopy(forged, 0, bytes.array(), 0, HEADER_LENGTH);
        };
    }

    private static void assertAnswersAndVerifies(Path file) throws IOException {
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertTrue(filter.mightContain("alice"));
            assertTrue((filter.verify() == CellsCheck.INTACT), "still sealed and intact");
        }
    }

    @Test
    void reservedHeaderBytesAreIgnoredUnderTheCrc() throws IOException {
        Path file = sealedFile(resigned(b -> {
            b.put(RESERVED_BYTE_OFFSET, (byte) 0x5a);
            for (int i = RESERVED_OFFSET; i < HEADER_CRC_OFFSET; i++) {
                b.put(i, (byte) i);
            }
        }));
        assertAnswersAndVerifies(file);
    }

    @Test
    void aVersion1FilesBytes80To87AndIdentityCopyAreReservedAndIgnored() throws IOException {
        Path file = sealedFile(FilterHeader.unbound(SPEC, 0, false), resigned(b -> b.putLong(FILE_IDENTITY_OFFSET, -1L))
                .andThen(b -> b.putLong(IDENTITY_COPY_OFFSET, 12345)));
        assertTrue(FileForensics.readInfo(file).fileIdentity().isEmpty());
        assertAnswersAndVerifies(file);
    }

    @Test
    void expectedKeysZeroAndANegativeZeroRateAreNotGiven() throws IOException {
        Path file = sealedFile(resigned(b -> {
            b.putLong(EXPECTED_KEYS_OFFSET, 0);
            b.putDouble(TARGET_FPP_OFFSET, -0.0);
        }));
        BloomSpec spec = FileForensics.readInfo(file).spec();
        assertEquals(0, spec.expectedKeys());
        assertEquals(0.0, spec.targetFpp());
        assertAnswersAndVerifies(file);
    }

    @Test
    void aRateOutsideZeroToOneIsABadField() throws IOException {
        Path file = sealedFile(resigned(b -> b.putDouble(TARGET_FPP_OFFSET, 1.5)));
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class, () -> FileForensics.readInfo(file));
        assertEquals(Problem.BAD_FIELD, e.problem());
    }

    @Test
    void aNegativeCreationTimeIsReportedAsItIs() throws IOException {
        Path file = sealedFile(resigned(b -> b.putLong(CREATED_MILLIS_OFFSET, -86_400_000L)));
        FilterFileInfo info = FileForensics.readInfo(file);
        assertEquals(Instant.parse("1969-12-31T00:00:00Z"), info.created());
        assertAnswersAndVerifies(file);
    }

    @Test
    void aSealStateOtherThanOneIsUnsealedAndOpeningForWritingStoresZero() throws IOException {
        Path file = sealedFile(b -> b.putInt(SEAL_STATE_OFFSET, 2));
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertTrue(filter.mightContain("alice"));
            assertFalse(filter.isSealed());
            assertFalse((filter.verify() == CellsCheck.INTACT), "no checksum to compare");
        }
        BloomFilter.open(file, OpenMode.READ_WRITE).close();
        assertEquals(UNSEALED, ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN).getInt(SEAL_STATE_OFFSET));
    }

    @Test
    void anIdentityCopyOtherThanTheHeadersOpensAndAnswersButFailsVerify() throws IOException {
        Path file = sealedFile(b -> b.putLong(IDENTITY_COPY_OFFSET, b.getLong(IDENTITY_COPY_OFFSET) ^ 1));
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertTrue(filter.mightContain("alice"));
            InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class, filter::verify);
            assertEquals(Problem.HEADER_MISMATCH, e.problem());
        }
    }

    @Test
    void reservedStateBytesAndTheRestOfTheHeaderPageAreIgnoredAndLeftAsTheyAre() throws IOException {
        Path file = sealedFile(b -> {
            for (int i = IDENTITY_COPY_OFFSET + 8; i < CELLS_START; i++) {
                b.put(i, (byte) (i * 7));
            }
        });
        byte[] before = Arrays.copyOfRange(Files.readAllBytes(file), IDENTITY_COPY_OFFSET + 8, CELLS_START);
        assertAnswersAndVerifies(file);
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_WRITE)) {
            filter.add("bob");
            filter.seal();
        }
        assertArrayEquals(before, Arrays.copyOfRange(Files.readAllBytes(file), IDENTITY_COPY_OFFSET + 8, CELLS_START));
        assertAnswersAndVerifies(file);
    }
}
