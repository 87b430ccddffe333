package io.bloomstore;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.tools.FileForensics;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the public API tells about a file: the header as stored, the sealed checksum, and packing to a path. */
class FilterFileInfoTest {
    private static final BloomSpec SPEC = BloomSpec.builder().expectedKeys(10_000).fpp(0.01).counterBits(4).build();

    @TempDir
    Path dir;

    private static ByteBuffer fileBytes(Path file) throws IOException {
        return ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Test
    void theInfoIsWhatTheFileHoldsWhetherReadOrOpen() throws IOException {
        Path file = dir.resolve("f.bloom");
        Instant before = Instant.ofEpochMilli(System.currentTimeMillis());
        BloomFilter.create(file, SPEC, CreateOption.SPARSE).close();
        ByteBuffer bytes = fileBytes(file);
        FilterFileInfo info = FileForensics.readInfo(file);
        assertEquals(new FilterFileInfo(bytes.getShort(FilterFileDescriptor.VERSION_OFFSET),
                bytes.getShort(FilterFileDescriptor.HEADER_LENGTH_OFFSET), bytes.getInt(FilterFileDescriptor.HEADER_CRC_OFFSET),
                Instant.ofEpochMilli(bytes.getLong(FilterFileDescriptor.CREATED_MILLIS_OFFSET)), true,
                bytes.getLong(FilterFileDescriptor.CELLS_START_OFFSET), bytes.getLong(FilterFileDescriptor.CELLS_LENGTH_OFFSET),
                Files.size(file), SPEC, OptionalLong.of(bytes.getLong(FilterFileDescriptor.FILE_IDENTITY_OFFSET))), info);
        assertFalse(info.created().isBefore(before));
        assertEquals(FilterFileInfo.SUPPORTED_FORMAT_VERSION, info.formatVersion());
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertEquals(info, filter.info());
        }
    }

    @Test
    void theCrcIsTheStoredOneEvenWhenReservedBytesAreNotZero() throws IOException {
        Path file = dir.resolve("f.bloom");
        BloomFilter.create(file, SPEC).close();
        // A version 1 reader does not check reserved bytes; a header that sets one (and its CRC) still opens.
        byte[] header = new byte[FilterFileDescriptor.HEADER_LENGTH];
        try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
            raw.readFully(header);
            header[FilterFileDescriptor.RESERVED_OFFSET] = 42;
            CRC32C crc = new CRC32C();
            crc.update(header, 0, FilterFileDescriptor.HEADER_CRC_OFFSET);
            ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).putInt(FilterFileDescriptor.HEADER_CRC_OFFSET, (int) crc.getValue());
            raw.seek(0);
            raw.write(header);
        }
        assertEquals(fileBytes(file).getInt(FilterFileDescriptor.HEADER_CRC_OFFSET), FileForensics.readInfo(file).headerCrc32c());
    }

    @Test
    void theSealedChecksumIsTheOneInTheStateAreaOnlyWhileSealed() throws IOException {
        Path file = dir.resolve("f.bloom");
        try (BloomFilter filter = BloomFilter.create(file, SPEC)) {
            filter.add("alice");
            assertEquals(OptionalLong.empty(), filter.sealedChecksum());
            filter.seal();
            assertEquals(OptionalLong.of(fileBytes(file).getLong(FilterFileDescriptor.CELLS_CHECKSUM_OFFSET)),
                    filter.sealedChecksum());
        }
        try (BloomFilter reopened = BloomFilter.open(file, OpenMode.READ_WRITE)) {
            assertEquals(OptionalLong.empty(), reopened.sealedChecksum(), "opening for writing unseals");
        }
    }

    @Test
    void packToAPathPublishesAWholePackThatUnpacksToTheSameFile() throws IOException {
        Path file = dir.resolve("f.bloom");
        try (BloomFilter filter = BloomFilter.create(file, SPEC)) {
            filter.add("alice");
        }
        Path pack = dir.resolve("f.pack");
        assertEquals(Files.size(file), Pack.packTo(file, pack));
        assertThrows(FileAlreadyExistsException.class, () -> Pack.packTo(file, pack));
        Pack.packTo(file, pack, CreateOption.REPLACE_EXISTING);
        Path restored = dir.resolve("restored.bloom");
        try (InputStream in = Files.newInputStream(pack)) {
            assertEquals(FileForensics.readInfo(file), Pack.unpack(in, pack.toString(), restored).info().orElseThrow());
        }
        assertArrayEquals(Files.readAllBytes(file), Files.readAllBytes(restored));
    }
}
