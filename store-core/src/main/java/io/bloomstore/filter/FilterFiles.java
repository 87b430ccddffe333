package io.bloomstore.filter;

import io.bloomstore.format.FilterFileDescriptor;
import io.bloomstore.format.FilterHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Publishing whole files atomically: the content is written to a temporary file beside the target,
 * forced to disk, then renamed over (or hard-linked to) the target. No process ever sees a
 * half-written header, and a failure leaves nothing behind.
 */
public final class FilterFiles {
    private static final int ZERO_CHUNK = 1 << 20;

    private FilterFiles() {
    }

    /** Writes the content of a new file into an open channel positioned at 0. */
    @FunctionalInterface
    public interface Content {
        void writeTo(FileChannel channel, Path temporary) throws IOException;
    }

    /**
     * Creates {@code target} with {@code content}, atomically.
     *
     * @param replace whether an existing target is replaced; if not, an existing target fails the
     *     call with {@link FileAlreadyExistsException} and is left untouched
     */
    public static void publish(Path target, boolean replace, Content content) throws IOException {
        Path absolute = target.toAbsolutePath();
        Path dir = absolute.getParent();
        if (!replace && Files.exists(absolute)) {
            throw new FileAlreadyExistsException(target.toString(), null, "already exists; replace it on purpose (--force)");
        }
        Path temporary = Files.createTempFile(dir, "." + absolute.getFileName() + ".", ".tmp");
        boolean published = false;
        try {
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                content.writeTo(channel, temporary);
                channel.force(true);
            }
            if (replace) {
                Files.move(temporary, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } else {
                linkWithoutReplacing(temporary, absolute, target);
            }
            published = true;
            forceDirectory(dir);
        } finally {
            if (!published || !replace) {
                Files.deleteIfExists(temporary);
            }
        }
    }

    /** Content of a new, empty filter: its header page, then m zero cells, allocated unless sparse. */
    static Content emptyFilter(FilterHeader header) {
        return (channel, temporary) -> {
            ByteBuffer page = ByteBuffer.allocate(FilterFileDescriptor.CELLS_START);
            page.put(header.encode()).clear();
            writeFully(channel, page);
            long length = header.fileLength();
            if (header.sparse()) {
                channel.position(length - 1);
                writeFully(channel, ByteBuffer.allocate(1));
            } else {
                writeZeros(channel, length - FilterFileDescriptor.CELLS_START, temporary);
            }
        };
    }

    /** Appends {@code count} zero bytes, turning "no space left" into a message naming the size. */
    static void writeZeros(FileChannel channel, long count, Path temporary) throws IOException {
        ByteBuffer zeros = ByteBuffer.allocateDirect((int) Math.min(ZERO_CHUNK, Math.max(1, count)));
        long left = count;
        try {
            while (left > 0) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), left));
                left -= channel.write(zeros);
            }
        } catch (IOException e) {
            throw new IOException("cannot allocate " + count + " bytes of cells for " + temporary.getParent()
                    + " (" + e.getMessage() + "); free disk space, choose a smaller filter, or create it sparse", e);
        }
    }

    /** Writes all of {@code buffer}. */
    public static void writeFully(FileChannel channel, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    private static void linkWithoutReplacing(Path temporary, Path absolute, Path target) throws IOException {
        try {
            Files.createLink(absolute, temporary); // atomic, and fails if a file appeared meanwhile
        } catch (FileAlreadyExistsException e) {
            throw new FileAlreadyExistsException(target.toString(), null, "already exists; replace it on purpose (--force)");
        } catch (UnsupportedOperationException | IOException e) {
            if (Files.exists(absolute)) {
                throw new FileAlreadyExistsException(target.toString(), null, "already exists; replace it on purpose (--force)");
            }
            Files.move(temporary, absolute, StandardCopyOption.ATOMIC_MOVE);
        }
    }

    private static void forceDirectory(Path dir) {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException ignored) {
            // Not every file system lets a directory be opened for force; the rename stands regardless.
        }
    }
}
