package io.bloomstore.cli;

import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.MembershipFilter;
import io.bloomstore.OpenMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What to tell the user when a filter file's memory mapping failed under a command: a read or write
 * of a mapped page raised SIGBUS, because another program truncated the file (its pages past the
 * new end are gone from every mapping) or the file is sparse and the disk filled when a page was
 * first written. HotSpot turns such a fault in an {@code Unsafe} access into an
 * {@link InternalError}, delivered at the faulting access or a little later (docs/RELIABILITY.md,
 * "A file truncated under a command"); this names the file and which of the two it was.
 */
final class MappingFault {
    /** The free bytes under which a file system counts as full: less than a page cannot hold the next one. */
    private static final long PAGE = 4096;

    private MappingFault() {
    }

    /** Whether {@code failure} is HotSpot's report of a fault in a memory mapping. */
    static boolean is(Throwable failure) {
        return failure instanceof InternalError && failure.getMessage() != null
                && failure.getMessage().contains("unsafe memory access");
    }

    /**
     * One line for a fault while the command had {@code files} (its file operands) mapped: the
     * first that is now shorter than its header says, else the first on a full disk, else all of them.
     */
    static String describe(List<Path> files) {
        for (Path file : files) {
            String length = truncation(file);
            if (length != null) {
                return file + ": the file was truncated by another program while this command used it (" + length
                        + "); the command stopped there, and its last answers may be wrong; restore it from a pack or "
                        + "rebuild it, and keep other programs from writing to it";
            }
        }
        for (Path file : files) {
            if (onFullDisk(file)) {
                return file + ": the disk is full, and this sparse file needed a new block; the command stopped "
                        + "there; free disk space (or create the filter without --sparse, which allocates it at once)";
            }
        }
        String named = files.isEmpty() ? "a filter file" : String.join(", ", files.stream().map(Path::toString).toList());
        return named + ": the file's memory mapping failed while this command used it (another program truncated or "
                + "replaced it, or its disk is full); the command stopped there; check it with 'bloomstore verify'";
    }

    /** "now N bytes" if {@code file} is shorter than its header says; null if it is not, or cannot be told. */
    private static String truncation(Path file) {
        try (MembershipFilter ignored = MembershipFilter.open(file, OpenMode.READ_ONLY)) {
            return null;
        } catch (InvalidFilterFileException e) {
            boolean cut = e.problem() == InvalidFilterFileException.Problem.LENGTH_MISMATCH
                    || e.problem() == InvalidFilterFileException.Problem.TOO_SHORT;
            return cut ? "now " + Human.count(size(file)) + " bytes" : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static boolean onFullDisk(Path file) {
        try {
            return Files.getFileStore(file).getUsableSpace() < PAGE;
        } catch (IOException e) {
            return false;
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }
}
