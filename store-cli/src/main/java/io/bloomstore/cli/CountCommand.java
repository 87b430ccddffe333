package io.bloomstore.cli;

import io.bloomstore.BloomFilter;
import io.bloomstore.KeySource;
import io.bloomstore.OpenMode;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** {@code bloomstore count}: how many times keys may have been added to a counting filter. */
final class CountCommand extends CliCommand {
    private static final String[] DESCRIPTION = {
        "Print how many times each key may have been added: KEY<TAB>N.",
        "On a counting filter N is the smallest of the key's counters, an upper bound that is exact unless other "
                + "keys share all its cells or a counter is saturated; on a plain filter N is 1 (maybe present) or "
                + "0 (absent)."
    };
    private static final String[] EXAMPLES = {
        "  bloomstore count visits.bloom /index.html /about.html",
        "  bloomstore count visits.bloom --from pages.txt | sort -t$'\\t' -k2 -n"
    };

    private final FileAndKeys operands;

    CountCommand(BloomstoreCli cli) {
        super(cli, DESCRIPTION, EXAMPLES);
        operands = new FileAndKeys(command);
    }

    @Override
    public Integer call() throws Exception {
        OutputStream out = streams().out();
        try (KeySource source = operands.open(streams(), rawArguments(), out::flush);
                BloomFilter filter = CliFilters.open(operands.file, OpenMode.READ_ONLY, "count",
                        "it has no counters; 'contains' tells whether keys may be present")) {
            source.forEach(filter.hasher(), (bytes, offset, length, hash) -> {
                out.write(bytes, offset, length);
                out.write('\t');
                out.write(Long.toString(filter.countHash(hash)).getBytes(StandardCharsets.US_ASCII));
                out.write('\n');
            });
        }
        return ExitCode.OK;
    }
}
