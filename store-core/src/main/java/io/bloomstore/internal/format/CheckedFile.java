package io.bloomstore.internal.format;

import io.bloomstore.BloomSpec;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.InvalidFilterFileException.Problem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * A filter file opened on one channel whose header was read and checked through that same channel.
 * The channel is what the caller then maps and syncs: a file renamed over the path meanwhile can
 * never be mapped with another file's header (docs/RELIABILITY.md, the rename race).
 *
 * @param channel open for reading, and for writing unless opened read-only; the caller closes it
 * @param header the checked header, whose length matches the channel's file
 */
public record CheckedFile(FileChannel channel, FilterHeader header) implements AutoCloseable {

    /**
     * Opens {@code path} and checks its header against the opened file's length.
     *
     * @throws InvalidFilterFileException if the path is not a regular file or its header is damaged
     * @throws AccessDeniedException if writing is asked of a file this process may not write
     */
    public static CheckedFile open(Path path, boolean readOnly) throws IOException {
        return check(path, openChannel(path, readOnly));
    }

    /**
     * Opens {@code path} for writing if its header has {@code spec}'s shape; refuses it otherwise,
     * before anything maps it for writing (which would withdraw the seal of a file then refused).
     *
     * @throws InvalidFilterFileException with {@link Problem#INCOMPATIBLE} if the file has another
     *     shape (the message names the first field that differs), or as {@link #open}
     */
    public static CheckedFile openMatching(Path path, BloomSpec spec) throws IOException {
        CheckedFile file = open(path, false);
        var difference = file.header().spec().differenceFrom(spec);
        if (difference.isPresent()) {
            file.close();
            throw new InvalidFilterFileException(path, Problem.INCOMPATIBLE, "exists with another shape ("
                    + difference.get() + "); open it with its own parameters or delete it");
        }
        return file;
    }

    /**
     * Checks the header of a file already open on {@code channel} against that file's length: for
     * a caller that opened the channel to tell the file's kind first, so that the kind, the header
     * and whatever is mapped next are all of one file. On failure the channel is closed here.
     *
     * @param path the file's name, for messages only
     */
    public static CheckedFile check(Path path, FileChannel channel) throws IOException {
        try {
            long length = channel.size();
            byte[] header = readAt(channel, 0, (int) Math.min(length, FilterFileDescriptor.HEADER_LENGTH));
            return new CheckedFile(channel, FilterHeader.decode(path, header, length));
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * Reads up to {@code length} bytes of an open file from {@code offset}, by position (the
     * channel's own position is left alone); fewer if the file ends first.
     */
    public static byte[] readAt(FileChannel channel, long offset, int length) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(length);
        while (bytes.hasRemaining() && channel.read(bytes, offset + bytes.position()) >= 0) {
            // read until full or end of file
        }
        return Arrays.copyOf(bytes.array(), bytes.position());
    }

    /**
     * Opens the one channel every check, mapping and sync of a filter file of any version goes
     * through, after refusing what is not a regular file and, for writing, a file this process may
     * not write.
     *
     * @throws InvalidFilterFileException if the path is not a regular file
     * @throws AccessDeniedException if writing is asked of a file this process may not write
     */
    public static FileChannel openChannel(Path path, boolean readOnly) throws IOException {
        requireRegularFile(path);
        if (!readOnly && Files.exists(path) && !Files.isWritable(path)) {
            throw new AccessDeniedException(path.toString(), null, "is not writable; open it read-only or fix its permissions");
        }
        return readOnly
                ? FileChannel.open(path, StandardOpenOption.READ)
                : FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    /** Reads and checks the header of {@code path} without keeping the file open. */
    public static FilterHeader readHeader(Path path) throws IOException {
        try (CheckedFile file = open(path, true)) {
            return file.header();
        }
    }

    /** Closes the channel: for a caller that does not hand it on to a mapping. */
    @Override
    public void close() throws IOException {
        channel.close();
    }

    private static void requireRegularFile(Path path) throws InvalidFilterFileException {
        if (Files.isDirectory(path)) {
            throw new InvalidFilterFileException(path, Problem.NOT_A_REGULAR_FILE, "is a directory, not a filter file");
        }
        if (Files.exists(path) && !Files.isRegularFile(path)) {
            throw new InvalidFilterFileException(path, Problem.NOT_A_REGULAR_FILE, "is not a regular file");
        }
    }
}
