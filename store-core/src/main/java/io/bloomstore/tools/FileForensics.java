package io.bloomstore.tools;

import io.bloomstore.FilterFileInfo;
import io.bloomstore.FilterKind;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.internal.format.CheckedFile;
import io.bloomstore.internal.map.FileKinds;
import java.io.IOException;
import java.nio.file.Path;

/** What a file is, read without opening it as a filter: for commands that must decide before they open it. */
public final class FileForensics {
    private FileForensics() {
    }

    /**
     * The kind of the file at {@code path}, from its first bytes, without checking or mapping it:
     * {@link FilterKind#MAP} for a version 5 file, {@link FilterKind#FIXED} for anything that is
     * neither a version 2 nor a version 5 file (a damaged or foreign file is then reported by the
     * fixed filter's checks when it is opened).
     *
     * @param path the file; a missing file or a directory is {@link FilterKind#FIXED}, for the open that follows to report
     * @return the kind, never null
     * @throws IOException if the file exists but cannot be read
     */
    public static FilterKind kind(Path path) throws IOException {
        return FileKinds.of(path);
    }

    /**
     * Reads and checks the header of the fixed filter file at {@code path} without mapping it: what
     * {@link io.bloomstore.BloomFilter#info()} answers once the file is open.
     *
     * @param path the filter file
     * @return the header's fields
     * @throws InvalidFilterFileException if the header is damaged or not a fixed filter's
     * @throws IOException if the file cannot be read
     */
    public static FilterFileInfo readInfo(Path path) throws IOException {
        return CheckedFile.readHeader(path).info();
    }

    /**
     * Whether the file at {@code path} is a valued filter ({@link io.bloomstore.ValuedFilter}), by
     * its header, read and checked but not mapped: for a command that takes pairs into a valued
     * file and keys into any other, and must know which before it reads its input.
     *
     * @param path a filter file
     * @return true for a valued filter
     * @throws InvalidFilterFileException if the header is damaged or not a filter's
     * @throws IOException if the file cannot be read
     */
    public static boolean isValued(Path path) throws IOException {
        return FileKinds.of(path) == FilterKind.FIXED && CheckedFile.readHeader(path).rule().isValued();
    }
}
