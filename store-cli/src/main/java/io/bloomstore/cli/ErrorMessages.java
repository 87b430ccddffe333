package io.bloomstore.cli;

import io.bloomstore.InvalidFilterFileException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * Turns what went wrong into the one line a user reads: what, where, and what to do. The JDK's
 * file-system exceptions carry only a path; the store's own exceptions already say it all.
 */
final class ErrorMessages {
    private ErrorMessages() {
    }

    /** One line, never empty, without the "bloomstore: " prefix. */
    static String describe(Throwable failure) {
        Throwable e = failure instanceof UncheckedIOException && failure.getCause() != null ? failure.getCause() : failure;
        String message = oneLine(messageOf(e));
        return message.isEmpty() ? e.getClass().getSimpleName() : message;
    }

    /** Whether {@code failure} is a bug of bloomstore rather than a problem with the input or the system. */
    static boolean isInternal(Throwable failure) {
        return !(failure instanceof IOException || failure instanceof UncheckedIOException
                || failure instanceof IllegalArgumentException || failure instanceof UnsupportedOperationException
                || failure instanceof IllegalStateException || failure instanceof OutOfMemoryError);
    }

    private static String messageOf(Throwable e) {
        if (e instanceof InvalidFilterFileException) {
            return e.getMessage();
        }
        if (e instanceof FileAlreadyExistsException) {
            // The core says "replace it on purpose"; on the command line that purpose is --force.
            return withReason((FileSystemException) e, "already exists; replace it on purpose") + " (--force)";
        }
        if (e instanceof NoSuchFileException) {
            return withReason((FileSystemException) e, noSuchFile(((FileSystemException) e).getFile()));
        }
        if (e instanceof AccessDeniedException) {
            return withReason((FileSystemException) e, "permission denied");
        }
        if (e instanceof NotDirectoryException) {
            return withReason((FileSystemException) e, "not a directory");
        }
        if (e instanceof DirectoryNotEmptyException) {
            return withReason((FileSystemException) e, "directory not empty");
        }
        if (e instanceof FileSystemException) {
            FileSystemException fs = (FileSystemException) e;
            return fs.getFile() != null ? withReason(fs, "file system error") : String.valueOf(fs.getReason());
        }
        if (e instanceof IOException && "Broken pipe".equals(e.getMessage())) {
            return "the output was closed before it was complete (broken pipe)";
        }
        if (e instanceof ClosedByInterruptException) {
            return "interrupted";
        }
        if (e instanceof OutOfMemoryError) {
            return "out of memory (" + e.getMessage() + "); give the JVM more heap, e.g. BLOOMSTORE_JAVA_OPTS=-Xmx4g";
        }
        if (isInternal(e)) {
            return "internal error: " + e + " (run again with --stacktrace and report it)";
        }
        return e.getMessage() == null ? "" : e.getMessage();
    }

    /** Why {@code file} is not there: itself, or a directory on its way that is missing (the nearest to the root). */
    private static String noSuchFile(String file) {
        Path missing = null;
        try {
            for (Path dir = Path.of(file).toAbsolutePath().getParent(); dir != null && Files.notExists(dir); dir = dir.getParent()) {
                missing = dir;
            }
        } catch (RuntimeException notAPath) {
            // no path to look along: the plain reason is all there is to say
        }
        return missing == null ? "no such file" : "no such file: there is no directory " + missing;
    }

    private static String withReason(FileSystemException e, String fallback) {
        String reason = e.getReason() != null ? e.getReason() : fallback;
        String file = e.getFile();
        if (e.getOtherFile() != null) {
            file = file + " -> " + e.getOtherFile();
        }
        return file == null ? reason : file + ": " + reason;
    }

    /** {@code message} on one line: line breaks become "; ". */
    static String oneLine(String message) {
        return message.replaceAll("\\s*[\\r\\n]+\\s*", "; ").trim();
    }
}
