package io.bloomstore.cells;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.MappedBytes;
import net.openhft.chronicle.bytes.MappedBytesStore;
import net.openhft.chronicle.core.io.BackgroundResourceReleaser;
import net.openhft.posix.MSyncFlag;
import net.openhft.posix.PosixAPI;

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
     * Writes the mapping's dirty pages to the device and waits for it (msync MS_SYNC).
     *
     * @throws UncheckedIOException if msync fails (e.g. an I/O error on the device)
     */
    public void sync() {
        if (!readOnly) {
            // Not store.syncUpTo(length, SYNC): Chronicle remembers how far it has synced and skips
            // everything below that mark, which suits an append-only queue but made every sync after
            // the first a no-op here, where updates land anywhere in the file. It also only logs a
            // failed msync; a caller of sync must learn that its data is not durable.
            PosixAPI posix = PosixAPI.posix();
            if (posix.msync(address, length, MSyncFlag.MS_SYNC) != 0) {
                throw new UncheckedIOException(new IOException(path + ": msync failed: " + posix.lastErrorStr()));
            }
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
