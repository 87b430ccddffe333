package io.bloomstore.internal.format;

import io.bloomstore.CellsCheck;
import io.bloomstore.InvalidFilterFileException;
import static io.bloomstore.internal.format.FilterFileDescriptor.*;
import static org.junit.jupiter.api.Assertions.*;

import io.bloomstore.OpenMode;
import io.bloomstore.BloomFilter;
import io.bloomstore.InvalidFilterFileException.Problem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import net.openhft.hashing.LongHashFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The mutable state area, read from the file's bytes as another program would read it (FORMAT.md). */
class FilterStateTest {
    @TempDir
    Path dir;

    private Path file;

    private Path newFilter() throws IOException {
        file = dir.resolve("state.bloom");
        BloomFilter.create(file, FilterFixtures.SMALL).close();
        return file;
    }

    /** The file as a little-endian buffer: through the page cache, so it shows what mappings wrote. */
    private ByteBuffer fileBytes() throws IOException {
        return ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Test
    void openWritersCountsReadWriteHandlesOnly() throws Exception {
        newFilter();
        try (BloomFilter first = BloomFilter.open(file, OpenMode.READ_WRITE);
                BloomFilter reader = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertEquals(1, fileBytes().getInt(OPEN_WRITERS_OFFSET));
            try (BloomFilter second = BloomFilter.open(file, OpenMode.READ_WRITE)) {
                assertEquals(2, fileBytes().getInt(OPEN_WRITERS_OFFSET));
                assertEquals(2, reader.shape().openWriters());
            }
            assertEquals(1, first.shape().openWriters());
        }
        assertEquals(0, fileBytes().getInt(OPEN_WRITERS_OFFSET));
    }

    /**
     * The insertion count saturates at 2^63 - 1 instead of wrapping to a large negative number; a
     * stored value past it (bloomstore never writes one) is read as 2^63 - 1.
     */
    @Test
    void approximateInsertionsSaturate() throws Exception {
        newFilter();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, Long.MAX_VALUE - 3),
                    APPROXIMATE_INSERTIONS_OFFSET);
        }
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_WRITE)) {
            for (long key = 0; key < 10; key++) {
                filter.add(key);
            }
            assertEquals(Long.MAX_VALUE, filter.approximateKeys());
        }
        assertEquals(Long.MAX_VALUE, fileBytes().getLong(APPROXIMATE_INSERTIONS_OFFSET));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, -5), APPROXIMATE_INSERTIONS_OFFSET);
        }
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_WRITE)) {
            assertEquals(Long.MAX_VALUE, filter.approximateKeys());
            filter.add(1000L);
        }
        assertEquals(-5, fileBytes().getLong(APPROXIMATE_INSERTIONS_OFFSET), "left as it is");
    }

    @Test
    void approximateInsertionsArePublishedOnSyncAndClose() throws Exception {
        newFilter();
        int added = 0;
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_WRITE)) {
            for (long key = 0; key < 50; key++) {
                added += filter.add(key) ? 1 : 0;
            }
            filter.add(0L); // not new: not counted
            assertEquals(0, fileBytes().getLong(APPROXIMATE_INSERTIONS_OFFSET), "counted per handle until published");
            filter.sync();
            assertEquals(added, fileBytes().getLong(APPROXIMATE_INSERTIONS_OFFSET));
            added += filter.add("one more") ? 1 : 0;
        }
        assertEquals(added, fileBytes().getLong(APPROXIMATE_INSERTIONS_OFFSET));
        assertTrue(added > 40, "most of 50 keys are new to a 1000-cell filter: " + added);
    }

    @Test
    void sealRecordsTheChecksumOfTheCellBytesThenTheSealedState() throws Exception {
        newFilter();
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_WRITE)) {
            filter.add("sealed in");
            filter.seal();
            assertTrue(filter.isSealed());
            assertEquals(CellsCheck.INTACT, filter.verify());
        }
        ByteBuffer bytes = fileBytes();
        assertEquals(SEALED, bytes.getInt(SEAL_STATE_OFFSET));
        long identity = bytes.getLong(FILE_IDENTITY_OFFSET);
        assertNotEquals(0, identity);
        assertEquals(identity, bytes.getLong(IDENTITY_COPY_OFFSET), "the state area holds the header's identity");
        long cellsChecksum = LongHashFunction.xx3(identity).hashBytes(bytes.array(), CELLS_START, bytes.capacity() - CELLS_START);
        assertEquals(cellsChecksum, bytes.getLong(CELLS_CHECKSUM_OFFSET), "XXH3-64, seeded with the file identity, of every cell byte");

        try (BloomFilter reader = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertTrue(reader.isSealed(), "reading does not unseal");
            assertEquals(CellsCheck.INTACT, reader.verify());
        }
        BloomFilter.open(file, OpenMode.READ_WRITE).close();
        assertEquals(UNSEALED, fileBytes().getInt(SEAL_STATE_OFFSET), "opening for writing unseals, even without a change");
    }

    @Test
    void damagedCellsOfASealedFilterFailVerification() throws Exception {
        newFilter();
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_WRITE)) {
            filter.seal();
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[] {1}), CELLS_START + 77); // a bit rot in the cells
        }
        try (BloomFilter reader = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class, reader::verify);
            assertEquals(Problem.CELLS_CHECKSUM, e.problem());
            assertTrue(e.getMessage().contains("cells are damaged"), e.getMessage());
        }
    }

    @Test
    void unsealedFilterHasNothingToVerify() throws Exception {
        newFilter();
        try (BloomFilter reader = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertFalse(reader.isSealed());
            assertEquals(CellsCheck.NOT_SEALED, reader.verify(), "not sealed: no checksum to verify");
        }
    }
}
