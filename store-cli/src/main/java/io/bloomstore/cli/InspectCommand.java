package io.bloomstore.cli;

import static io.bloomstore.cli.Model.flag;
import static io.bloomstore.cli.Model.operand;

import io.bloomstore.FilterShape;
import io.bloomstore.FillStats;
import io.bloomstore.MembershipFilter;
import io.bloomstore.StoredFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/** {@code bloomstore inspect}: what a filter file is and how full it is. */
final class InspectCommand extends CliCommand {
    private static final String[] DESCRIPTION = {
        "Describe a filter: every header field, its state (sealed, open writers, insertions), and from one scan "
                + "of its cells how full it is: cells set, fill ratio, estimated number of keys, and the "
                + "false-positive rate it has now: the chance that a key never added is reported present. Of a filter "
                + "made by 'merge --op and', that is the rate of a key in none of its inputs; a key in some of them but "
                + "not all is found at the rate of the inputs it is missing from (merge prints it).",
        "For a growing or windowed filter: its parameters (first segment's keys, growth, max size; or window, "
                + "epochs, current epoch), then for each segment or slot its cells, hashes, capacity, keys, cells "
                + "set, fill, estimated keys and its target and current false-positive rates, and the rate of a "
                + "query now.",
        "--json prints the same as one JSON object, for scripts."
    };
    private static final String[] EXAMPLES = {
        "  bloomstore inspect users.bloom",
        "  bloomstore inspect users.bloom --json | jq .currentFpp",
        "  bloomstore inspect seen.bloom --json | jq '.parts[] | .fillRatio'   # a growing or windowed filter"
    };

    private Path file;
    private boolean json;

    InspectCommand(BloomstoreCli cli) {
        super(cli, DESCRIPTION, EXAMPLES);
        command.addPositional(operand(0, "FILE", Path.class, value -> file = value)
                .description("The filter file.").build());
        command.addOption(flag(value -> json = value, "--json")
                .description("Print JSON instead of text.").build());
    }

    @Override
    public Integer call() throws Exception {
        try (StoredFile stored = CliFilters.openStored(file)) {
            return stored.match(this::inspect, valued -> inspect(valued.filter()), map -> MapReports.inspect(this, map, json));
        }
    }

    /** Scans the filter's cells, then prints what its headers say and how full it is. */
    private int inspect(MembershipFilter filter) throws IOException {
        FillStats stats;
        try (Progress progress = progress("inspect", filter.shape().scanBytes())) {
            stats = filter.stats(progress.callback());
        }
        // the headers are read after the scan, as of the cells it counted: a growth meanwhile shows in both
        FilterShape shape = filter.shape();
        CellRuleReport cellRule = filter.asFixed().map(fixed -> CellRuleReport.of(fixed, stats.fillRatio())).orElse(null);
        Object report = shape.map(fixed -> FilterReport.of(file, fixed, stats, filter.isPastCapacity(), cellRule),
                growing -> SegmentedReport.of(file, growing, stats),
                windowed -> SegmentedReport.of(file, windowed, stats, filter.isPastCapacity()));
        PrintWriter out = streams().text();
        if (json) {
            JsonOutput.write(report, out);
        } else if (report instanceof FilterReport fixed) {
            Table table = describe(fixed);
            if (fixed.cellRule() != null) {
                fixed.cellRule().addRows(table);
            }
            table.print(out);
        } else {
            SegmentedReport segmented = (SegmentedReport) report;
            describe(segmented).print(out);
            out.println();
            parts(segmented).print(out);
        }
        return ExitCode.OK;
    }

    private static Table describe(FilterReport r) {
        return new Table()
                .row("file", r.file())
                .row("size on disk", sizeOnDisk(r.fileBytes()) + (r.sparse() ? ", created sparse" : "") + ")")
                .row("format", r.magic() + " version " + r.formatVersion() + ", header CRC32C " + r.headerCrc32c()
                        + (r.fileIdentity() == null ? ", no file identity (version 1)" : ", file identity " + r.fileIdentity()))
                .row("cells (m)", Human.count(r.cells()) + " of " + r.counterBits() + (r.cellRule() != null
                        ? (r.counterBits() == 1 ? " bit" : " bits") + " (" + r.cellRule().rule() + " cells, see cell rule)"
                        : r.counterBits() == 1 ? " bit (plain filter)" : " bits (counting filter)"))
                .row("hashes (k)", Integer.toString(r.hashes()))
                .row("layout", r.layout() + (r.parquetType() == null ? ""
                        : " (Parquet's split-block filter; keys are Parquet " + r.parquetType() + " values)"))
                .row("hash", r.hashAlgorithm() + ", seed " + r.seed())
                .row("sized for", r.expectedKeys() == null ? "given as cells and hashes"
                        : (r.cellRule() != null && r.cellRule().rule().equals("stable") ? "a lifetime of "
                                + Human.count(r.expectedKeys()) + " later adds" : CliFilters.keys(r.expectedKeys()))
                                + " at " + Human.percent(r.targetFpp()) + " false positives")
                .row("created", r.created())
                .row("sealed", r.sealed() ? "yes, cells checksum " + r.cellsChecksum() : "no: " + CliFilters.NOT_SEALED)
                .row("open writers", Integer.toString(r.openWriters()))
                .row("insertions", Human.count(r.approximateInsertions()) + " (adds that set a cell; approximate)")
                .row("cells set", Human.count(r.setCells()) + " (" + Human.percent(r.fillRatio()) + ")")
                .row("estimated keys", r.estimatedKeys() == null ? Human.estimate(Double.POSITIVE_INFINITY)
                        : Human.estimate(r.estimatedKeys()))
                .row("false positives", Human.percent(r.currentFpp()) + " now, for a key never added (to any input, "
                        + "if it is an intersection made by merge --op and)"
                        + (Boolean.TRUE.equals(r.pastCapacity()) ? "; past the " + CliFilters.keys(r.expectedKeys())
                                + " it was sized for: rebuild it larger, or use --grow or --window" : ""));
    }

