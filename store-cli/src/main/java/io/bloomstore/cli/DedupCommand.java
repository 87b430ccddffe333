package io.bloomstore.cli;

import static io.bloomstore.cli.Model.flag;
import static io.bloomstore.cli.Model.operand;

import io.bloomstore.KeySource;
import io.bloomstore.MembershipFilter;
import io.bloomstore.OpenMode;
import java.io.Flushable;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** {@code bloomstore dedup}: a stream filter that passes each line once, across runs. */
final class DedupCommand extends CliCommand {
    private static final String[] DESCRIPTION = {
        "Print each input line the filter has not seen before, and add it: a dedup index that survives restarts, "
                + "because it is the file.",
        "A line is added before it is printed, so every printed line is stored, even if this process is killed "
                + "right after; with --sync it is also on disk before it is printed. Output is flushed whenever "
                + "the input pauses, so a consumer sees lines at once.",
        "A line already added, or a false positive (at about the filter's rate), is not printed. Lines are keys: "
                + "a trailing \\r is dropped, empty lines are skipped.",
        "FILE must exist, unless sizing options are given: then it is created on the first run and reused after.",
        "A fixed filter fills: past N keys its rate climbs and ever more new lines are dropped. For an endless "
                + "stream use --grow (every line is remembered; the file grows, up to --max-size) or --window "
                + "DURATION (a line is printed again once it has not been seen for DURATION, up to one epoch more)."
    };
    private static final String[] EXAMPLES = {
        "  tail -F events.log | bloomstore dedup seen.bloom --expected 10M --fpp 1e-6 | ./handle-once",
        "  bloomstore dedup seen.bloom --from batch-2.txt > new-in-batch-2.txt",
        "  tail -F events.log | bloomstore dedup seen.bloom --expected 1M --fpp 1e-6 --grow --max-size 50G",
        "  tail -F alerts.log | bloomstore dedup recent.bloom --expected 100k --fpp 1e-4 --window 1h   # once an hour"
    };

    private Path file;
    private final LineInput input;
    private final ShapeOptions shape;
    private boolean sync;

    DedupCommand(BloomstoreCli cli) {
        super(cli, DESCRIPTION, EXAMPLES);
        command.addPositional(operand(0, "FILE", Path.class, value -> file = value)
                .description("The filter file: the memory of lines seen.").build());
        input = new LineInput().declareOn(command);
        shape = new ShapeOptions(command);
        command.addOption(flag(value -> sync = value, "--sync")
                .description("Force the filter to disk before each output flush: printed lines survive a power cut.").build());
    }

    @Override
    public Integer call() throws Exception {
        if (!input.isGiven()) {
            input.from = LineInput.STDIN;
        }
        OutputStream out = streams().out();
        try (MembershipFilter filter = openOrCreate()) {
            Flushable publish = sync ? () -> {
                filter.sync();
                out.flush();
            } : out;
            try (KeySource lines = input.open(streams(), publish);
                    Progress progress = progress("dedup", input.size())) {
                lines.onProgress(progress::update).forEach(filter.hasher(), (bytes, offset, length, hash) -> {
                    if (filter.addHash(hash)) {
                        out.write(bytes, offset, length);
                        out.write('\n');
                    }
                });
            }
            publish.flush();
            Filters.warnIfPastCapacity(filter, streams());
        }
        return ExitCode.OK;
    }

    private MembershipFilter openOrCreate() throws Exception {
        if (shape.sizeGiven() || shape.segmented()) {
            return shape.create(file, false, true);
        }
        if (!Files.exists(file)) {
            throw new NoSuchFileException(file.toString(), null, "no such filter file; create it with 'bloomstore create', "
                    + "or give --expected N --fpp P to create it on the first run");
        }
        return Filters.openAny(file, OpenMode.READ_WRITE);
    }
}
