package io.bloomstore.cli;

/** {@code bloomstore get}: the values of keys in a Bloomier map. */
final class GetCommand extends CliCommand {
    private static final String[] DESCRIPTION = {
        "Print the value of each key: KEY<TAB>VALUE, or KEY<TAB>absent.",
        "Of a Bloomier map ('build --map'): a key of the map always gets its value; another key reads absent, except "
                + "at the rate its fingerprint bits give ('inspect' shows it), when it reads some value."
    };
    private static final String[] EXAMPLES = {
        "  bloomstore get shards.map user:1 user:2",
        "  bloomstore get shards.map --from ids.txt | cut -f2 | sort | uniq -c   # keys a shard"
    };

    private final FileAndKeys operands;

    GetCommand(BloomstoreCli cli) {
        super(cli, DESCRIPTION, EXAMPLES);
        operands = new FileAndKeys(command);
    }

    @Override
    public Integer call() throws Exception {
        // a file that is not a map is refused by the map's open, naming what it is
        return MapReports.get(this, operands);
    }
}
