package io.bloomstore.cli;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomierMap;
import io.bloomstore.FilterKind;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.KeyHasher;
import io.bloomstore.KeySource;
import io.bloomstore.MembershipFilter;
import io.bloomstore.StoredFile;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.LongUnaryOperator;

/**
 * {@code bloomstore get}: the values of keys in a valued filter or a Bloomier map, the two families
 * of {@link StoredFile} that hold values; any other filter is refused.
 */
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
    private static final byte[] ABSENT = "absent".getBytes(StandardCharsets.US_ASCII);

    private final FileAndKeys operands;

    GetCommand(BloomstoreCli cli) {
        super(cli, DESCRIPTION, EXAMPLES);
        operands = new FileAndKeys(command);
    }

    @Override
    public Integer call() throws Exception {
        OutputStream out = streams().out();
        try (KeySource source = operands.open(streams(), rawArguments(), out::flush);
                StoredFile file = StoredFile.open(operands.file)) {
            long absent = file.match(filter -> {
                throw holdsNoValues(filter);
            }, valued -> print(source, valued.hasher(), hash -> valued.getHash(hash).orElse(BloomierMap.ABSENT), out),
                    map -> print(source, map.hasher(), map::getHash, out));
            return absent == 0 ? ExitCode.OK : ExitCode.NEGATIVE;
        }
    }

    /** Prints KEY TAB VALUE, or KEY TAB absent, for each key of {@code source}; returns the keys absent. */
    private static long print(KeySource source, KeyHasher hasher, LongUnaryOperator valueOf, OutputStream out)
            throws IOException {
        long[] absent = {0};
        source.forEach(hasher, (bytes, offset, length, hash) -> {
            long value = valueOf.applyAsLong(hash);
            out.write(bytes, offset, length);
            out.write('\t');
            if (value == BloomierMap.ABSENT) {
                out.write(ABSENT);
                absent[0]++;
            } else {
                out.write(Long.toString(value).getBytes(StandardCharsets.US_ASCII));
            }
            out.write('\n');
        });
        return absent[0];
    }

    /** The refusal of a filter that holds no values: a plain or stable fixed one, a growing or a windowed one. */
    private static InvalidFilterFileException holdsNoValues(MembershipFilter filter) {
        String kind = filter.kind() != FilterKind.FIXED ? filter.kind().toString()
                : filter.asFixed().flatMap(BloomFilter::stableSpec).isPresent() ? "stable" : "plain";
        return new InvalidFilterFileException(filter.path(), InvalidFilterFileException.Problem.INCOMPATIBLE,
                "is a " + kind + " filter and holds no values; create one with --values max|min");
    }
}
