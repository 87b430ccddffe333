package io.bloomstore.cli;

import static io.bloomstore.cli.Model.flag;
import static io.bloomstore.cli.Model.operand;
import static io.bloomstore.cli.Model.operands;
import static io.bloomstore.cli.Model.option;

import io.bloomstore.FilterFileSummary;
import io.bloomstore.Merge;
import io.bloomstore.MergeOp;
import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.MembershipFilter;
import io.bloomstore.OpenMode;
import java.io.IOException;
import java.util.ArrayList;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongConsumer;

/** {@code bloomstore merge}: the union or intersection of filters, into a new file. */
final class MergeCommand extends CliCommand {
    private static final String[] DESCRIPTION = {
        "Combine two or more filters of the same shape (cells, hashes, counter bits, layout, hash and seed) "
                + "into a new filter OUT.",
        "--op or (the default) gives the union: exactly the filter of all keys of all inputs; --op and contains "
                + "the intersection (with a higher false-positive rate than a filter built from it). Counting "
                + "filters add (or) or take the minimum (and) of their counters.",
        "An intersection finds a key exactly when every input does, so its false-positive rate depends on the key: "
                + "--op and prints the rate for a key in none of the inputs (what 'inspect' shows for the result) and "
                + "the rate, many times higher, for a key in some inputs but not all (that of the inputs it is missing "
                + "from).",
        "Growing filters combine segment by segment (the result as long as the longest chain), windowed ones "
                + "slot by slot at the latest epoch of the inputs; both by --op or only, and the result stays open "
                + "to adds.",
        "Inputs of different kinds or shapes are refused, naming the field that differs. OUT appears only when "
                + "complete, a fixed filter sealed; an existing OUT is kept unless --force."
    };
    private static final String[] EXAMPLES = {
        "  bloomstore merge all.bloom part-1.bloom part-2.bloom part-3.bloom",
        "  bloomstore merge both.bloom monday.bloom tuesday.bloom --op and"
    };

    private Path out;
    private List<Path> inputs;
    private MergeOp op;
    private boolean force;

    MergeCommand(BloomstoreCli cli) {
        super(cli, DESCRIPTION, EXAMPLES);
        command.addPositional(operand(0, "OUT", Path.class, value -> out = value)
                .description("The filter file to write.").build());
        command.addPositional(operands(1, "2..*", "IN", Path.class, values -> inputs = values)
                .description("The filters to combine, two or more.").build());
        command.addOption(option(MergeOp.class, value -> op = value, "--op").paramLabel("or|and").defaultValue("or")
                .description("or: union (the default); and: intersection.").build());
        command.addOption(flag(value -> force = value, "--force")
                .description("Replace OUT if it exists (atomically, once the merge is complete).").build());
    }

    @Override
    public Integer call() throws Exception {
        List<MembershipFilter> sources = new ArrayList<>();
        try {
            // each input is opened once: merged, and its rate read, through that one handle
            for (Path input : inputs) {
                sources.add(CliFilters.openAny(input, OpenMode.READ_ONLY));
            }
            FilterFileSummary merged;
            // the bar only counts: nothing here reads the inputs' sizes by path
            try (Progress progress = progress("merge", -1)) {
                merged = Merge.toNewFileFrom(out, sources, op, progress::update, replacing(force));
            }
            if (merged.info().isEmpty()) {
                // the result of growing or windowed inputs stays open to adds: version 2 has no seal
                streams().text().println("merged " + inputs.size() + " " + Human.name(merged.kind()) + " filters ("
                        + Human.name(op) + ") into " + out + " (" + Human.bytes(merged.fileLength()) + ")");
                return ExitCode.OK;
            }
            BloomSpec spec = merged.info().get().spec();
            streams().text().println("merged " + inputs.size() + " filters (" + Human.name(op) + ") into " + out + ": "
                    + Human.shape(spec, merged.fileLength()) + "; sealed");
            if (op == MergeOp.AND) {
                streams().text().println(intersectionRates(spec, sources));
            }
            return ExitCode.OK;
        } finally {
            for (MembershipFilter source : sources) {
                source.close();
            }
        }
    }

    /**
     * The false-positive rates of an intersection, which no single figure describes. A key is found
     * in the AND of filters exactly when every input finds it (a cell is set in the result when it is
     * set in every input), so a key in none of the inputs is found at the rate the result's fill
     * gives, the figure inspect shows for any filter; but a key in some inputs and missing from
     * others is found at the rate of the inputs it is missing from: of one input when it is missing
     * from one, which can be many times the first (issue 17 measured 28x). Both are printed, the
     * second as the highest input's rate, which bounds it. Costs one more scan of each input and of
     * the result, which the merge has just read (so they are in the page cache, unless larger than it).
     */
    private String intersectionRates(BloomSpec spec, List<MembershipFilter> sources) throws IOException {
        double highest = -1;
        Path highestInput = null;
        double none;
        try (Progress progress = progress("rates", (inputs.size() + 1) * spec.cellBytes())) {
            long done = 0;
            for (MembershipFilter source : sources) {
                double rate = currentFpp(source, progress, done);
                done += spec.cellBytes();
                if (rate > highest) {
                    highest = rate;
                    highestInput = source.path();
                }
            }
            // the result just written, opened for its fill: the one file read by path here
            try (BloomFilter result = BloomFilter.open(out, OpenMode.READ_ONLY)) {
                none = currentFpp(result, progress, done);
            }
        }
        return "false positives of the intersection: " + Human.percent(none) + " for a key in none of the inputs; up to "
                + Human.percent(highest) + " for a key in some of them but not all (it is found at the rate of the "
                + "inputs it is missing from; " + highestInput + "'s is the highest)";
    }

    private static double currentFpp(MembershipFilter filter, Progress progress, long before) {
        LongConsumer callback = progress.callback();
        return filter.stats(callback == null ? null : bytes -> callback.accept(before + bytes)).currentFpp();
    }
}
