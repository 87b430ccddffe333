package io.bloomstore.cli;

import static io.bloomstore.cli.Model.flag;
import static io.bloomstore.cli.Model.option;

import io.bloomstore.CreateOption;
import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The options that shape a new filter (create, build, and dedup's first run): its size, either
 * from n and p or as m and k, then counter width, layout, seed and sparseness. The core checks
 * every value's range and names it when it is out.
 */
final class ShapeOptions {
    Long expected;
    Double fpp;
    Long cells;
    Integer hashes;
    int counterBits;
    Layout layout;
    Long seed;
    boolean sparse;

    /** Declares the shape options on {@code command}, read into this. */
    ShapeOptions(CommandSpec command) {
        command.addOption(option(Long.class, value -> expected = value, "--expected").paramLabel("N")
                .converters(new Converters.Count())
                .description("Distinct keys the filter is sized for: 1000000, 1_000_000, 10M or 1e6.").build());
        command.addOption(option(Double.class, value -> fpp = value, "--fpp").paramLabel("P")
                .converters(new Converters.Rate())
                .description("False-positive rate wanted at N keys: 0.01, 1e-6 or 1%%.").build());
        command.addOption(option(Long.class, value -> cells = value, "--cells").paramLabel("M")
                .converters(new Converters.Count())
                .description("Exact number of cells (m), instead of --expected/--fpp; needs --hashes.").build());
        command.addOption(option(Integer.class, value -> hashes = value, "--hashes").paramLabel("K")
                .description("Cells each key sets (k), 1 to 64; goes with --cells.").build());
        command.addOption(option(int.class, value -> counterBits = value, "--counter-bits").paramLabel("W").defaultValue("1")
                .description("Bits per cell: 1 (a plain filter, the default) or 2, 4, 8, 16, 32 (a counting filter, "
                        + "which can remove and count keys).").build());
        command.addOption(option(Layout.class, value -> layout = value, "--layout").paramLabel("standard|blocked")
                .defaultValue("standard")
                .description("standard (the default), or blocked: all cells of a key in one cache line, faster on "
                        + "large filters for slightly more space.").build());
        command.addOption(option(Long.class, value -> seed = value, "--seed").paramLabel("S|random")
                .converters(new Converters.Seed())
                .description("Hash seed (decimal or 0x-hex) or 'random'. Filters merge only with the same seed; "
                        + "the default is a fixed constant, so separately built filters merge.").build());
        command.addOption(flag(value -> sparse = value, "--sparse")
                .description("Do not allocate the cells on disk: instant creation, but a disk that fills up later "
                        + "crashes the writer.").build());
    }

    /** Whether any sizing option was given. */
    boolean sizeGiven() {
        return expected != null || fpp != null || cells != null || hashes != null;
    }

    /** Whether the size depends on a key count that was not given (build then counts the keys). */
    boolean needsKeyCount() {
        return expected == null && cells == null && hashes == null;
    }

    /**
     * The spec the options describe.
     *
     * @param keyCount n when --expected is not given (build counts the lines); null if unknown
     * @throws IllegalArgumentException naming what is missing, contradictory or out of range
     */
    BloomSpec spec(Long keyCount) {
        BloomSpec.Builder builder = BloomSpec.builder().counterBits(counterBits).layout(layout);
        if (seed != null) {
            builder.seed(seed);
        }
        boolean byCells = cells != null || hashes != null;
        if (byCells) {
            if (expected != null || fpp != null) {
                throw new IllegalArgumentException("give either --expected N and --fpp P, or --cells M and --hashes K, not both");
            }
            if (cells == null || hashes == null) {
                throw new IllegalArgumentException(cells == null ? "--hashes needs --cells M" : "--cells needs --hashes K");
            }
            return builder.cells(cells).hashes(hashes).build();
        }
        if (fpp == null) {
            if (expected == null && keyCount == null) {
                throw new IllegalArgumentException("give the filter's size: --expected N --fpp P, or --cells M --hashes K");
            }
            throw new IllegalArgumentException("--fpp P is needed: the false-positive rate wanted"
                    + (expected != null ? " at " + expected + " keys" : "") + ", e.g. --fpp 0.01");
        }
        if (expected != null) {
            return builder.expectedKeys(expected).fpp(fpp).build();
        }
        if (keyCount == null) {
            throw new IllegalArgumentException("--expected N is needed: the number of keys the filter is sized for");
        }
        // An empty input still makes a valid, if tiny, filter.
        return builder.expectedKeys(Math.max(1, keyCount)).fpp(fpp).build();
    }

    /** The create options these flags ask for. */
    CreateOption[] createOptions(boolean replaceExisting) {
        List<CreateOption> options = new ArrayList<>(2);
        if (sparse) {
            options.add(CreateOption.SPARSE);
        }
        if (replaceExisting) {
            options.add(CreateOption.REPLACE_EXISTING);
        }
        return options.toArray(new CreateOption[0]);
    }
}
