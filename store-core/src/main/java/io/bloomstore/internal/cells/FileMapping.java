package io.bloomstore.internal.cells;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.Buffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileChannel.MapMode;
import java.nio.file.Path;
import net.openhft.chronicle.core.OS;
import net.openhft.chronicle.core.UnsafeMemory;

/**
 * One contiguous mapping of a whole file, made on the very channel whose header was checked, and
 * exposed as a raw address for {@link CellArray} and the mutable header state.
 *
 * <p>Why the channel and not a path: the header is read and the length checked through one open
 * descriptor, and that same descriptor is mapped and later forced by {@link #sync()}. Mapping by
 * path (as Chronicle's {@code MappedBytes} does) would open the file a second time, and a file
 * renamed over the path in between — {@code create --force}, {@code unpack}, a merge over it — would
 * be mapped with the old header's shape, or grown to the old length (docs/RELIABILITY.md, finding 1).
 *
 * <p>Two ways to map, one mapping either way: files up to 2 GiB through the JDK's
 * {@link FileChannel#map}, larger ones through Chronicle's {@link OS#map}, which has no such limit.
 * The JDK's way costs nothing to start, while the first use of Chronicle's {@code OS} initialises
 * its {@code Jvm} class (MXBeans, exception handlers, SLF4J): ~45 ms, half of what a one-key CLI
 * query costs beyond the JVM's own start (docs/BENCHMARKS.md, "CLI start-up").
 *
 * <p>Raw addresses are safe only while the mapping lives: {@link #close()} unmaps at once, so the
 * owner must stop every use first (a test checks the unmapping against /proc/self/maps).
 */
public final class FileMapping implements AutoCloseable {
    /** The largest file mapped through the JDK: one {@code MappedByteBuffer}'s capacity. */
    static final long JDK_MAPPING_LIMIT = Integer.MAX_VALUE;
    private static final long BUFFER_ADDRESS_OFFSET = bufferAddressOffset();

    private final Path path;
    private final FileChannel channel;
    /** The JDK's mapping, held so it is not unmapped by the garbage collector; null when Chronicle's. */
    private final MappedByteBuffer buffer;
    private final long address;
    private final long length;
    private final boolean readOnly;
    private boolean closed;

    private FileMapping(Path path, FileChannel channel, MappedByteBuffer buffer, long address, long length,
            boolean readOnly) {
        this.path = path;
        this.channel = channel;
        this.buffer = buffer;
        this.address = address;
        this.length = length;
        this.readOnly = readOnly;
    }

    /**
     * Maps the first {@code length} bytes of an open file and takes ownership of its channel, which
     * {@link #close()} closes; on failure the channel is closed here.
     *
     * @param channel open for reading, and for writing unless {@code readOnly}; its size must be at
     *     least {@code length} (the header has been checked against it), as nothing here grows a file
     * @param path the file's name, for messages only
     */
    public static FileMapping map(Path path, FileChannel channel, long length, boolean readOnly) throws IOException {
        return map(path, channel, 0, length, readOnly);
    }

    /**
     * Maps {@code length} bytes of an open file from {@code offset} (a multiple of the page size),
     * as {@link #map(Path, FileChannel, long, boolean)} maps them from 0: one region of a file
     * that holds several, each mapped on its own so that growing the file leaves the existing
     * mappings valid. {@link #address()} is then that of byte {@code offset}.
     */
    public static FileMapping map(Path path, FileChannel channel, long offset, long length, boolean readOnly)
            throws IOException {
        MapMode mode = readOnly ? MapMode.READ_ONLY : MapMode.READ_WRITE;
        try {
            if (length <= JDK_MAPPING_LIMIT) {
                MappedByteBuffer buffer = channel.map(mode, offset, length);
                long address = UnsafeMemory.UNSAFE.getLong(buffer, BUFFER_ADDRESS_OFFSET);
                return new FileMapping(path, channel, buffer, address, length, readOnly);
            }
            return new FileMapping(path, channel, null, OS.map(channel, mode, offset, length), length, readOnly);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw new IOException(path + ": cannot map " + length + " bytes at " + offset + ": " + e.getMessage(), e);
        }
    }

    public Path path() {
        return path;
    }

    /** The address of byte 0 of the file. */
    public long address() {
        return address;
    }

    public long length() {
        return length;
    }

    public boolean readOnly() {
        return readOnly;
    }

    /**
     * Writes the mapped file's dirty pages to the device and waits for it: fsync on the mapped
     * descriptor, which on Linux writes back every page dirtied through any shared mapping of the
     * file, as msync(MS_SYNC) would, without a native posix binding (excluded, see the parent pom).
     * It forces this handle's file even after another file was renamed over its path.
     */
    public void sync() throws IOException {
        if (!readOnly) {
            channel.force(true);
        }
    }

    /** Unmaps the file and closes its channel. Any address obtained from this mapping is invalid afterwards. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try (channel) {
            if (buffer != null) {
                UnsafeMemory.UNSAFE.invokeCleaner(buffer); // unmaps now, not when the buffer is collected
            } else {
                OS.unmap(address, length);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(path + ": cannot unmap or close", e);
        }
    }

    /** Where a direct buffer keeps its address: public in no API, but a field of every JDK's {@link Buffer}. */
    private static long bufferAddressOffset() {
        try {
            return UnsafeMemory.UNSAFE.objectFieldOffset(Buffer.class.getDeclaredField("address"));
        } catch (NoSuchFieldException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
