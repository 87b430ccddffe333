package io.bloomstore.cli;

import static io.bloomstore.cli.Model.flag;

import io.bloomstore.KeySource;
import io.bloomstore.MembershipFilter;
import io.bloomstore.OpenMode;
import io.bloomstore.tools.FileForensics;

/** {@code bloomstore add}: keys into an existing filter. */
final class AddCommand extends CliCommand {
    private static final String[] DESCRIPTION = {
        "Add keys to a filter: the arguments after FILE, then the lines of --from.",
        "Other processes using the same file see the keys at once. An add that has returned survives a crash "
                + "of this process; with --sync it also survives a power cut.",
        "Prints how many keys were definitely new (a key is new when it set a cell that was zero; in a windowed "
                + "filter, when it was not seen within the window).",
        "Works on fixed, growing and windowed filters; a growing one adds segments as it fills.",
        "On a valued filter (create --values), each key comes with its value: KEY=VALUE arguments, and KEY<TAB>VALUE "
                + "lines of --from (split at the last = or TAB)."
    };
    private static final String[] EXAMPLES = {
        "  bloomstore add users.bloom alice bob",
        "  bloomstore add users.bloom --from new-users.txt --sync",
        "  grep -o 'id=[0-9]*' app.log | bloomstore add ids.bloom --from -",
        "  bloomstore add labels.bloom alice=1 bob=3   # a valued filter"
    };

    private final FileAndKeys operands;
    private boolean sync;

    AddCommand(BloomstoreCli cli) {
        super(cli, DESCRIPTION, EXAMPLES);
        operands = new FileAndKeys(command);
        command.addOption(flag(value -> sync = value, "--sync")
                .description("Force the file to disk before exiting (msync), for durability against power loss.").build());
    }

    @Override
    public Integer call() throws Exception {
        if (FileForensics.isValued(operands.file)) {
            return ValuedPairs.add(operands, streams(), rawArguments(), sync);
        }
        KeySource.Added added;
        try (KeySource source = operands.open(streams(), rawArguments(), null);
                MembershipFilter filter = CliFilters.openAny(operands.file, OpenMode.READ_WRITE)) {
            CapacityWatch capacity = new CapacityWatch(filter, streams());
            try (Progress progress = progress("add", operands.size())) {
                capacity.drawnOver(progress);
                added = source.onProgress(bytesRead -> {
                    progress.update(bytesRead);
                    capacity.afterBatch();
                }).addTo(filter);
            }
            capacity.drawnOver(Progress.NONE);
            if (sync) {
                filter.sync();
            }
            streams().text().println("added " + CliFilters.keys(added.keys()) + " to " + operands.file + ": "
                    + Human.count(added.newKeys()) + " new, " + Human.count(added.keys() - added.newKeys())
                    + " possibly present already");
            capacity.atEnd();
        }
        return ExitCode.OK;
    }
}
