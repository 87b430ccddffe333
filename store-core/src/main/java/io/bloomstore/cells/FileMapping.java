package io.bloomstore.cells;

import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.MappedBytes;
import net.openhft.chronicle.bytes.MappedBytesStore;
import net.openhft.chronicle.bytes.SyncMode;
import net.openhft.chronicle.core.io.BackgroundResourceReleaser;

/**
 * One contiguous mapping of a whole file (also beyond 2 GiB), through Chronicle Bytes, exposed as a
 * raw address for {@link CellArray} and the mutable header state.
 *
 * <p>Raw addresses are safe only while the mapping lives: {@link #close()} unmaps at once, so the
 * owner must stop every use first. Chronicle keeps a single mapping alive after the
 * {@code MappedBytes} is released unless its store is released too; {@code close} does both, which
 * a test checks against /proc/self/maps.
 */
public final class FileMapping implements AutoCloseable {
    private final Path path;
    private final MappedBytes bytes;
    private final MappedBytesStore store;
    private final long address;
    private final long length;
    private final boolean readOnly;
    private boolean closed;

    private FileMapping(Path path, MappedBytes bytes, long length, boolean readOnly) {
        this.path = path;
        this.bytes = bytes;
        this.store = (MappedBytesStore) bytes.bytesStore();
        this.address = store.addressForRead(0);
        this.length = length;
        this.readOnly = readOnly;
    }

    /**
     * Maps {@code length} bytes of {@code path} from offset 0.
     *
     * @param length the file's exact length (the header has been checked against it)
     */
    public static FileMapping map(Path path, long length, boolean readOnly) throws IOException {
        File file = path.toFile();
        MappedBytes bytes;
        try {
            bytes = MappedBytes.singleMappedBytes(file, length, readOnly);
        } catch (RuntimeException e) {
            throw new IOException(path + ": cannot map " + length + " bytes: " + e.getMessage(), e);
        }
        // The store is used from many threads through its address; Chronicle's per-thread check does not apply.
        bytes.singleThreadedCheckDisabled(true);
        // No msync when the mapping is released: it would need the posix binding, and durability is sync()'s job.
        ((MappedBytesStore) bytes.bytesStore()).syncMode(SyncMode.NONE);
        return new FileMapping(path, bytes, length, readOnly);
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
     * Writes the file's dirty pages to the device and waits for it. This is fsync on the file: on
     * Linux it writes back every page of the file dirtied through any shared mapping, as
     * msync(MS_SYNC) would, without Chronicle's JNR-based posix binding (excluded, see the parent
     * pom). Chronicle's own MappedBytesStore.syncUpTo would not do: it only syncs past the highest
     * position synced before, which suits appending, not cells updated anywhere.
     */
    public void sync() throws IOException {
        if (readOnly) {
            return;
        }
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
    }

    /** Unmaps the file. Any address obtained from this mapping is invalid afterwards. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        bytes.releaseLast();
        BytesStore<?, ?> s = store;
        if (s.refCount() > 0) {
            s.releaseLast();
        }
        // Chronicle hands the release of a mapped store to its background releaser thread, so the
        // munmap would happen some time after close returned; do the pending releases here and wait
        // for them, so that close really unmaps (checked against /proc/self/maps by the tests).
        BackgroundResourceReleaser.releasePendingResources();
    }
}
