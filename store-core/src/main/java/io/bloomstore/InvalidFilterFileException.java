package io.bloomstore;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A file that is not a usable bloomstore filter: damaged, foreign, too new, or of a shape the
 * operation cannot take. {@link #problem()} says which, for programs; the message says it for
 * people, with the path and what to do.
 */
public final class InvalidFilterFileException extends IOException {
    private static final long serialVersionUID = 1L;

    /** What is wrong with the file. */
    public enum Problem {
        /** Not a regular file (a directory, a device). */
        NOT_A_REGULAR_FILE,
        /** Shorter than the header. */
        TOO_SHORT,
        /** Does not start with the magic number: not a filter file. */
        BAD_MAGIC,
        /** Written by a newer format version than this code reads. */
        UNSUPPORTED_VERSION,
        /** The header's CRC32C does not match: the header is damaged. */
        HEADER_CHECKSUM,
        /** A header field holds a value out of its range. */
        BAD_FIELD,
        /** The file's length is not what the header says. */
        LENGTH_MISMATCH,
        /** A sealed filter's cells do not match their checksum. */
        CELLS_CHECKSUM,
        /** The header's file identity is not the one the file's state area was created with: another file's header. */
        HEADER_MISMATCH,
        /** A bit after the last cell (padding, zero in every file written) is set. */
        CELLS_PADDING,
        /** A valid filter, but of another shape than the operation needs. */
        INCOMPATIBLE,
        /** A packed stream that is damaged or not a bloomstore pack. */
        BAD_PACK
    }

    /** What is wrong with the file (part of the serialized form). */
    private final Problem problem;

    /**
     * A refusal of {@code path}: the message is the path, then {@code detail}, which says what to do.
     *
     * @param path the file refused, as the user named it
     * @param problem what is wrong, for callers that act on it
     * @param detail what is wrong and what to do, without the path
     */
    public InvalidFilterFileException(Path path, Problem problem, String detail) {
        super(path + ": " + detail);
        this.problem = problem;
    }

    /**
     * A refusal of {@code path} caused by {@code cause}, as {@link #InvalidFilterFileException(Path, Problem, String)}.
     *
     * @param path the file refused, as the user named it
     * @param problem what is wrong, for callers that act on it
     * @param detail what is wrong and what to do, without the path
     * @param cause the exception that revealed the problem
     */
    public InvalidFilterFileException(Path path, Problem problem, String detail, Throwable cause) {
        super(path + ": " + detail, cause);
        this.problem = problem;
    }

    /**
     * What is wrong with the file, for a caller that acts on it.
     *
     * @return the problem, never null for an exception made by this library
     */
    public Problem problem() {
        return problem;
    }
}
