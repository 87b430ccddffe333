package io.bloomstore.internal.cells;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.testing.ProcSelf;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Both ways {@link FileMapping} maps a file — the JDK's up to 2 GiB, Chronicle's beyond — give
 * one mapping of every byte, shared with the file, and unmap on close. The lengths straddle the
 * limit; the files are sparse, so the largest costs a few pages of disk.
 */
class FileMappingTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(longs = {4096, FileMapping.JDK_MAPPING_LIMIT, FileMapping.JDK_MAPPING_LIMIT + 1,
            (1L << 32) + 4096})
    void mapsEveryByteOfTheFileAndUnmapsOnClose(long length) throws IOException {
        Path file = dir.resolve("cells");
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(length);
        }
        long[] offsets = {0, length / 2, length - 1};
        try (FileMapping mapping = FileMapping.map(file, open(file, true), length, false)) {
            assertFalse(ProcSelf.mappingsOf(file).isEmpty(), "mapped");
            for (long offset : offsets) {
                mapping.store().writeByte(offset, (byte) (offset % 251 + 1));
            }
        }
        assertEquals(List.of(), ProcSelf.mappingsOf(file), "close must unmap the file");

        try (FileChannel channel = open(file, false)) {
            for (long offset : offsets) {
                ByteBuffer one = ByteBuffer.allocate(1);
                channel.read(one, offset);
                assertEquals((byte) (offset % 251 + 1), one.get(0), "byte " + offset + " written through the mapping");
            }
        }
        try (FileMapping mapping = FileMapping.map(file, open(file, false), length, true)) {
            for (long offset : offsets) {
                assertEquals((byte) (offset % 251 + 1), mapping.store().readByte(offset),
                        "byte " + offset + " read through a read-only mapping");
            }
        }
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(longs = {4096, (1L << 32) + 4096})
    void aFailedMappingClosesTheChannelAndNamesTheFile(long length) throws IOException {
        Path file = dir.resolve("short");
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(16);
        }
        FileChannel readOnlyChannel = open(file, false);
        IOException e = assertThrows(IOException.class,
                () -> FileMapping.map(file, readOnlyChannel, length, false), "a writable mapping of a read-only channel");
        assertFalse(readOnlyChannel.isOpen(), "the channel is closed on failure");
        assertTrue(e.getMessage().startsWith(file + ": cannot map " + length + " bytes"), e.getMessage());
    }

    /**
     * A region that starts off a page boundary maps exactly its bytes: byte 0 of the store is byte
     * {@code offset} of the file, on both ways of mapping (the larger region is beyond 2 GiB).
     */
    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(longs = {4096, FileMapping.JDK_MAPPING_LIMIT + 1})
    void mapsARegionThatStartsOffAPageBoundary(long length) throws IOException {
        Path file = dir.resolve("segments");
        long offset = 3 * 4096 + 24;
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(offset + length);
            raf.seek(offset - 1);
            raf.write(new byte[] {11, 22});
            raf.seek(offset + length - 1);
            raf.write(33);
        }
        try (FileMapping mapping = FileMapping.map(file, open(file, true), offset, length, false)) {
            assertEquals(length, mapping.length());
            assertEquals(22, mapping.store().readByte(0), "byte 0 of the region is byte " + offset + " of the file");
            assertEquals(33, mapping.store().readByte(length - 1), "the region's last byte");
            mapping.store().writeByte(1, (byte) 44);
        }
        assertEquals(List.of(), ProcSelf.mappingsOf(file), "close must unmap the file");
        try (FileChannel channel = open(file, false)) {
            ByteBuffer two = ByteBuffer.allocate(2);
            channel.read(two, offset);
            assertEquals(44, two.get(1), "written through the region's mapping");
        }
    }

    private static FileChannel open(Path file, boolean writable) throws IOException {
        return writable
                ? FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)
                : FileChannel.open(file, StandardOpenOption.READ);
    }
}
