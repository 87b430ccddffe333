package io.bloomstore.internal.cells;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileChannel.MapMode;
import java.nio.file.Path;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.core.OS;
import net.openhft.chronicle.core.cleaner.CleanerServiceLocator;

/**
 * One contiguous mapping of a region of a file, made on the very channel whose header was checked,
 * and seen through a Chronicle Bytes {@link BytesStore} (offset 0 is the region's first byte) by
 * {@link CellArray} and the mutable header state.
 *
 * <p>Why the channel and not a path: the header is read and the length checked through one open
 * descriptor, and that same descriptor is mapped and later forced by {@link #sync()}. Mapping by
 * path (as Chronicle's {@code MappedBytes} does) would open the file a second time, and a file
 * renamed over the path in between — {@code create --force}, {@code unpack}, a merge over it — would
 * be mapped with the old header's shape, or grown to the old length (docs/RELIABILITY.md, finding 1).
 *
 * <p>Two ways to map, one mapping either way: regions up to 2 GiB through the JDK's
 * {@link FileChannel#map}, seen through {@link BytesStore#follow}; larger ones through Chronicle's
 * {@link OS#map}, which has no such limit, seen through a {@code PointerBytesStore}
 * ({@link BytesStore#wrap(long, long)}). The JDK's way does not start Chronicle's {@code OS} class,
 * which a one-key CLI query would pay for (docs/BENCHMARKS.md, "CLI start-up"). Neither store owns
 * the mapping: Chronicle would release a followed buffer's store on a background thread, and not
 * unmap a pointer's at all, while {@link #close()} must unmap at once (a test checks it against
 * /proc/self/maps).
 */
public final class FileMapping implements FilterMemory {
    /** The largest region mapped through the JDK: one {@code MappedByteBuffer}'s capacity. */
    static final long JDK_MAPPING_LIMIT = Integer.MAX_VALUE;

    private final Path path;
    private final FileChannel channel;
    /** The JDK's mapping, held so it is not unmapped by the garbage collector; null when Chronicle's. */
    private final MappedByteBuffer buffer;
    /** Chronicle's mapping: its page-aligned address and length, for unmapping; 0 when the JDK's. */
    private final long chronicleAddress;
    private final long chronicleLength;
    private final BytesStore<?, ?> store;
    private final boolean readOnly;
    private boolean closed;

    private FileMapping(Path path, FileChannel channel, MappedByteBuffer buffer, long chronicleAddress,
            long chronicleLength, BytesStore<?, ?> store, boolean readOnly) {
        this.path = path;
        this.channel = channel;
        this.buffer = buffer;
        this.chronicleAddress = chronicleAddress;
        this.chronicleLength = chronicleLength;
        this.store = store;
        this.readOnly = readOnly;
    }

    /**
     * Starts, on a daemon thread, what the first mapping would otherwise pay for in the caller's
     * thread: the first Chronicle Bytes store initialises Chronicle's runtime (its {@code Jvm}
     * class: MXBeans, service lookups, a cleaner lookup; docs/BENCHMARKS.md, "CLI start-up"). A
     * failure is ignored here: it recurs, and is reported, at the first real mapping.
     */
    public static void initializeInBackground() {
        Thread start = new Thread(() -> {
            try {
                BytesStore.follow(ByteBuffer.allocateDirect(Long.BYTES)).releaseLast();
            } catch (Throwable e) {
                // only a head start
            }
        }, "bloomstore-memory-start");
        start.setDaemon(true);
        start.start();
    }

    /**
     * Maps the first {@code length} bytes of an open file; see
     * {@link #map(Path, FileChannel, long, long, boolean)}.
     */
    public static FileMapping map(Path path, FileChannel channel, long length, boolean readOnly) throws IOException {
        return map(path, channel, 0, length, readOnly);
    }

    /**
     * Maps bytes {@code [offset, offset + length)} of an open file and takes ownership of its
     * channel, which {@link #close()} closes; on failure the channel is closed here.
     *
     * @param channel open for reading, and for writing unless {@code readOnly}; its size must be at
     *     least {@code offset + length} (the header has been checked against it), as nothing here
     *     grows a file
     * @param offset where the region starts in the file; any offset, not only a page boundary
     * @param path the file's name, for messages only
     * @throws IllegalStateException if the JVM lacks a flag this mapping needs ({@link MappingFlags})
     */
    public static FileMapping map(Path path, FileChannel channel, long offset, long length, boolean readOnly)
            throws IOException {
        MapMode mode = readOnly ? MapMode.READ_ONLY : MapMode.READ_WRITE;
        try {
            MappingFlags.require(path, length);
        } catch (IllegalStateException missingFlags) {
            channel.close();
            throw missingFlags;
        }
        try {
            if (offset < 0 || length <= 0) {
                throw new IllegalArgumentException("offset " + offset + " and length " + length
                        + " do not describe a region (offset >= 0, length > 0)");
            }
            if (length <= JDK_MAPPING_LIMIT) {
                MappedByteBuffer buffer = channel.map(mode, offset, length);
                return new FileMapping(path, channel, buffer, 0, 0, BytesStore.follow(buffer), readOnly);
            }
            // mmap takes a page-aligned offset: map from the page that holds the region's first byte.
            long lead = offset % OS.mapAlignment();
            long address = OS.map(channel, mode, offset - lead, lead + length);
            BytesStore<?, ?> store = BytesStore.wrap(address + lead, length);
            return new FileMapping(path, channel, null, address, lead + length, store, readOnly);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw new IOException(path + ": cannot map " + length + " bytes at " + offset + ": " + e.getMessage(), e);
        }
    }

    public Path path() {
        return path;
    }

    /** The mapped region, byte 0 its first byte; valid until {@link #close()}. */
    @Override
    public BytesStore<?, ?> store() {
        return store;
    }

    public long length() {
        return store.capacity();
    }

    @Override
    public boolean readOnly() {
        return readOnly;
    }

    /**
     * Writes the mapped file's dirty pages to the device and waits for it: fsync on the mapped
     * descriptor, which on Linux writes back every page dirtied through any shared mapping of the
     * file, as msync(MS_SYNC) would, without a native posix binding (excluded, see the parent pom).
     * It forces this handle's file even after another file was renamed over its path.
     */
    @Override
    public void sync() throws IOException {
        if (!readOnly) {
            channel.force(true);
        }
    }

    /**
     * Unmaps the file and closes its channel. The store is released first, so a use after close
     * fails with an exception instead of touching unmapped memory, as far as Chronicle checks it.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try (channel) {
            store.releaseLast();
            if (buffer != null) {
                CleanerServiceLocator.cleanerService().clean(buffer); // unmaps now, not when the buffer is collected
            } else {
                OS.unmap(chronicleAddress, chronicleLength);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(path + ": cannot unmap or close", e);
        }
    }
}
