package io.bloomstore.cli;

import static io.bloomstore.cli.Model.operand;

import io.bloomstore.BloomFilter;
import io.bloomstore.OpenMode;
import io.bloomstore.InvalidFilterFileException;
import java.nio.file.Path;

/** {@code bloomstore verify}: whether a filter file is intact. */
final class VerifyCommand extends CliCommand {
    private static final String[] DESCRIPTION = {
        "Check a filter file: its header (magic number, version, CRC32C, field ranges), its length, and when it "
                + "is sealed (as 'build' and 'merge' leave it) the checksum of its cells.",
        "Exit status 0 when intact, 1 when damaged or not a filter (the reason on stderr), 2 when it cannot be "
                + "read at all. A filter opened for writing since it was sealed has no cells checksum to check."
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
            BloomFilter.readInfo(file);
            try (BloomFilter filter = Filters.open(file, OpenMode.READ_ONLY)) {
                if (filter.isSealed()) {
                    filter.verifyCells();
                    checked = "header, length and cells checksum";
                } else {
                    checked = "header and length; cells not checked: not sealed since last opened for writing";
                }
            }
        } catch (InvalidFilterFileException e) {
            streams().err().println("bloomstore: " + ErrorMessages.describe(e));
            return ExitCode.NEGATIVE;
        }
        streams().text().println(file + ": ok (" + checked + ")");
        return ExitCode.OK;
    }
}
