package io.bloomstore.cli;

import static io.bloomstore.cli.Model.flag;
import static io.bloomstore.cli.Model.operand;

import io.bloomstore.BloomFilter;
import io.bloomstore.OpenMode;
import io.bloomstore.SetEstimates;
import java.nio.file.Path;
import java.util.Locale;

/** {@code bloomstore estimate}: how two key sets overlap, from their filters alone. */
final class EstimateCommand extends CliCommand {
    private static final String[] DESCRIPTION = {
        "Estimate, from two filters of the same shape, how many keys each holds, how many their union and their "
                + "intersection hold, and their Jaccard similarity (intersection / union).",
        "The estimates come from the cells that are set (Swamidass & Baldi), not from the keys; they are close "
                + "while the filters are not overfull."
    };
    private static final String[] EXAMPLES = {
        "  bloomstore estimate monday.bloom tuesday.bloom",
        "  bloomstore estimate monday.bloom tuesday.bloom --json | jq .jaccard"
    };

    private Path first;
    private Path second;
    private boolean json;

    EstimateCommand(BloomstoreCli cli) {
        super(cli, DESCRIPTION, EXAMPLES);
        command.addPositional(operand(0, "FILE", Path.class, value -> first = value)
                .description("The first filter (A).").build());
        command.addPositional(operand(1, "FILE", Path.class, value -> second = value)
                .description("The second filter (B).").build());
        command.addOption(flag(value -> json = value, "--json")
                .description("Print JSON instead of text.").build());
    }

    /** What to do with a growing or windowed file instead. */
    private static final String INSTEAD = "'inspect' shows its estimated keys, segment by segment or slot by slot";

    /**
     * The --json output. An estimate that does not exist is null (JSON has no NaN or infinity): the
     * keys of a filter whose every cell is set, and then the union, the intersection and the Jaccard
     * index that depend on them.
     */
    record Report(String a, String b, Double keysA, Double keysB, Double union, Double intersection, Double jaccard) {
    }

    @Override
    public Integer call() throws Exception {
        SetEstimates estimates;
        try (BloomFilter a = CliFilters.open(first, OpenMode.READ_ONLY, "estimate", INSTEAD);
                BloomFilter b = CliFilters.open(second, OpenMode.READ_ONLY, "estimate", INSTEAD)) {
            try (Progress progress = progress("estimate", a.info().cellsLength())) {
                estimates = SetEstimates.of(a, b, progress.callback());
            }
        }
        if (json) {
            JsonOutput.write(new Report(first.toString(), second.toString(), finite(estimates.sizeA()),
                    finite(estimates.sizeB()), finite(estimates.union()), finite(estimates.intersection()),
                    finite(estimates.jaccard())), streams().text());
        } else {
            new Table()
                    .row("A", first + ": " + CliFilters.estimatedKeys(estimates.sizeA()))
                    .row("B", second + ": " + CliFilters.estimatedKeys(estimates.sizeB()))
                    .row("union", CliFilters.estimatedKeys(estimates.union()))
                    .row("intersection", CliFilters.estimatedKeys(estimates.intersection()))
                    .row("jaccard", Double.isFinite(estimates.jaccard())
                            ? String.format(Locale.ROOT, "%.4f", estimates.jaccard()) : "unknown (a filter is full)")
                    .print(streams().text());
        }
        return ExitCode.OK;
    }

    private static Double finite(double value) {
        return Double.isFinite(value) ? value : null;
    }
}
