package io.bloomstore.cli;

import static io.bloomstore.cli.Model.flag;
import static io.bloomstore.cli.Model.operand;

import io.bloomstore.BloomSpec;
import io.bloomstore.FilterBuilder;
import io.bloomstore.GrowingSpec;
import io.bloomstore.MembershipFilter;
import io.bloomstore.OpenMode;
import java.nio.file.Files;
import java.nio.file.Path;

/** {@code bloomstore build}: a new, sealed filter from a file of keys. */
final class BuildCommand extends CliCommand {
    private static final String[] DESCRIPTION = {
        "Build a filter from keys, one per line: size it, fill it, seal it (record a checksum of its cells, "
                + "which 'verify' checks).",
        "Sized for --expected N keys at --fpp P; without --expected the lines are counted first (from stdin they "
                + "are spooled to a temporary file beside FILE to be counted, then deleted).",
        "FILE appears only when complete: a failed build leaves nothing. An existing FILE is kept unless --force.",
        "With --grow, a growing filter, for keys whose number is not known up front: the input is read once (stdin "
                + "is not spooled), the first segment holds --expected N keys (1M when not given) and segments are "
                + "added as the keys come; it is not sealed (a growing file is for adding to).",
        "With --stable, a stable filter from the keys (sized as 'create --stable' sizes it); with --values max|min "
                + "--value-bits W, a valued filter from KEY<TAB>VALUE lines (--expected N is needed)."
    };
    private static final String[] EXAMPLES = {
        "  bloomstore build words.bloom --from /usr/share/dict/words --fpp 0.001",
        "  zcat ids.gz | bloomstore build ids.bloom --from - --expected 50M --fpp 1e-4 --layout blocked",
        "  bloomstore build part-1.bloom --from part-1.txt --expected 1G --fpp 0.01   # then merge the parts",
        "  kafka-cat ids | bloomstore build ids.bloom --from - --fpp 1e-6 --grow   # any number of keys",
        "  bloomstore build labels.bloom --values max --value-bits 2 --from labels.tsv --expected 1M --fpp 0.001",
        "  bloomstore build shards.map --map --from user-shard.tsv --value-bits 10 --fpp 1e-4   # KEY<TAB>VALUE lines"
    };

    /** The keys of a growing filter's first segment when --expected is not given: a stream of unknown length. */
    static final long DEFAULT_GROWING_KEYS = 1_000_000;

    private Path file;
    private final LineInput input;
    private final ShapeOptions shape;
    private final MapBuildOptions map;
    private final CellRuleOptions rules;
    private boolean force;

    BuildCommand(BloomstoreCli cli) {
        super(cli, DESCRIPTION, EXAMPLES);
        command.addPositional(operand(0, "FILE", Path.class, value -> file = value)
                .description("The filter file to build.").build());
        input = new LineInput().declareOn(command);
        shape = new ShapeOptions(command, false, true);
        command.addOption(flag(value -> force = value, "--force")
                .description("Replace FILE if it exists (atomically, once the new filter is complete).").build());
        map = new MapBuildOptions().declareOn(command);
        rules = new CellRuleOptions(command, true, true);
    }

    @Override
    public Integer call() throws Exception {
        if (map.isGiven()) {
            return map.build(this, file, input, force, shape, rules);
        }
        if (rules.asked()) {
            return CellRuleBuild.run(this, file, input, force, shape, rules);
        }
        if (!input.isGiven()) {
            throw new IllegalArgumentException("build needs --from PATH (or --from - for stdin): the keys, one per line");
        }
        shape.checkKind();
        if (shape.window != null) {
            throw new IllegalArgumentException("build makes fixed or growing filters; a windowed one forgets by the "
                    + "clock: create it with --window, then fill it with 'add' or 'dedup'");
        }
        FilterBuilder builder = FilterBuilder.to(file).options(shape.createOptions(force)).progress(this::progress);
        if (shape.grow) {
            GrowingSpec growing = shape.growingSpec(DEFAULT_GROWING_KEYS);
            shape.checkSize(file, growing.expectedKeys(), growing.fpp(), growing.layout());
            builder.growing(growing);
        } else if (shape.needsKeyCount()) {
            shape.spec(1L); // refuse bad options before reading any input (1: the count is not known yet)
            builder.sizedFor(this::sizedForCount);
        } else {
            BloomSpec spec = shape.spec(null);
            shape.checkSize(file, spec);
            builder.spec(spec);
        }
        FilterBuilder.Built built = input.isStdin() ? builder.fromLines(streams().in()) : builder.fromLines(input.path());
        String made;
        if (built.spec() != null) {
            made = Human.shape(built.spec(), Files.size(file)) + "; sealed";
        } else {
            try (MembershipFilter growing = CliFilters.openAny(file, OpenMode.READ_ONLY)) {
                made = CliFilters.describe(growing);
            }
        }
        streams().text().println("built " + file + " from " + CliFilters.keys(built.keys()) + " (" + newCells(built) + "): "
                + made);
        BloomSpec spec = built.spec();
        if (spec != null && spec.expectedKeys() > 0 && built.newKeys() > spec.expectedKeys()) {
            CliFilters.pastCapacity(file, spec, built.newKeys()).printTo(streams(), false);
        }
        return ExitCode.OK;
    }

    /**
     * The shape for the counted keys. No keys is refused: an empty input is far more often a
     * mistake upstream (an empty export, a wrong path in a pipeline) than a wish for a filter that
     * holds nothing, and a filter sized for no keys would have no capacity to hold the ones added
     * later; --expected N builds an empty filter on purpose.
     */
    private BloomSpec sizedForCount(long keys) {
        if (keys == 0) {
            throw new IllegalArgumentException(input.name() + " has no keys (no non-empty lines) to size the filter by; give --expected N to build an "
                    + "empty filter for N keys");
        }
        BloomSpec spec = shape.spec(keys);
        shape.checkSize(file, spec);
        return spec;
    }

    /**
     * What the count of "new" keys means: those that set a cell; the rest found every cell of theirs
     * set already, either repeated lines or false positives among distinct ones, which the filter
     * cannot tell apart. Said so, lest a user read "new" as "distinct" and the rest as duplicates.
     */
    private static String newCells(FilterBuilder.Built built) {
        long others = built.keys() - built.newKeys();
        return Human.count(built.newKeys()) + " set a new cell" + (others == 0 ? ""
                : "; " + Human.count(others) + " found all theirs set: repeated lines or false positives");
    }
}
