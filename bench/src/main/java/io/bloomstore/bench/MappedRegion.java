package io.bloomstore.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;

/**
 * A file of random bytes mapped into memory, for the probes of what the machine allows: random
 * loads and sequential copies over mapped pages (4 KiB pages of the page cache, like a filter's),
 * without any bloomstore code in the way. Plain {@code java.nio} mapping, at most 1 GiB, a power
 * of two bytes so a mask picks a random word.
 */
public final class MappedRegion {
    private static final long MAX_BYTES = 1L << 30;

    private final MappedByteBuffer buffer;
    private final long bytes;
    private final long wordMask;

    private MappedRegion(MappedByteBuffer buffer, long bytes) {
        this.buffer = buffer;
        this.bytes = bytes;
        this.wordMask = (bytes >>> 3) - 1;
    }

    /**
     * Maps {@code file}, first writing it full of random words if it is missing or of another
     * length (the content is on disk and in the page cache, not a sparse hole mapped to a zero page).
     */
    public static MappedRegion ofRandomFile(Path file, long bytes) throws IOException {
        if (bytes < 8 || bytes > MAX_BYTES || Long.bitCount(bytes) != 1) {
            throw new IllegalArgumentException("region size must be a power of two from 8 bytes to 1 GiB, got " + bytes);
        }
        if (!Files.exists(file) || Files.size(file) != bytes) {
            writeRandom(file, bytes);
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MappedByteBuffer buffer = channel.map(FileChannel.MapMode.READ_WRITE, 0, bytes);
            buffer.order(ByteOrder.LITTLE_ENDIAN);
            return new MappedRegion(buffer, bytes);
        }
    }

    private static void writeRandom(Path file, long bytes) throws IOException {
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        SplittableRandom random = new SplittableRandom(bytes);
        ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel channel = FileChannel.open(partial, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            for (long written = 0; written < bytes; ) {
                chunk.clear();
                chunk.limit((int) Math.min(chunk.capacity(), bytes - written));
                while (chunk.hasRemaining()) {
                    chunk.putLong(random.nextLong());
                }
                chunk.flip();
                while (chunk.hasRemaining()) {
                    written += channel.write(chunk);
                }
            }
        }
        Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    public long bytes() {
        return bytes;
    }

    /** The mask that turns any long into a word index of this region. */
    public long wordMask() {
        return wordMask;
    }

    /** The 8-byte word with index {@code word} (0 .. bytes/8 - 1). */
    public long load(long word) {
        return buffer.getLong((int) (word << 3));
    }

    /** Copies this whole region onto {@code target}, which must be as large: one bulk memory copy. */
    public void copyTo(MappedRegion target) {
        copyTo(target.buffer);
    }

    /**
     * Copies this whole region into {@code target} from its index 0, e.g. a direct buffer: anonymous
     * memory, which has no dirty-page tracking or writeback, unlike a file mapping.
     */
    public void copyTo(ByteBuffer target) {
        if (target.capacity() < bytes) {
            throw new IllegalArgumentException("target holds " + target.capacity() + " bytes, need " + bytes);
        }
        target.put(0, buffer, 0, (int) bytes);
    }
}
