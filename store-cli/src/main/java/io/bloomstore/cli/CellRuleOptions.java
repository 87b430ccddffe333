package io.bloomstore.cli;

import static io.bloomstore.cli.Model.flag;
import static io.bloomstore.cli.Model.option;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.CreateOption;
import io.bloomstore.FilterBuilder;
import io.bloomstore.Layout;
import io.bloomstore.StableSpec;
import io.bloomstore.ValuedFilter;
import io.bloomstore.ValuedFilter.Keep;
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
    private boolean stable;
    private Long sizeBytes;
    private Keep values;
    private Integer valueBits;

    /** Declares the options on {@code command}, read into this. */
    CellRuleOptions(CommandSpec command) {
        this(command, false, true);
    }

    /**
     * Declares the options on {@code command}, read into this.
     *
     * @param maps whether the command also builds Bloomier maps (build --map), whose value bits
     *     --value-bits gives too ({@link #valueBits()})
     * @param valued whether the command makes valued filters; if not (dedup), --values and
     *     --value-bits are still read, for a refusal that says what to do instead, but not listed
     *     in its help
     */
    CellRuleOptions(CommandSpec command, boolean maps, boolean valued) {
        command.addOption(flag(value -> stable = value, "--stable")
                .description("A stable filter (Deng & Rafiei 2006): a dedup index over an endless stream in fixed space. "
                        + "Each add first lowers P random cells, then sets the key's; old keys are forgotten, so the "
                        + "false-positive rate stays at P however long the stream. --expected N is then the later keys "
                        + "a key survives on average (or give --size); --counter-bits D is 1, 2 or 4 (more bits: a "
                        + "sharper forgetting curve, in more bytes).").build());
        command.addOption(option(Long.class, value -> sizeBytes = value, "--size").paramLabel("BYTES")
                .converters(new Converters.Count())
                .description("With --stable: the file's size (e.g. 64M), instead of --expected.").build());
        command.addOption(option(Keep.class, value -> values = value, "--values").paramLabel("max|min").hidden(!valued)
                .description("A filter holding a value per key: 'add FILE KEY=VALUE', 'get FILE KEY'. max keeps the "
                        + "largest value added for a key (a spatial filter's set label), min the smallest (a hop "
                        + "count, the earliest time). Reads are never below (max) or above (min) it, and exact "
                        + "with high probability.").build());
        command.addOption(option(Integer.class, value -> valueBits = value, "--value-bits").paramLabel("W").hidden(!valued)
                .description(maps ? "With --values: bits of a value, 1 to 31 (values 0 to 2^W-1); with --map, 1 to 55."
                        : "With --values: bits of a value, 1 to 31 (values 0 to 2^W-1).").build());
    }

    /** Whether a stable or valued filter is asked for. */
    boolean asked() {
        return stable || values != null || sizeBytes != null || valueBits != null;
    }

    /** Whether --values asks for a valued filter. */
    boolean valued() {
        return values != null;
    }

    /** Whether --stable or --values asks for a filter with a cell rule (which --map is not). */
    boolean kindAsked() {
        return stable || values != null || sizeBytes != null;
    }

    /** --value-bits, or null: build shares it with --map. */
    Integer valueBits() {
        return valueBits;
    }

    /**
     * Creates the file the options describe, refusing the shape options that do not apply.
     *
     * @return what was created, for the one line create prints
     * @throws IllegalArgumentException naming the option that does not fit and what to give instead
     */
    String create(Path file, boolean force, ShapeOptions shape) throws IOException {
        try (Made made = make(file, shape, shape.createOptions(force))) {
            return made.description();
        }
    }

    /** A new stable or valued filter, open read-write, and what it is in words. */
    record Made(BloomFilter filter, String description) implements AutoCloseable {
        @Override
        public void close() {
            filter.close();
        }
    }

    /**
     * Creates the stable or valued file the options describe, open read-write; the shape options
     * that do not apply are refused before anything is created.
     *
     * @throws IllegalArgumentException naming the option that does not fit and what to give instead
     */
    Made make(Path file, ShapeOptions shape, CreateOption... options) throws IOException {
        BloomFilter filter;
        if (stable) {
            StableSpec spec = stableSpec(shape);
            shape.checkSize(file, spec.spec());
            filter = BloomFilter.createStable(file, spec, options);
        } else {
            shape.checkSize(file, valuedSpec(shape));
            filter = ValuedFilter.create(file, shape.expected, shape.fpp, valueBits, values, options).filter();
        }
        return new Made(filter, describe(filter));
    }

    /**
     * A build of the stable or valued file the options describe, checked as {@link #make} checks
     * them: filled in a hidden temporary and published when complete.
     *
     * @throws IllegalArgumentException naming the option that does not fit and what to give instead
     */
    FilterBuilder builder(Path file, ShapeOptions shape, CreateOption... options) throws IOException {
        FilterBuilder builder = FilterBuilder.to(file).options(options);
        if (stable) {
            StableSpec spec = stableSpec(shape);
            shape.checkSize(file, spec.spec());
            return builder.stable(spec);
        }
        shape.checkSize(file, valuedSpec(shape));
        return builder.valued(shape.expected, shape.fpp, valueBits, values);
    }

    /** What a stable or valued filter the options made is, in words. */
    String describe(BloomFilter filter) {
        return stable ? "stable, " + CliFilters.describe(filter) + "; " + CellRuleReport.summary(filter.stableSpec().orElseThrow())
                : "valued (" + values.name().toLowerCase(java.util.Locale.ROOT) + "), values of " + valueBits
                        + (valueBits == 1 ? " bit, " : " bits, ") + CliFilters.describe(filter);
    }

    /** The checks of every kind: one kind, the standard layout, no cells or hashes given, and --fpp. */
    private void checkCommon(ShapeOptions shape) {
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
    }

    /**
     * The shape of the valued filter the options describe, checked as create checks it.
     *
     * @throws IllegalArgumentException naming the option that does not fit and what to give instead
     */
    BloomSpec valuedSpec(ShapeOptions shape) {
        checkCommon(shape);
        if (stable) {
            throw new IllegalArgumentException("--stable makes a filter without values; give --values max|min");
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
        return ValuedFilter.spec(shape.expected, shape.fpp, checkedValueBits());
    }

    /** Whether the options ask for the max rule (else min); after {@link #valuedSpec}. */
    boolean keepsMax() {
        return values == Keep.MAX;
    }

    private int checkedValueBits() {
        if (valueBits < 1 || valueBits > 31) {
            throw new IllegalArgumentException("--value-bits must be 1 to 31, not " + valueBits);
        }
        return valueBits;
    }

    /**
     * The stable filter the options describe, checked as create checks it.
     *
     * @throws IllegalArgumentException naming the option that does not fit and what to give instead
     */
    StableSpec stableSpec(ShapeOptions shape) {
        checkCommon(shape);
        if (!stable) {
            throw new IllegalArgumentException("--values makes a valued filter; this needs --stable");
        }
        if (valueBits != null) {
            throw new IllegalArgumentException("--value-bits goes with --values max|min, not --stable");
        }
        if ((shape.expected == null) == (sizeBytes == null)) {
            throw new IllegalArgumentException("--stable needs either --expected N (the later keys a key survives on "
                    + "average) or --size BYTES, not both");
        }
        return shape.expected != null
                ? StableSpec.forLifetime(shape.expected, shape.fpp, shape.counterBits)
                : StableSpec.forBytes(sizeBytes, shape.fpp, shape.counterBits);
    }
}
