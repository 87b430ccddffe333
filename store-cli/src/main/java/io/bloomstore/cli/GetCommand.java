package io.bloomstore.cli;

import io.bloomstore.BloomierMap;
import io.bloomstore.KeySource;
import io.bloomstore.OpenMode;
import io.bloomstore.ValuedFilter;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** {@code bloomstore get}: the values of keys in a valued filter or a Bloomier map. */
final class GetCommand extends CliCommand {
    private static final String[] DESCRIPTION = {
        "Read the values of keys from a valued filter (create --values) or a Bloomier map (build --map): the "
                + "arguments after FILE, then the lines of --from. Prints KEY<TAB>VALUE, or KEY<TAB>absent.",
        "Of a valued filter: absent is certain (the key was never added); a value is never below (--values max) or "
                + "above (--values min) the one the key holds, and is exactly it with high probability; inspect says "
                + "how often it is not, per value.",
        "Of a Bloomier map: a key of the map always gets its value; another key reads absent, except at the rate its "
                + "fingerprint bits give ('inspect' shows it), when it reads some value.",
        "Exit status 0 when every key has a value, 1 when any is absent, 2 on an error."
    };
    private static final String[] EXAMPLES = {
        "  bloomstore get labels.bloom alice bob",
        "  bloomstore get hops.bloom --from - < peers.txt",
        "  bloomstore get shards.map --from ids.txt | cut -f2 | sort | uniq -c   # keys a shard"
    };
    private static final byte[] ABSENT = "\tabsent\n".getBytes(StandardCharsets.US_ASCII);

    private final FileAndKeys operands;

    GetCommand(BloomstoreCli cli) {
        super(cli, DESCRIPTION, EXAMPLES);
        operands = new FileAndKeys(command);
    }

    @Override
    public Integer call() throws Exception {
        if (BloomierMap.isMap(operands.file)) {
            return MapReports.get(this, operands);
        }
        OutputStream out = streams().out();
        long[] absent = {0};
        try (KeySource source = operands.open(streams(), rawArguments(), out::flush);
                ValuedFilter filter = ValuedFilter.open(operands.file, OpenMode.READ_ONLY)) {
            source.forEach(filter.hasher(), (bytes, offset, length, hash) -> {
                out.write(bytes, offset, length);
                var value = filter.getHash(hash);
                if (value.isPresent()) {
                    out.write(('\t' + Long.toString(value.getAsLong()) + '\n').getBytes(StandardCharsets.US_ASCII));
                } else {
                    out.write(ABSENT);
                    absent[0]++;
                }
            });
        }
        return absent[0] == 0 ? ExitCode.OK : ExitCode.NEGATIVE;
    }
}
