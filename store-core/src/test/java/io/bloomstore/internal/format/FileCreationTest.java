package io.bloomstore.internal.format;

import io.bloomstore.InvalidFilterFileException;
import static io.bloomstore.internal.format.FilterFixtures.assertNoTemporaryFiles;
import static org.junit.jupiter.api.Assertions.*;

import io.bloomstore.OpenMode;
import io.bloomstore.BloomFilter;
import io.bloomstore.CreateOption;
import io.bloomstore.internal.files.FilterFiles;
import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.BloomSpec;
import io.bloomstore.tools.FileForensics;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Creation is atomic: a file appears whole or not at all, and an existing one is replaced only on request. */
class FileCreationTest {
    private static final byte[] PRECIOUS = "not a filter, and not to be lost".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    @Test
    void createdFileIsExactlyWhatTheFormatDescribes() throws Exception {
        Path file = dir.resolve("new.bloom");
        BloomSpec spec = FilterFixtures.SMALL;
        long before = System.currentTimeMillis();
        try (BloomFilter filter = BloomFilter.create(file, spec)) {
            assertEquals(spec, filter.spec());
        }
        byte[] bytes = Files.readAllBytes(file);
        assertEquals(FilterFileDescriptor.CELLS_START + spec.cellBytes(), bytes.length);
        FilterHeader header = FilterHeader.decode(file, bytes, bytes.length);
        assertFalse(header.sparse());
        assertTrue(header.createdMillis() >= before && header.createdMillis() <= System.currentTimeMillis());
        long identityCopy = java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                .getLong(FilterFileDescriptor.IDENTITY_COPY_OFFSET);
        assertEquals(header.identity(), identityCopy, "the state area holds the header's file identity");
        java.util.Arrays.fill(bytes, FilterFileDescriptor.IDENTITY_COPY_OFFSET, FilterFileDescriptor.IDENTITY_COPY_OFFSET + 8, (byte) 0);
        for (int i = FilterFileDescriptor.HEADER_LENGTH; i < bytes.length; i++) {
            assertEquals(0, bytes[i], "byte " + i + " of a new, closed filter is zero (state but the identity copy, and cells)");
        }
        assertNoTemporaryFiles(dir);
    }

    @Test
    void sparseCreationIsFlaggedInTheHeader() throws Exception {
        Path file = dir.resolve("sparse.bloom");
        BloomSpec spec = BloomSpec.builder().cells(1L << 30).hashes(3).build(); // 128 MiB, not written
        BloomFilter.create(file, spec, CreateOption.SPARSE).close();
        assertEquals(FilterFileDescriptor.CELLS_START + spec.cellBytes(), Files.size(file));
        assertTrue(FileForensics.readInfo(file).sparse());
        assertNoTemporaryFiles(dir);
    }

    @Test
    void existingFileIsRefusedAndLeftUntouched() throws Exception {
        Path file = Files.write(dir.resolve("taken.bloom"), PRECIOUS);
        FileAlreadyExistsException e = assertThrows(FileAlreadyExistsException.class,
                () -> BloomFilter.create(file, FilterFixtures.SMALL));
        assertTrue(e.getMessage().contains("taken.bloom"), e.getMessage());
        assertArrayEquals(PRECIOUS, Files.readAllBytes(file));
        assertNoTemporaryFiles(dir);
    }

    @Test
    void existingFileIsReplacedWhenAsked() throws Exception {
        Path file = Files.write(dir.resolve("taken.bloom"), PRECIOUS);
        BloomFilter.create(file, FilterFixtures.SMALL, CreateOption.REPLACE_EXISTING).close();
        assertEquals(FilterFixtures.SMALL, FileForensics.readInfo(file).spec());
        assertNoTemporaryFiles(dir);
    }

    /** Replacing is a rename: a handle on the old file keeps its filter, new opens see the new one. */
    @Test
    void replacingLeavesOpenHandlesOnTheOldFile() throws Exception {
        Path file = dir.resolve("live.bloom");
        try (BloomFilter old = BloomFilter.create(file, FilterFixtures.SMALL)) {
            old.add("kept by the old handle");
            BloomFilter.create(file, FilterFixtures.SMALL, CreateOption.REPLACE_EXISTING).close();
            assertTrue(old.mightContain("kept by the old handle"));
            try (BloomFilter fresh = BloomFilter.open(file, OpenMode.READ_ONLY)) {
                assertFalse(fresh.mightContain("kept by the old handle"));
            }
        }
    }

    /** A content writer that fails half-way, with and without a file already at the target. */
    @ParameterizedTest(name = "replace={0}")
    @ValueSource(booleans = {false, true})
    void failedPublishLeavesNothingBehind(boolean replace) throws Exception {
        Path fresh = dir.resolve("fresh.bloom");
        Path existing = Files.write(dir.resolve("existing.bloom"), PRECIOUS);
        FilterFiles.Content failing = (channel, temporary) -> {
            FilterFiles.writeFully(channel, ByteBuffer.wrap(new byte[1000]));
            throw new IOException("disk on fire");
        };
        assertThrows(IOException.class, () -> FilterFiles.publish(fresh, replace, 0, failing));
        assertFalse(Files.exists(fresh));
        if (replace) {
            assertThrows(IOException.class, () -> FilterFiles.publish(existing, true, 0, failing));
        }
        assertArrayEquals(PRECIOUS, Files.readAllBytes(existing));
        assertNoTemporaryFiles(dir);
    }

    @Test
    void openOrCreateCreatesThenReopens() throws Exception {
        Path file = dir.resolve("dedup.bloom");
        try (BloomFilter filter = BloomFilter.openOrCreate(file, FilterFixtures.SMALL)) {
            assertTrue(filter.add("order-42"));
        }
        // n and p do not decide where keys go, so a spec differing only in them is compatible.
        BloomSpec sameShape = FilterFixtures.SMALL.toBuilder().expectedKeys(123).fpp(0.2).build();
        try (BloomFilter filter = BloomFilter.openOrCreate(file, sameShape)) {
            assertFalse(filter.add("order-42"), "the key survived the restart");
            assertEquals(FilterFixtures.SMALL, filter.spec(), "the file's own spec, not the caller's");
        }
        assertNoTemporaryFiles(dir);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.bloomstore.internal.format.FilterFixtures#shapesDifferingInOneField")
    void openOrCreateRefusesAnotherShapeNamingTheField(String field, BloomSpec existing, BloomSpec wanted) throws Exception {
        Path file = dir.resolve("shaped.bloom");
        BloomFilter.create(file, existing).close();
        byte[] before = Files.readAllBytes(file);
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class,
                () -> BloomFilter.openOrCreate(file, wanted));
        assertEquals(Problem.INCOMPATIBLE, e.problem());
        assertTrue(e.getMessage().contains(field), "names " + field + ": " + e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(file), "the existing filter is left as it was");
        assertNoTemporaryFiles(dir);
    }

    /** The refused openOrCreate still counted as a writer while it looked; it must not stay counted. */
    @Test
    void refusedOpenOrCreateLeavesNoWriterCounted() throws Exception {
        Path file = dir.resolve("shaped.bloom");
        BloomFilter.create(file, FilterFixtures.SMALL).close();
        assertThrows(InvalidFilterFileException.class,
                () -> BloomFilter.openOrCreate(file, FilterFixtures.SMALL.toBuilder().seed(1).build()));
        ByteBuffer state = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0, state.getInt(FilterFileDescriptor.OPEN_WRITERS_OFFSET));
    }
}
