package io.bloomstore.cli;

import static io.bloomstore.cli.Model.flag;
import static io.bloomstore.cli.Model.operand;
import static io.bloomstore.cli.Model.option;

import io.bloomstore.BloomFilter;
import io.bloomstore.KeySource;
import io.bloomstore.MembershipFilter;
import io.bloomstore.OpenMode;
import io.bloomstore.ValuedFilter;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** {@code bloomstore dedup}: a stream filter that passes each line once, across runs. */
final class DedupCommand extends CliCommand {
    private static final String[] DESCRIPTION = {
        "Print each input line the filter has not seen before, and add it: a dedup index that survives restarts, "
                + "because it is the file.",
        "Delivery is at least once: a line's key is marked seen only after the line has been written to stdout. "
                + "If this process is killed between the two, the line is printed again on the next run; if the "
                + "reader goes away (| head), the lines it was never sent stay unmarked. A line is never lost, "
                + "but may repeat. Output is flushed whenever the input pauses, so a consumer sees lines at once.",
        "--delivery at-most-once marks a key before its line is printed instead: a printed line never repeats, "
                + "but a kill or a closed reader between the two loses the line for good.",
        "A line already added, or a false positive (at about the filter's rate), is not printed. Lines are keys: "
                + "a trailing \\r is dropped, empty lines are skipped.",
        "FILE must exist, unless sizing options are given: then it is created on the first run and reused after.",
        "A fixed filter fills: past N keys its rate climbs and ever more new lines are dropped. For an endless "
                + "stream use --grow (every line is remembered; the file grows, up to --max-size) or --window "
                + "DURATION (a line is printed again once it has not been seen for DURATION, up to one epoch more), or --stable "
                + "(fixed space and no clock: a line is printed again once enough other lines have come, about "
                + "--expected N on average)."
    };
    private static final String[] EXAMPLES = {
        "  tail -F events.log | bloomstore dedup seen.bloom --expected 10M --fpp 1e-6 | ./handle-once",
        "  bloomstore dedup seen.bloom --from batch-2.txt > new-in-batch-2.txt",
        "  tail -F events.log | bloomstore dedup seen.bloom --expected 1M --fpp 1e-6 --grow --max-size 50G",
        "  tail -F alerts.log | bloomstore dedup recent.bloom --expected 100k --fpp 1e-4 --window 1h   # once an hour",
        "  tail -F clicks.log | bloomstore dedup clicks.bloom --stable --fpp 0.01 --expected 1M   # fixed space, forgets"
    };

    private Path file;
    private final LineInput input;
    private final ShapeOptions shape;
    private final CellRuleOptions rules;
    private boolean sync;
    private Delivery delivery = Delivery.AT_LEAST_ONCE;

    DedupCommand(BloomstoreCli cli) {
        super(cli, DESCRIPTION, EXAMPLES);
        command.addPositional(operand(0, "FILE", Path.class, value -> file = value)
                .description("The filter file: the memory of lines seen.").build());
        input = new LineInput().declareOn(command);
        shape = new ShapeOptions(command);
        rules = new CellRuleOptions(command, false, false);
        command.addOption(option(Delivery.class, value -> delivery = value, "--delivery")
                .paramLabel("at-least-once|at-most-once").converters(new Delivery.Converter())
                .description("When a line's key is marked seen: after the line is written out (at-least-once, the "
                        + "default: a line may repeat, never be lost) or before (at-most-once: a line may be lost, "
                        + "never repeat).").build());
        command.addOption(flag(value -> sync = value, "--sync")
                .description("Force the filter to disk at each delivery. At least once: right after the lines are "
                        + "written out, so after a power cut only the lines of the last delivery repeat. At most "
                        + "once: before any of them is written, so a printed line stays marked through a power cut.")
                .build());
    }

    @Override
    public Integer call() throws Exception {
        if (!input.isGiven()) {
            input.from = LineInput.STDIN;
        }
        try (MembershipFilter filter = openOrCreate()) {
            // Checked after each delivery, when the delivered keys are marked: before each read that may
            // block, so a stream that pauses hears of it before it goes on.
            CapacityWatch capacity = new CapacityWatch(filter, streams());
            DedupOutput output = new DedupOutput(filter, streams().out(), delivery, sync, capacity::afterBatch);
            output.requireRoom();
            try (KeySource lines = input.open(streams(), output);
                    Progress progress = progress("dedup", input.size())) {
                capacity.drawnOver(progress);
                lines.onProgress(progress::update).forEach(filter.hasher(), output::offer);
            }
            capacity.drawnOver(Progress.NONE);
            output.flush();
            capacity.atEnd();
        }
        return ExitCode.OK;
    }

    private MembershipFilter openOrCreate() throws Exception {
        if (rules.asked()) {
            return openOrCreateStable();
        }
        if (shape.sizeGiven() || shape.segmented()) {
            return shape.create(file, false, true);
        }
        if (!Files.exists(file)) {
            throw new NoSuchFileException(file.toString(), null, "no such filter file; create it with 'bloomstore create', "
                    + "or give --expected N --fpp P to create it on the first run");
        }
        MembershipFilter existing = CliFilters.openAny(file, OpenMode.READ_WRITE);
        if (existing.asFixed().flatMap(ValuedFilter::of).isPresent()) {
            existing.close();
            throw new IllegalArgumentException(file + " is a valued filter; " + VALUED);
        }
        return existing;
    }

    /** Why dedup takes no valued filter, and what to do instead. */
    private static final String VALUED = "dedup adds keys without values, and a valued filter takes KEY=VALUE pairs: "
            + "fill it with 'add'; for a dedup index that forgets old keys create one with --stable";

    /**
     * The stable filter the options describe: FILE as it is if it is one, else created. A valued
     * filter is refused: dedup adds keys without values.
     */
    private MembershipFilter openOrCreateStable() throws Exception {
        if (rules.valued()) {
            throw new IllegalArgumentException("--values makes a valued filter; " + VALUED);
        }
        rules.stableSpec(shape); // the options are checked as create checks them, even for a file that exists
        if (!Files.exists(file)) {
            try {
                return rules.make(file, shape, shape.createOptions(false)).filter();
            } catch (FileAlreadyExistsException e) {
                // another run created it first: use it as it is
            }
        }
        MembershipFilter existing = CliFilters.openAny(file, OpenMode.READ_WRITE);
        if (existing.asFixed().flatMap(BloomFilter::stableSpec).isEmpty()) {
            existing.close();
            throw new IllegalArgumentException(file + " is not a stable filter, but --stable asks for one; leave out the "
                    + "sizing options to use the file as it is");
        }
        return existing;
    }
}
