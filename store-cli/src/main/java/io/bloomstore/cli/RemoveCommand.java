package io.bloomstore.cli;

import io.bloomstore.BloomFilter;
import io.bloomstore.KeySource;
import io.bloomstore.OpenMode;

/** {@code bloomstore remove}: keys out of a counting filter. */
final class RemoveCommand extends CliCommand {
    private static final String[] DESCRIPTION = {
        "Remove keys from a counting filter (one created with --counter-bits 2 or more): each removal takes "
                + "back one add.",
        "A key that is definitely absent changes nothing. Remove only keys you added: removing others can make "
                + "added keys look absent.",
        "Removes of one key are not coordinated: two processes that remove a key added once, at the same moment, "
                + "both find it present and both take it, and the second removal takes counts of other keys, which "
                + "can then look absent. Remove a key at most as often as it was added, counted over every process: "
                + "give each key one owner that removes it."
    };
    private static final String[] EXAMPLES = {
        "  bloomstore create sessions.bloom --expected 100k --fpp 0.01 --counter-bits 4",
        "  bloomstore add sessions.bloom s-17 s-18",
        "  bloomstore remove sessions.bloom s-17"
    };

    private final FileAndKeys operands;

    RemoveCommand(BloomstoreCli cli) {
        super(cli, DESCRIPTION, EXAMPLES);
        operands = new FileAndKeys(command);
    }

    @Override
    public Integer call() throws Exception {
        long total;
        long[] removed = {0};
        try (KeySource source = operands.open(streams(), rawArguments(), null);
                BloomFilter filter = CliFilters.open(operands.file, OpenMode.READ_WRITE, "remove",
                        "keys cannot be taken out of it (a windowed filter forgets them after its window); "
                        + "to remove keys, use a counting filter: create --counter-bits 4");
                Progress progress = progress("remove", operands.size())) {
            if (!filter.spec().isCounting()) {
                throw new UnsupportedOperationException(operands.file + " is a plain filter (1-bit cells) and cannot remove keys; "
                        + "create a counting filter with --counter-bits 4 to remove keys");
            }
            total = source.onProgress(progress::update).forEach(filter.hasher(), (bytes, offset, length, hash) -> {
                removed[0] += filter.removeHash(hash) ? 1 : 0;
            });
        }
        streams().text().println("removed " + Human.count(removed[0]) + " of " + CliFilters.keys(total) + " from " + operands.file
                + (removed[0] < total ? "; " + Human.count(total - removed[0]) + " definitely absent, unchanged" : ""));
        return ExitCode.OK;
    }
}
