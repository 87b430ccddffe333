package io.bloomstore.cli;

import static io.bloomstore.cli.Model.flag;
import static io.bloomstore.cli.Model.option;

import io.bloomstore.BloomFilter;
import io.bloomstore.Layout;
import io.bloomstore.StableSpec;
import io.bloomstore.ValuedFilter;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;

/**
 * create's options for the filters whose cells follow another rule than "set a bit / count"
 * (docs/FORMAT.md, "Cell rules"): {@code --stable} (with {@code --size}) and {@code --values max|min}
 * with {@code --value-bits}. The shape options they share (--expected, --fpp, --counter-bits) are
 * {@link ShapeOptions}'s; this class refuses those that do not apply.
 */
final class CellRuleOptions {
    /** Which value a valued filter keeps for a key. */
    enum Keep { MAX, MIN }

    private boolean stable;
    private Long sizeBytes;
    private Keep values;
    private Integer valueBits;

    /** Declares the options on {@code command}, read into this. */
    CellRuleOptions(CommandSpec command) {
        command.addOption(flag(value -> stable = value, "--stable")
                .description("A stable filter (Deng & Rafiei 2006): a dedup index over an endless stream in fixed space. "
                        + "Each add first lowers P random cells, then sets the key's; old keys are forgotten, so the "
                        + "false-positive rate stays at P however long the stream. --expected N is then the later keys "
                        + "a key survives on average (or give --size); --counter-bits D is 1, 2 or 4 (more bits: a "
                        + "sharper forgetting curve, in more bytes).").build());
        command.addOption(option(Long.class, value -> sizeBytes = value, "--size").paramLabel("BYTES")
                .converters(new Converters.Count())
                .description("With --stable: the file's size (e.g. 64M), instead of --expected.").build());
        command.addOption(option(Keep.class, value -> values = value, "--values").paramLabel("max|min")
                .description("A filter holding a value per key: 'add FILE KEY=VALUE', 'get FILE KEY'. max keeps the "
                        + "largest value added for a key (a spatial filter's set label), min the smallest (a hop "
                        + "count, the earliest time). Reads are never below (max) or above (min) it, and exact "
                        + "with high probability.").build());
        command.addOption(option(Integer.class, value -> valueBits = value, "--value-bits").paramLabel("W")
                .description("With --values: bits of a value, 1 to 31 (values 0 to 2^W-1).").build());
    }

    /** Whether a stable or valued filter is asked for. */
    boolean asked() {
        return stable || values != null || sizeBytes != null || valueBits != null;
    }

    /**
     * Creates the file the options describe, refusing the shape options that do not apply.
     *
     * @return what was created, for the one line create prints
     * @throws IllegalArgumentException naming the option that does not fit and what to give instead
     */
    String create(Path file, boolean force, ShapeOptions shape) throws IOException {
        String kind = stable ? "--stable" : "--values";
        if (stable && values != null) {
            throw new IllegalArgumentException("--stable and --values exclude each other: a stable filter holds no values");
        }
        if (!stable && values == null) {
            throw new IllegalArgumentException((sizeBytes != null ? "--size goes with --stable" : "--value-bits goes with --values max|min"));
        }
        if (shape.segmented() || shape.cells != null || shape.hashes != null || shape.seed != null
                || (shape.layout != null && shape.layout != Layout.STANDARD)) {
            throw new IllegalArgumentException(kind + " sizes its own cells and hashes in the standard layout; drop "
                    + "--grow, --window, --cells, --hashes, --seed and --layout");
        }
        if (shape.fpp == null) {
            throw new IllegalArgumentException("--fpp P is needed: the false-positive rate wanted, e.g. --fpp 0.01");
        }
        if (stable) {
            return createStable(file, force, shape);
        }
        if (sizeBytes != null) {
            throw new IllegalArgumentException("--size goes with --stable; a valued filter is sized by --expected N");
        }
        if (valueBits == null) {
            throw new IllegalArgumentException("--values needs --value-bits W: the bits of a value, 1 to 31");
        }
        if (shape.counterBits != 1) {
            throw new IllegalArgumentException("--values sets the cells' width from --value-bits; drop --counter-bits");
        }
        if (shape.expected == null) {
            throw new IllegalArgumentException("--values needs --expected N: the distinct keys the file is sized for");
        }
        shape.checkSize(file, ValuedFilter.spec(shape.expected, shape.fpp, checkedValueBits()));
        try (ValuedFilter created = ValuedFilter.create(file, shape.expected, shape.fpp, valueBits,
                values == Keep.MAX, shape.createOptions(force))) {
            BloomFilter filter = created.filter();
            return "valued (" + values.name().toLowerCase(java.util.Locale.ROOT) + "), values of " + valueBits
                    + (valueBits == 1 ? " bit, " : " bits, ") + CliFilters.describe(filter);
        }
    }

    private int checkedValueBits() {
        if (valueBits < 1 || valueBits > 31) {
            throw new IllegalArgumentException("--value-bits must be 1 to 31, not " + valueBits);
        }
        return valueBits;
    }

    private String createStable(Path file, boolean force, ShapeOptions shape) throws IOException {
        if (valueBits != null) {
            throw new IllegalArgumentException("--value-bits goes with --values max|min, not --stable");
        }
        if ((shape.expected == null) == (sizeBytes == null)) {
            throw new IllegalArgumentException("--stable needs either --expected N (the later keys a key survives on "
                    + "average) or --size BYTES, not both");
        }
        StableSpec spec = shape.expected != null
                ? StableSpec.forLifetime(shape.expected, shape.fpp, shape.counterBits)
                : StableSpec.forBytes(sizeBytes, shape.fpp, shape.counterBits);
        shape.checkSize(file, spec.spec());
        try (BloomFilter filter = BloomFilter.createStable(file, spec, shape.createOptions(force))) {
            return "stable, " + CliFilters.describe(filter) + "; " + CellRuleReport.summary(spec);
        }
    }
}
