package io.bloomstore.cli;

import static io.bloomstore.cli.Model.flag;
import static io.bloomstore.cli.Model.option;

import io.bloomstore.BloomFilter;
import io.bloomstore.CreateOption;
import io.bloomstore.FilterKind;
import io.bloomstore.BloomSpec;
import io.bloomstore.GrowingBloomFilter;
import io.bloomstore.GrowingSpec;
import io.bloomstore.Layout;
import io.bloomstore.ParquetFilters;
import io.bloomstore.ParquetType;
import io.bloomstore.MembershipFilter;
import io.bloomstore.WindowSpec;
import io.bloomstore.WindowedBloomFilter;
import io.bloomstore.tools.FileForensics;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The options that shape a new filter (create, build, and dedup's first run): its size, either
 * from n and p or as m and k, then counter width, layout, seed and sparseness; and its kind: fixed
 * (the default), growing (--grow) or windowed (--window). The core checks every value's range and
 * names it when it is out; this class refuses the combinations that make no sense.
 */
final class ShapeOptions {
    /** Below this many bytes of cells a filter is never refused for its size. */
    private static final long LARGE_FILTER = 1L << 30;

    Long expected;
    Double fpp;
    Long cells;
    Integer hashes;
    int counterBits;
    Layout layout;
    ParquetType parquetType;
    boolean parquetCompatible;
    Long seed;
    boolean sparse;
    boolean grow;
    Double growth;
    Long maxSize;
    Duration window;
    Integer epochs;
    boolean forceSize;

    /** Declares the shape options on {@code command}, read into this. */
    ShapeOptions(CommandSpec command) {
        this(command, true, true);
    }

    /**
     * Declares the shape options on {@code command}, read into this.
     *
     * @param windows whether the command makes windowed filters; if not, --window and --epochs are
     *     still read, for a refusal that says what to do instead, but not listed in its help
     * @param makesFiles whether the command creates the file; if not (size), the options that change
     *     nothing of its length are not declared: --seed, --sparse, --force-size
     */
    ShapeOptions(CommandSpec command, boolean windows, boolean makesFiles) {
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
                .description("Cells each key sets (k), 1 to 64: with --cells, or with --expected/--fpp to size the "
                        + "fewest cells that reach P with exactly K.").build());
        command.addOption(option(int.class, value -> counterBits = value, "--counter-bits").paramLabel("W").defaultValue("1")
                .description("Bits per cell: 1 (a plain filter, the default) or 2, 4, 8, 16, 32 (a counting filter, "
                        + "which can remove and count keys).").build());
        command.addOption(option(ParquetType.class, value -> parquetType = value, "--parquet-type").paramLabel("TYPE")
                .description("The sbbf layout: Apache Parquet's split-block filter, bit for bit, of values of this Parquet "
                        + "type (int32, int64, float, double, byte_array, fixed_len_byte_array), hashed as Parquet hashes "
                        + "them: 'contains FILE 42' asks for the number 42 in an int32 or int64 filter.").build());
        command.addOption(flag(value -> parquetCompatible = value, "--parquet-compatible")
                .description("With --parquet-type: round the filter up to a power of two from 32 B to 128 MiB, the "
                        + "sizes Parquet's readers take, so that export-sbbf can write it for them.").build());
        command.addOption(option(Layout.class, value -> layout = value, "--layout").paramLabel("standard|blocked|sectorized|sbbf")
                .description("standard (the default, except with --window, and --grow at P of 0.1%% or more), "
                        + "or blocked: all cells of a key in one cache line, faster on large filters for slightly "
                        + "more space, or sectorized: as blocked, the cells in a few whole words of the line (1-bit "
                        + "cells only). A windowed filter is blocked unless told otherwise: its query asks every "
                        + "slot, and blocked slots answer together in about two memory misses where standard ones "
                        + "take about six. A growing one at P of 0.1%% or more is sectorized: its query asks every "
                        + "segment, and a one-line segment refuses a new key in one miss where a standard one takes "
                        + "about two, a sectorized one testing whole words at once; below 0.1%% one-line segments "
                        + "would cost over 16%% more bytes. sbbf: Parquet's split-block filter "
                        + "(see --parquet-type; of byte_array keys without it).").build());
        if (makesFiles) {
            command.addOption(option(Long.class, value -> seed = value, "--seed").paramLabel("S|random")
                    .converters(new Converters.Seed())
                    .description("Hash seed (decimal or 0x-hex) or 'random'. Filters merge only with the same seed; "
                            + "the default is a fixed constant, so separately built filters merge.").build());
            command.addOption(flag(value -> sparse = value, "--sparse")
                    .description("Do not allocate the cells on disk: instant creation, but a disk that fills up later "
                            + "crashes the writer.").build());
        }
        command.addOption(flag(value -> grow = value, "--grow")
                .description("A growing filter, which never fills: a chain of segments, the first sized for N keys; "
                        + "when the newest is full a larger one with a tighter rate is added, so the false-positive "
                        + "rate stays under P however many keys arrive. Every key is kept; the file grows.").build());
        command.addOption(option(Double.class, value -> growth = value, "--growth").paramLabel("S")
                .converters(new Converters.Growth())
                .description("With --grow: each new segment holds S times the keys of the one before, 1 to 16 "
                        + "(default " + Human.factor(GrowingSpec.DEFAULT_GROWTH) + "). A file grows until --max-size "
                        + "or the disk stops it; an S so small that its table of 120 segments could fill first is "
                        + "refused (below 1.5 for a small N; 1 always).").build());
        command.addOption(option(Long.class, value -> maxSize = value, "--max-size").paramLabel("BYTES")
                .converters(new Converters.Count())
                .description("With --grow: the file never grows past BYTES (e.g. 10G); adds past it fail with a "
                        + "clear error while queries go on. Default: no limit.").build());
        command.addOption(option(Duration.class, value -> window = value, "--window").paramLabel("DURATION").hidden(!windows)
                .converters(new Converters.Window())
                .description("A time-windowed filter: a key is found for at least DURATION after it was added and "
                        + "forgotten within DURATION plus one epoch. N is the keys expected per window, P the rate "
                        + "of a query. DURATION: 90s, 30m, 24h, 7d, 1h30m or PT90S.").build());
        command.addOption(option(Integer.class, value -> epochs = value, "--epochs").paramLabel("L").hidden(!windows)
                .description("With --window: the epochs the window is cut into, 1 to 64 (default "
                        + WindowSpec.DEFAULT_EPOCHS + "); a key outlives the window by at most one epoch, "
                        + "DURATION / L.").build());
        if (makesFiles) {
            command.addOption(flag(value -> forceSize = value, "--force-size")
                    .description("Create a filter even if its cells take more than twice this machine's memory, which "
                            + "is refused without it: every add and query would wait for the disk.").build());
        }
    }

    /** Whether --grow or --window asks for a growing or windowed filter (after {@link #checkKind}). */
    boolean segmented() {
        return grow || window != null;
    }

    /**
     * Refuses what does not go with the kind asked for: --grow with --window, either with
     * --cells/--hashes, counters or --sparse, and the options of one kind without it.
     *
     * @throws IllegalArgumentException saying which options clash and what to give instead
     */
    void checkKind() {
        if (growth != null && !grow || maxSize != null && !grow) {
            throw new IllegalArgumentException((growth != null ? "--growth" : "--max-size") + " goes with --grow");
        }
        if (epochs != null && window == null) {
            throw new IllegalArgumentException("--epochs goes with --window DURATION");
        }
        if (!segmented()) {
            return;
        }
        String kind = grow ? "--grow" : "--window";
        if (grow && window != null) {
            throw new IllegalArgumentException("--grow and --window exclude each other: a filter either keeps every key "
                    + "and grows, or forgets keys older than a window");
        }
        if (cells != null || hashes != null) {
            throw new IllegalArgumentException(kind + " sizes its parts from --expected N and --fpp P; "
                    + "it does not take --cells/--hashes");
        }
        if (counterBits != 1) {
            throw new IllegalArgumentException(kind + " makes plain filters (1-bit cells); --counter-bits "
                    + counterBits + " (a counting filter) is for fixed filters only");
        }
        if (sparse) {
            throw new IllegalArgumentException(kind + " allocates its parts whole; --sparse is for fixed filters only");
        }
        if (parquetType != null || parquetCompatible || layout == Layout.SBBF) {
            throw new IllegalArgumentException(kind + " does not make Parquet's filters, which have one fixed size;"
                    + " leave out --parquet-type, --parquet-compatible and --layout sbbf");
        }
    }

    /**
     * The growing filter the options describe.
     *
     * @param defaultKeys n when --expected is not given; null if --expected is needed
     */
    GrowingSpec growingSpec(Long defaultKeys) {
        if (expected == null && defaultKeys == null) {
            throw new IllegalArgumentException("--grow needs --expected N: the keys its first segment holds");
        }
        double fpp = requireFpp();
        return new GrowingSpec(expected != null ? expected : defaultKeys, fpp,
                growth != null ? growth : GrowingSpec.DEFAULT_GROWTH, GrowingSpec.DEFAULT_TIGHTENING,
                maxSize != null ? maxSize : 0, layoutOr(GrowingSpec.defaultLayout(fpp)), seed != null ? seed : BloomSpec.DEFAULT_SEED);
    }

    /** The windowed filter the options describe. */
    WindowSpec windowSpec() {
        if (expected == null) {
            throw new IllegalArgumentException("--window needs --expected N: the keys expected per window");
        }
        return new WindowSpec(expected, requireFpp(), window, epochs != null ? epochs : WindowSpec.DEFAULT_EPOCHS,
                layoutOr(WindowSpec.DEFAULT_LAYOUT), seed != null ? seed : BloomSpec.DEFAULT_SEED);
    }

    /** The layout given, else the default of the kind asked for. */
    private Layout layoutOr(Layout kindDefault) {
        return layout != null ? layout : kindDefault;
    }

    private double requireFpp() {
        if (fpp == null) {
            throw new IllegalArgumentException("--fpp P is needed: the false-positive rate of a query, e.g. --fpp 0.01");
        }
        return fpp;
    }

    /**
     * Creates the filter the options describe, of any kind (a windowed one on the system clock).
     *
     * @param openExisting open {@code file} read-write if it exists instead of failing
     */
    MembershipFilter create(Path file, boolean replaceExisting, boolean openExisting) throws IOException {
        checkKind();
        // an existing file is opened as it is, however large: only a new one is checked for its size
        boolean opening = openExisting && Files.exists(file);
        if (opening) {
            requireKindOf(file);
        }
        if (grow) {
            GrowingSpec spec = growingSpec(null);
            if (!opening) {
                checkSize(file, spec.expectedKeys(), spec.fpp(), spec.layout());
            }
            return openExisting ? GrowingBloomFilter.openOrCreate(file, spec)
                    : GrowingBloomFilter.create(file, spec, createOptions(replaceExisting));
        }
        if (window != null) {
            WindowSpec spec = windowSpec();
            if (!opening) {
                checkSize(file, spec.expectedKeys(), spec.fpp(), spec.layout());
            }
            return openExisting ? WindowedBloomFilter.openOrCreate(file, spec, Clock.systemUTC())
                    : WindowedBloomFilter.create(file, spec, Clock.systemUTC(), createOptions(replaceExisting));
        }
        BloomSpec spec = spec(null);
        if (!opening) {
            checkSize(file, spec);
        }
        return openExisting ? BloomFilter.openOrCreate(file, spec, createOptions(false))
                : BloomFilter.create(file, spec, createOptions(replaceExisting));
    }

    /**
     * Refuses an existing {@code file} of another kind than the options ask for, naming both: the
     * opener of the kind asked for would report only that the file is not of its format.
     */
    private void requireKindOf(Path file) throws IOException {
        FilterKind asked = grow ? FilterKind.GROWING : window != null ? FilterKind.WINDOWED : FilterKind.FIXED;
        FilterKind found = FileForensics.kind(file);
        if (Files.isRegularFile(file) && found != asked) {
            String kindOption = found == FilterKind.GROWING ? "--grow" : found == FilterKind.WINDOWED ? "--window" : null;
            throw new IllegalArgumentException(file + " is a " + found + " filter, but the options describe a " + asked
                    + " one; leave out the sizing options to use the file as it is"
                    + (kindOption != null ? ", or give " + kindOption + " with the options it was created with" : ""));
        }
    }

    /**
     * Refuses, unless --force-size, a filter whose cells alone take more than twice this machine's
     * memory: its pages cannot stay cached, so every add and query would wait for the disk (a
     * mistyped --expected 10G instead of 10M allocates gigabytes). A file too large for the disk
     * is refused by the library, which knows its exact length.
     */
    void checkSize(Path file, BloomSpec spec) {
        if (forceSize || spec.cellBytes() < LARGE_FILTER) {
            return; // a small filter is let through without asking the JVM for the machine's memory
        }
        long memory = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getTotalMemorySize();
        if (spec.cellBytes() / 2 > memory) {
            throw new IllegalArgumentException(file + ": its cells would take " + Human.bytes(spec.cellBytes())
                    + ", more than twice this machine's memory (" + Human.bytes(memory) + "), so every add and query "
                    + "would wait for the disk; size it smaller (--expected, --fpp), or give --force-size to create it anyway");
        }
    }

    /** {@link #checkSize(Path, BloomSpec)} for a growing or windowed filter, by a fixed one for N keys at P: less than its whole file. */
    void checkSize(Path file, long expectedKeys, double fpp, Layout kindLayout) {
        checkSize(file, BloomSpec.builder().expectedKeys(expectedKeys).fpp(fpp).layout(kindLayout).build());
    }

    /** Whether any sizing option was given. */
    boolean sizeGiven() {
        return expected != null || fpp != null || cells != null || hashes != null;
    }

    /** Whether the size depends on a key count that was not given (build then counts the keys). */
    boolean needsKeyCount() {
        return expected == null && cells == null;
    }

    /**
     * The spec the options describe.
     *
     * @param keyCount n when --expected is not given (build counts the lines); null if unknown
     * @throws IllegalArgumentException naming what is missing, contradictory or out of range
     */
    BloomSpec spec(Long keyCount) {
        if (parquetType != null && layout != null && layout != Layout.SBBF) {
            throw new IllegalArgumentException("--parquet-type makes an sbbf filter, not a " + Human.name(layout)
                    + " one; leave out --layout");
        }
        if (parquetCompatible) {
            if (parquetType == null || expected == null || fpp == null) {
                throw new IllegalArgumentException("--parquet-compatible needs --parquet-type TYPE --expected N --fpp P");
            }
            return ParquetFilters.spec(parquetType, expected, fpp, true);
        }
        BloomSpec.Builder builder = BloomSpec.builder().counterBits(counterBits).layout(layoutOr(Layout.STANDARD));
        if (seed != null) {
            builder.seed(seed);
        }
        if (parquetType != null) {
            builder.parquetType(parquetType);
        }
        if (cells != null) {
            if (expected != null || fpp != null) {
                throw new IllegalArgumentException("give either --expected N and --fpp P, or --cells M and --hashes K, not both");
            }
            if (hashes == null) {
                throw new IllegalArgumentException("--cells needs --hashes K");
            }
            return builder.cells(cells).hashes(hashes).build();
        }
        if (hashes != null) {
            // k given with n and p: the fewest cells that reach p with exactly that k (FORMAT.md, "Sizing").
            builder.hashes(hashes);
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
        return builder.expectedKeys(keyCount).fpp(fpp).build();
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
