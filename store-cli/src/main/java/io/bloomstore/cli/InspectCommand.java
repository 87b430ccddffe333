package io.bloomstore.cli;

import static io.bloomstore.cli.Model.flag;
import static io.bloomstore.cli.Model.operand;

import io.bloomstore.BloomFilter;
import io.bloomstore.OpenMode;
import java.nio.file.Path;

/** {@code bloomstore inspect}: what a filter file is and how full it is. */
final class InspectCommand extends CliCommand {
    private static final String[] DESCRIPTION = {
        "Describe a filter: every header field, its state (sealed, open writers, insertions), and from one scan "
                + "of its cells how full it is: cells set, fill ratio, estimated number of keys, and the "
                + "false-positive rate it has now.",
        "--json prints the same as one JSON object, for scripts."
    };
    private static final String[] EXAMPLES = {
        "  bloomstore inspect users.bloom",
        "  bloomstore inspect users.bloom --json | jq .currentFpp"
    };

    private Path file;
    private boolean json;

    InspectCommand(BloomstoreCli cli) {
        super(cli, DESCRIPTION, EXAMPLES);
        command.addPositional(operand(0, "FILE", Path.class, value -> file = value)
                .description("The filter file.").build());
        command.addOption(flag(value -> json = value, "--json")
                .description("Print JSON instead of text.").build());
    }

    @Override
    public Integer call() throws Exception {
        FilterReport report;
        try (BloomFilter filter = Filters.open(file, OpenMode.READ_ONLY)) {
            report = FilterReport.of(file, filter);
        }
        if (json) {
            JsonOutput.write(report, streams().text());
        } else {
            describe(report).print(streams().text());
        }
        return ExitCode.OK;
    }

    private static Table describe(FilterReport r) {
        return new Table()
                .row("file", r.file())
                .row("size on disk", Human.bytes(r.fileBytes()) + " (" + Human.count(r.fileBytes()) + " bytes"
                        + (r.sparse() ? ", created sparse" : "") + ")")
                .row("format", r.magic() + " version " + r.formatVersion() + ", header CRC32C " + r.headerCrc32c())
                .row("cells (m)", Human.count(r.cells()) + " of " + r.counterBits() + (r.counterBits() == 1
                        ? " bit (plain filter)" : " bits (counting filter)"))
                .row("hashes (k)", Integer.toString(r.hashes()))
                .row("layout", r.layout())
                .row("hash", r.hashAlgorithm() + ", seed " + r.seed())
                .row("sized for", r.expectedKeys() == null ? "given as cells and hashes"
                        : Human.count(r.expectedKeys()) + " keys at " + Human.percent(r.targetFpp()) + " false positives")
                .row("created", r.created())
                .row("sealed", r.sealed() ? "yes, cells checksum " + r.cellsChecksum()
                        : "no (not sealed since it was last opened for writing)")
                .row("open writers", Integer.toString(r.openWriters()))
                .row("insertions", Human.count(r.approximateInsertions()) + " (adds that set a cell; approximate)")
                .row("cells set", Human.count(r.setCells()) + " (" + Human.percent(r.fillRatio()) + ")")
                .row("estimated keys", r.estimatedKeys() == null ? Human.estimate(Double.POSITIVE_INFINITY)
                        : Human.estimate(r.estimatedKeys()))
                .row("false positives", Human.percent(r.currentFpp()) + " now");
    }
}
