package io.bloomstore.internal.files;

import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.internal.format.StepLockHeldException;
import io.bloomstore.internal.format.FilterHeader;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.internal.cells.MappingFlags;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Publishing whole files atomically: the content is written to a {@link TemporaryFile} beside the
 * target, through the channel that created it, forced to disk, then renamed over (or hard-linked
 * to) the target. No process ever sees a half-written header, a failure leaves nothing behind, and
 * a file another process renamed over the temporary is never published in its place.
 */
public final class FilterFiles {
    private static final int ZERO_CHUNK = 1 << 20;
    /** What to do about a disk too small, for a file whose parts are allocated whole (growing, windowed). */
    private static final String SPACE_ADVICE = "free disk space, write it elsewhere, or (a new filter) size it smaller";

    private FilterFiles() {
    }

    /** Writes the content of a new file into an open channel positioned at 0. */
    @FunctionalInterface
    public interface Content {
        /**
         * @param channel the temporary's own channel ({@link TemporaryFile#channel()})
         * @param temporary the file being written, for content that maps it to seal it
         *     ({@link TemporaryFile#reopen()}); never to be opened by its name
         * @throws io.bloomstore.InvalidFilterFileException if the content's source is
         *     damaged; any other IOException is taken for a failure to write the target
         */
        void writeTo(FileChannel channel, TemporaryFile temporary) throws IOException;
    }

    /**
     * Creates {@code target} with {@code content}, atomically.
     *
     * @param replace whether an existing target is replaced; if not, an existing target fails the
     *     call with {@link FileAlreadyExistsException} and is left untouched
     * @param diskBytes the bytes the content will allocate on disk, if known in advance (else 0):
     *     a disk with less free space refuses the call before anything is written
     * @throws IOException naming the target, the directory and what to do, if the disk is too small
     *     or the write fails
     */
    public static void publish(Path target, boolean replace, long diskBytes, Content content) throws IOException {
        publish(target, replace, diskBytes, true, content);
    }

    /**
     * {@link #publish(Path, boolean, long, Content)}, for a file that may or may not be made sparse.
     *
     * @param canBeSparse whether a failure may advise creating the file sparse (not for a file whose parts are allocated whole)
     */
    public static void publish(Path target, boolean replace, long diskBytes, boolean canBeSparse, Content content)
            throws IOException {
        if (replace) {
            requireReplaceable(target);
        } else {
            requireAbsent(target);
        }
        requireSpace(target, diskBytes, canBeSparse);
        try (TemporaryFile temporary = TemporaryFile.beside(target, "new")) {
            try {
                content.writeTo(temporary.channel(), temporary);
            } catch (InvalidFilterFileException | StepLockHeldException notTheDisk) {
                throw notTheDisk; // about the source, which the disk's advice would not help
            } catch (IOException e) {
                throw cannotWrite(target, diskBytes, canBeSparse, e);
            }
            temporary.publishAs(target, replace);
        }
    }

    /**
     * The failure to write the file that becomes {@code target}, named after it (not after its
     * temporary), with what to do.
     *
     * @param diskBytes the bytes the file takes, if known (else 0)
     */
    public static IOException cannotWrite(Path target, long diskBytes, IOException cause) {
        return cannotWrite(target, diskBytes, true, cause);
    }

    /** {@link #cannotWrite(Path, long, IOException)}, advising a sparse file only if {@code canBeSparse}. */
    public static IOException cannotWrite(Path target, long diskBytes, boolean canBeSparse, IOException cause) {
        return new IOException(TemporaryFile.userFacing(target) + ": cannot write it in " + target.toAbsolutePath().getParent()
                + (diskBytes > 0 ? " (" + diskBytes + " bytes)" : "") + " (" + cause.getMessage() + "); "
                + spaceAdvice(canBeSparse), cause);
    }

    private static String spaceAdvice(boolean canBeSparse) {
        return canBeSparse ? SPACE_ADVICE + " or create it sparse" : SPACE_ADVICE;
    }

