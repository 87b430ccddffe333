package io.bloomstore.cli;

import static io.bloomstore.cli.Model.operand;

import io.bloomstore.CellsCheck;
import io.bloomstore.FilterShape;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.StoredFile;
import java.io.IOException;
import java.nio.file.Path;

/** {@code bloomstore verify}: whether a filter file is intact. */
final class VerifyCommand extends CliCommand {
    private static final String[] DESCRIPTION = {
        "Check a filter file: its header (magic number, version, CRC32C, field ranges), its length, that its "
                + "header and cells belong together (file identity), that no bit after the last cell is set, and when "
                + "it is sealed (as 'build' and 'merge' leave it) the checksum of its cells.",
        "Exit status 0 when intact, 1 when damaged or not a filter (the reason on stderr), 2 when it cannot be "
                + "read at all (missing, unreadable, a directory). A filter never sealed ('create' makes it so) or "
                + "opened for writing since it was sealed has no cells checksum: damage to its cells cannot be "
                + "detected, and the output says so; one opened for writing while its cells are checked is reported "
                + "as such (0), not as damaged.",
        "A growing or windowed file: its container header, its table of segments or slots, each one's own "
                + "header and shape, and that the table is consistent (a segment prepared but not published is empty; "
                + "each slot holds the epoch the current one gives it). Their cells are written live, never sealed, "
                + "so there is no checksum of them. A held step lock (a growth or rotation) is reported with its "
                + "process: running, stopped (kill -CONT PID resumes it) or ended (the next writer finishes its step); "
                + "it is not damage."
    };
    private static final String[] EXAMPLES = {
        "  bloomstore verify users.bloom",
        "  bloomstore unpack users.bloom.pack restored.bloom && bloomstore verify restored.bloom"
    };

    private Path file;

    VerifyCommand(BloomstoreCli cli) {
        super(cli, DESCRIPTION, EXAMPLES);
        command.addPositional(operand(0, "FILE", Path.class, value -> file = value)
                .description("The filter file.").build());
    }

    @Override
    public Integer call() throws Exception {
        String checked;
        try {
            try (StoredFile stored = CliFilters.openStored(file)) {
                checked = verify(stored);
            }
        } catch (InvalidFilterFileException e) {
            if (e.problem() == InvalidFilterFileException.Problem.NOT_A_REGULAR_FILE) {
                throw e; // a directory or a device: it cannot be read as a file at all (exit 2, as --help says)
            }
            streams().err().println("bloomstore: " + ErrorMessages.describe(e));
            return ExitCode.NEGATIVE;
        }
        streams().text().println(file + ": ok (" + checked + ")");
        return ExitCode.OK;
    }

    /**
     * A held step lock, which is no damage but explains adds that wait or are refused: a growth or
     * rotation under way, a stopped process holding it, or a crashed one whose step the next writer
     * finishes.
     */
    private static String lockNote(String stepLock) {
        return "free".equals(stepLock) ? "" : "; step lock " + stepLock;
    }

    /** Checks what opening {@code stored} did not; returns what was checked in all. */
    private String verify(StoredFile stored) throws IOException {
        CellsCheck check;
        // only a sealed filter's or a map's check reads the cells or table
        try (Progress progress = stored.shape().sealed() ? progress("verify", stored.shape().scanBytes()) : Progress.NONE) {
            check = progress.callback() == null ? stored.verify() : stored.verify(progress.callback());
        }
        return stored.match(filter -> checked(filter.shape(), check), valued -> checked(valued.shape(), check),
                map -> MapReports.checked(map.shape()));
    }

    /** What was checked of a filter of {@code shape}, whose check found {@code check}. */
    private static String checked(FilterShape shape, CellsCheck check) {
        return shape.map(fixed -> checked(check, fixed.info().fileIdentity().isPresent()),
                growing -> containerChecked(growing.segments() + " segments", growing.stepLock()),
                windowed -> containerChecked(windowed.slots() + " slots", windowed.stepLock()));
    }

    /** What was checked of a growing or windowed file of {@code regions}. */
    private static String containerChecked(String regions, String stepLock) {
        return "container header and " + regions + ": headers, lengths, shapes and padding; cells are written live, "
                + "never sealed" + lockNote(stepLock);
    }

    /** What was checked of a fixed filter, whose header is bound to its cells if {@code bound}. */
    private static String checked(CellsCheck check, boolean bound) {
        return switch (check) {
            case INTACT -> bound ? "header, length, file identity, padding and cells checksum"
                    : "header, length, padding and cells checksum; version 1 file: no file identity";
            case NOT_SEALED -> "not sealed: cells not checksummed, damage to them cannot be detected; header, length"
                    + (bound ? ", file identity" : "") + " and padding checked";
            // not damage: a writer withdraws the seal before it changes a cell, and the file is now unsealed
            case UNSEALED_DURING_CHECK -> "opened for writing while its cells were checked, so no longer sealed: cells "
                    + "not checksummed, damage to them cannot be detected; header, length"
                    + (bound ? ", file identity" : "") + " and padding checked";
            case LIVE -> throw new IllegalStateException("a fixed filter's cells are sealed or not, never live");
        };
    }
}
