package io.bloomstore.cli;

import static io.bloomstore.cli.Model.flag;
import static io.bloomstore.cli.Model.option;

import io.bloomstore.KeySource;
import io.bloomstore.MembershipFilter;
import io.bloomstore.OpenMode;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** {@code bloomstore contains}: which keys may be in a filter. */
final class ContainsCommand extends CliCommand {
    private static final String[] DESCRIPTION = {
        "Check keys against a filter: the arguments after FILE, then the lines of --from.",
        "'absent' is certain; 'present' means probably present (wrong at about the filter's false-positive rate). "
                + "On a windowed filter, 'absent' means not added within the window.",
        "Prints each key with its answer, KEY<TAB>present or KEY<TAB>absent; with --print, only the keys with "
                + "that answer, unchanged, one per line: a stream filter. Exit status 0 when every key is present, "
                + "1 when any is absent, 2 on an error, so it works in 'if'."
    };
    private static final String[] EXAMPLES = {
        "  bloomstore contains users.bloom alice",
        "  if bloomstore contains -q users.bloom \"$user\"; then echo known; fi",
        "  bloomstore contains users.bloom --from - --print absent < signups.txt > really-new.txt"
    };

    /**
     * The most keys, all on the command line, that are queried without mapping the file
     * ({@link io.bloomstore.tools.UnmappedQueries}). Mapping pays the memory layer's start once; reading
     * unmapped pays up to k positional reads per key instead. Counted in instructions, 64 keys read
     * unmapped still cost far less than one key mapped, so the bound is well short of where the two
     * meet (docs/BENCHMARKS-HISTORY.md, "CLI start-up", step 13); more keys than a command line
     * usually holds come through --from, which maps.
     */
    static final int UNMAPPED_KEYS = 64;

    private static final byte[] PRESENT = "\tpresent\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ABSENT = "\tabsent\n".getBytes(StandardCharsets.US_ASCII);

    /** Which keys --print prints. */
    enum Answer { PRESENT, ABSENT }

    private final FileAndKeys operands;
    private Answer print;
    private boolean quiet;

    ContainsCommand(BloomstoreCli cli) {
        super(cli, DESCRIPTION, EXAMPLES);
        operands = new FileAndKeys(command);
        command.addOption(option(Answer.class, value -> print = value, "--print").paramLabel("present|absent")
                .description("Print only the keys with this answer, one per line, as they came in.").build());
        command.addOption(flag(value -> quiet = value, "-q", "--quiet")
                .description("Print nothing; only the exit status answers.").build());
    }

    @Override
    public Integer call() throws Exception {
        OutputStream out = streams().out();
        KeySource.Queried answered;
        try (KeySource source = operands.open(streams(), rawArguments(), out::flush);
                MembershipFilter filter = CliFilters.openAny(operands.file, OpenMode.READ_ONLY,
                        queriesUnmapped(operands.arguments.size(), operands.lines.isGiven()));
                Progress progress = progress("contains", operands.size())) {
            answered = source.onProgress(progress::update).queryIn(filter, quiet ? null : (bytes, offset, length, present) -> {
                if (print == null) {
                    out.write(bytes, offset, length);
                    out.write(present ? PRESENT : ABSENT);
                } else if (present == (print == Answer.PRESENT)) {
                    out.write(bytes, offset, length);
                    out.write('\n');
                }
            });
        }
        return answered.allPresent() ? ExitCode.OK : ExitCode.NEGATIVE;
    }

    /** Whether a query of {@code keys} arguments, and of lines too if {@code readsLines}, reads the file unmapped. */
    static boolean queriesUnmapped(int keys, boolean readsLines) {
        return !readsLines && keys <= UNMAPPED_KEYS;
    }
}