    /** "1.1 MiB (1,150,976 bytes", left open for what follows. */
    private static String sizeOnDisk(long bytes) {
        return Human.bytes(bytes) + " (" + Human.count(bytes) + " bytes";
    }

    private static Table describe(SegmentedReport r) {
        Table table = new Table().row("file", r.file()).row("size on disk", sizeOnDisk(r.fileBytes()) + ")")
                .row("made of", bytesOf(r));
        int probed = (int) r.parts().stream().filter(SegmentedReport.Part::probed).count();
        if (r.growthFactor() != null) {
            table.row("kind", "growing, " + r.parts().size() + (r.parts().size() == 1 ? " segment" : " segments")
                            + "; each next one holds " + Human.factor(r.growthFactor()) + " the keys at "
                            + Human.factor(r.tighteningRatio()) + " the rate")
                    .row("sized for", CliFilters.keys(r.expectedKeys()) + " in the first segment; false positives "
                            + "under " + Human.percent(r.targetFpp()) + " however many keys come")
                    .row("max size", r.maxBytes() == null ? "none (the file grows as keys come)"
                            : sizeOnDisk(r.maxBytes()) + ")")
                    .row("grows until", (r.maxBytes() == null ? "the disk is full" : "its max size or the disk is reached")
                            + (r.keysBeforeTableFull() == null ? " (its table of segments cannot fill at this growth)"
                                    : ", or its table of segments is full after " + CliFilters.keys(r.keysBeforeTableFull())
                                            + " at this growth: adds then fail (a new file with --growth 2 has no such"
                                            + " limit)"));
        } else {
            Duration window = Duration.ofMillis(r.windowMillis());
            Duration epoch = Duration.ofMillis(r.epochMillis());
            table.row("kind", "windowed, " + r.parts().size() + " slots")
                    .row("window", Human.duration(window) + " in " + r.epochs() + (r.epochs() == 1 ? " epoch" : " epochs")
                            + " of " + Human.duration(epoch) + ": a key is found for at least " + Human.duration(window)
                            + " and forgotten within " + Human.duration(window.plus(epoch)))
                    .row("sized for", CliFilters.keys(r.expectedKeys()) + " per window at " + Human.percent(r.targetFpp())
                            + " false positives")
                    .row("current epoch", r.currentEpoch() + " (began " + epochStart(r.currentEpoch(), r.epochMillis())
                            + "): a query probes the slots of epochs " + (r.currentEpoch() - r.epochs()) + " to "
                            + r.currentEpoch() + (r.rotatedEpoch() < r.currentEpoch() ? "; the file last rotated to "
                                    + r.rotatedEpoch() + ", and the next add clears the expired slots" : ""));
        }
        return table.row("layout", r.layout())
                .row("hash", "xxh3-64, seed " + r.seed())
                .row("step lock", r.stepLock())
                .row("false positives", Human.percent(r.compoundFpp()) + " now (a query probes " + probed
                        + (r.growthFactor() != null ? " segments)" : " slots)")
                        + (Boolean.TRUE.equals(r.pastCapacity()) ? "; an epoch holds more than the "
                                + CliFilters.keys(r.parts().get(0).capacity()) + " of its share of the window: "
                                + "create it again with a larger --expected" : ""));
    }

    /** Every byte of the file, by what holds it. */
    private static String bytesOf(SegmentedReport r) {
        boolean slots = r.growthFactor() == null;
        long parts = r.parts().stream().mapToLong(SegmentedReport.Part::bytes).sum();
        return "container page " + Human.bytes(r.containerBytes()) + " + " + r.parts().size()
                + (slots ? " slots " : r.parts().size() == 1 ? " segment " : " segments ") + Human.bytes(parts)
                + (r.preparedBytes() > 0 ? " + the next segment, written ahead " + Human.bytes(r.preparedBytes())
                        + " (read once the newest is full)" : "")
                + (r.unusedBytes() != 0 ? " + unused " + Human.bytes(r.unusedBytes()) + " (after the last region)" : "");
    }

    private static String epochStart(long epoch, long epochMillis) {
        return Instant.ofEpochMilli(epoch * epochMillis).toString();
    }

    private static Table parts(SegmentedReport r) {
        boolean slots = r.growthFactor() == null;
        Table table = new Table().cells(concat(slots ? new String[] {"slot", "epoch", "began", "probed"}
                : new String[] {"segment"}, new String[] {"cells", "k", "capacity", "keys", "cells set", "fill",
                    "estimated keys", "target fpp", "fpp now", "size"}));
        for (SegmentedReport.Part p : r.parts()) {
            String[] first = slots
                    ? new String[] {Integer.toString(p.index()), p.epoch() == null ? "clearing" : Long.toString(p.epoch()),
                        p.epoch() == null ? "-" : epochStart(p.epoch(), r.epochMillis()), p.probed() ? "yes" : "no"}
                    : new String[] {Integer.toString(p.index())};
            table.cells(concat(first, new String[] {Human.count(p.cells()), Integer.toString(p.hashes()),
                Human.count(p.capacity()), Human.count(p.publishedKeys()), Human.count(p.setCells()),
                Human.percent(p.fillRatio()), p.estimatedKeys() == null ? "unknown (full)"
                        : Human.estimate(p.estimatedKeys()),
                Human.percent(p.targetFpp()), Human.percent(p.currentFpp()), Human.bytes(p.bytes())}));
        }
        return table;
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
