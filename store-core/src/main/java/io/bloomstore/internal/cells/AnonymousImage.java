package io.bloomstore.internal.cells;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.OptionalLong;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.core.UnsafeMemory;

/**
 * A whole filter file's bytes in anonymous memory, which reach the file only at {@link #sync()}: in
 * one pass, in file order. For a file that one builder owns until it publishes it (a build's private
 * temporary); no other handle or process sees the image.
 *
 * <p>Why not the file's mapping: random adds dirty pages all over a mapped file, and the kernel
 * writes dirty pages back as they age (30 s by default), as dirty memory passes its thresholds, and
 * whenever reclaim takes a page, only for the next add to dirty it again. A build of 50 M keys into a
 * 1 GiB mapped file had the kernel write about 20 times the file for it under proactive reclaim
 * (docs/BENCHMARKS.md, "Large filters on disk"). Anonymous memory is written by no one until the
 * image is synced, then once, sequentially; without swap it is never paged out.
 *
 * <p>The cost: the file's length in resident memory, which the kernel cannot drop and reread as it
 * can a mapping's clean pages; a builder uses an image only when it {@link #fitsInMemory fits}.
 *
 * <p>The memory comes from Chronicle's {@link UnsafeMemory}, zeroed, and is seen through a Chronicle
 * {@link BytesStore} over its address, as a file mapping larger than 2 GiB is ({@link FileMapping}).
 */
public final class AnonymousImage implements FilterMemory {
    private static final UnsafeMemory MEMORY = UnsafeMemory.MEMORY;
    /** Bytes written per call: large enough for the device, small enough for any direct-memory limit. */
    private static final int CHUNK = 1 << 20;
    /** The granularity of a sparse file's holes. */
    private static final int PAGE = 4096;
    private static final Path MEMINFO = Path.of("/proc/meminfo");

    private final Path file;
    private final long address;
    private final long length;
    private final boolean sparse;
    private final BytesStore<?, ?> store;
    private boolean closed;

    private AnonymousImage(Path file, long address, long length, boolean sparse) {
        this.file = file;
        this.address = address;
        this.length = length;
        this.sparse = sparse;
        this.store = BytesStore.wrap(address, length);
    }

    /**
     * Zeroed memory for the image of {@code file}, {@code length} bytes.
     *
     * @param file the file {@link #sync()} writes: it must exist (a build's temporary), and is
     *     never created again once deleted
     * @param sparse whether the file keeps holes where whole pages of the image are zero, as a
     *     sparse file's unwritten cells are; if not, every byte is written and so allocated
     */
    public static AnonymousImage allocate(Path file, long length, boolean sparse) {
        if (length <= 0 || length % Long.BYTES != 0) { // a filter file: a header page, then 64-bit words
            throw new IllegalArgumentException("an image's length is a positive multiple of 8, not " + length);
        }
        long address = MEMORY.allocate(length);
        MEMORY.setMemory(address, length, (byte) 0);
        return new AnonymousImage(file, address, length, sparse);
    }

    /**
     * Whether an image of {@code length} bytes fits in memory with room to spare: at most half of
     * what the system says is available (MemAvailable: free memory plus the page cache it can drop).
     * Half, because the rest of the system, the page cache of the input and the written file
     * included, needs room too, and an image that does not fit is not paged out but killed. False
     * where the system does not say (no {@code /proc/meminfo}).
     */
    public static boolean fitsInMemory(long length) {
        OptionalLong available = availableBytes();
        return available.isPresent() && length <= available.getAsLong() / 2;
    }

    private static OptionalLong availableBytes() {
        try {
            for (String line : Files.readAllLines(MEMINFO)) {
                if (line.startsWith("MemAvailable:")) {
                    String kib = line.substring("MemAvailable:".length()).trim().split("\\s+")[0];
                    return OptionalLong.of(Long.parseLong(kib) * 1024);
                }
            }
        } catch (IOException | RuntimeException notLinux) {
            // no figure to go by
        }
        return OptionalLong.empty();
    }

    @Override
    public BytesStore<?, ?> store() {
        return store;
    }

    @Override
    public boolean readOnly() {
        return false;
    }

    /**
     * Writes the whole image to the file, from its first byte to its last, and forces it to the
     * device. A sparse image skips its zero pages, leaving holes, and ends the file at its length.
     */
    @Override
    public void sync() throws IOException {
        ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK);
        BytesStore<?, ?> chunkStore = BytesStore.follow(chunk);
        // WRITE without CREATE: if a shutdown hook has deleted the temporary, fail instead of making it again
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            for (long at = 0; at < length; at += CHUNK) {
                int size = (int) Math.min(CHUNK, length - at);
                if (sparse) {
                    writeNonZeroPages(channel, chunk, chunkStore, at, size);
                } else {
                    write(channel, chunk, chunkStore, at, 0, size);
                }
            }
            if (channel.size() < length) { // a sparse image that ends in zero pages
                channel.write(ByteBuffer.allocate(1), length - 1);
            }
            channel.force(true);
        } finally {
            chunkStore.releaseLast();
        }
    }

    /** Writes the pages of {@code [at, at + size)} that are not all zeros, each run of them in one call. */
    private void writeNonZeroPages(FileChannel channel, ByteBuffer chunk, BytesStore<?, ?> chunkStore, long at,
            int size) throws IOException {
        int runStart = -1;
        for (int page = 0; page < size; page += PAGE) {
            boolean zero = isZero(at + page, Math.min(PAGE, size - page));
            if (!zero && runStart < 0) {
                runStart = page;
            } else if (zero && runStart >= 0) {
                write(channel, chunk, chunkStore, at + runStart, runStart, page - runStart);
                runStart = -1;
            }
        }
        if (runStart >= 0) {
            write(channel, chunk, chunkStore, at + runStart, runStart, size - runStart);
        }
    }

    private boolean isZero(long from, int count) {
        long end = address + from + count;
        for (long a = address + from; a < end; a += Long.BYTES) {
            if (MEMORY.readLong(a) != 0) {
                return false;
            }
        }
        return true;
    }

    /** Writes image bytes {@code [from, from + size)} at the same file offset, through {@code chunk} at {@code into}. */
    private void write(FileChannel channel, ByteBuffer chunk, BytesStore<?, ?> chunkStore, long from, int into,
            int size) throws IOException {
        chunkStore.write(into, store, from, size);
        chunk.limit(into + size).position(into);
        for (long position = from; chunk.hasRemaining(); ) {
            position += channel.write(chunk, position);
        }
    }

    /** Frees the memory; what changed since the last {@link #sync()} never reaches the file. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            store.releaseLast();
            MEMORY.freeMemory(address, length);
        }
    }
}