    /** Refuses, before any work, to create {@code target} over an existing file without being asked to replace it. */
    public static void requireAbsent(Path target) throws IOException {
        requireRegularIfPresent(target);
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            throw alreadyExists(target);
        }
    }

    /**
     * Refuses to replace a target that exists and is not a regular file, or that this process may
     * not write.
     *
     * <p>A rename over a device node, a FIFO or a symbolic link would put a regular file in its
     * place ({@code /dev/null} among them, for root) instead of writing into what it stands for; a
     * directory cannot be replaced at all. A file its owner made read-only is protected on purpose
     * (a published filter that scripts must not rebuild by accident), and the directory's
     * permission to rename over it does not override that: replacing it is refused, as writing into
     * it would be, until it is made writable or deleted. Root, who may write any file, replaces it.
     *
     * @throws java.nio.file.AccessDeniedException if the target exists and may not be written
     */
    public static void requireReplaceable(Path target) throws IOException {
        requireRegularIfPresent(target);
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS) && !Files.isWritable(target)) {
            throw new AccessDeniedException(target.toString(), null, "is read-only for this user, and only a file "
                    + "it may write is replaced: make it writable (chmod u+w) or delete it first");
        }
    }

    private static void requireRegularIfPresent(Path target) throws IOException {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException absent) {
            return;
        }
        if (!attributes.isRegularFile()) {
            String kind = attributes.isDirectory() ? "a directory"
                    : attributes.isSymbolicLink() ? "a symbolic link" : "a device, FIFO or socket";
            throw new IOException(target + ": is " + kind + ", not a regular file; only a regular file is replaced"
                    + " by a new one: choose another path");
        }
    }

    /** The refusal to create {@code target} over an existing file; the caller's interface may add how to ask for it. */
    public static FileAlreadyExistsException alreadyExists(Path target) {
        return new FileAlreadyExistsException(target.toString(), null, "already exists; replace it on purpose");
    }

    /**
     * Refuses a file of {@code bytes} that the disk holding {@code target} cannot take, before any
     * byte is written: allocating it would fill the disk first and fail only at the end.
     */
    public static void requireSpace(Path target, long bytes) throws IOException {
        requireSpace(target, bytes, true);
    }

    /** {@link #requireSpace(Path, long)}, advising a sparse file only if {@code canBeSparse}. */
    public static void requireSpace(Path target, long bytes, boolean canBeSparse) throws IOException {
        if (bytes <= 0) {
            return;
        }
        Path dir = target.toAbsolutePath().getParent();
        TemporaryFile.requireDirectory(dir);
        long usable = Files.getFileStore(dir).getUsableSpace();
        if (usable < bytes) {
            throw new IOException(TemporaryFile.userFacing(target) + ": needs " + bytes + " bytes (" + (bytes + (1 << 20) - 1 >> 20) + " MiB) but "
                    + dir + " has " + usable + " bytes free; " + spaceAdvice(canBeSparse));
        }
    }

    /**
     * Creates the fixed filter file {@code target} of {@code header}, atomically: the one recipe
     * for a new filter file at a path. This JVM must be able to map it (else, before anything is
     * written, the {@link IllegalStateException} of {@link MappingFlags#require}); the disk must
     * hold it unless it is sparse; the temporary gets the header page, then what {@code cells}
     * writes after it; a failure to write is named after the target, as {@link #publish} says.
     *
     * @param canBeSparse whether a failure may advise creating the file sparse
     * @param cells writes the cells (and whatever else the file needs, such as its seal) after the header page
     */
    public static void publishFilter(Path target, boolean replace, FilterHeader header, boolean canBeSparse,
            Content cells) throws IOException {
        MappingFlags.require(target, header.fileLength());
        publish(target, replace, diskBytes(header), canBeSparse, (channel, temporary) -> {
            writeFully(channel, header.newFilePage());
            cells.writeTo(channel, temporary);
        });
    }

    /**
     * The checks of {@link #publishFilter} for a new filter file of {@code header} that is written
     * elsewhere first and becomes {@code target} later: this JVM can map it, the disk can hold it.
     */
    public static void requireCreatable(Path target, FilterHeader header) throws IOException {
        MappingFlags.require(target, header.fileLength());
        requireSpace(target, diskBytes(header));
    }

    /** The bytes a new filter file of {@code header} allocates on disk: none when sparse. */
    public static long diskBytes(FilterHeader header) {
        return header.sparse() ? 0 : header.fileLength();
    }

    /** Content after the header page of a new, empty filter: see {@link #writeEmptyFilter}. */
    public static Content emptyCells(FilterHeader header) {
        return (channel, temporary) -> writeEmptyCells(channel, header);
    }

    /** Writes a new, empty filter from the channel's position: its header page, then m zero cells, allocated unless sparse. */
    public static void writeEmptyFilter(FileChannel channel, FilterHeader header) throws IOException {
        writeFully(channel, header.newFilePage());
        writeEmptyCells(channel, header);
    }

    private static void writeEmptyCells(FileChannel channel, FilterHeader header) throws IOException {
        long length = header.fileLength();
        if (header.sparse()) {
            channel.position(channel.position() - FilterFileDescriptor.CELLS_START + length - 1);
            writeFully(channel, ByteBuffer.allocate(1));
        } else {
            writeZeros(channel, length - FilterFileDescriptor.CELLS_START);
        }
    }

    /** Appends {@code count} zero bytes: the cells' blocks allocated on disk now, not at a later add. */
    public static void writeZeros(FileChannel channel, long count) throws IOException {
        ByteBuffer zeros = ByteBuffer.allocateDirect((int) Math.min(ZERO_CHUNK, Math.max(1, count)));
        for (long left = count; left > 0; ) {
            zeros.clear().limit((int) Math.min(zeros.capacity(), left));
            left -= channel.write(zeros);
        }
    }

    /** Writes all of {@code buffer}. */
    public static void writeFully(FileChannel channel, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    /** Writes all of {@code buffer} at {@code position} (the channel's own position is left alone). */
    public static void writeFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
        for (long at = position; buffer.hasRemaining(); ) {
            at += channel.write(buffer, at);
        }
    }
}
