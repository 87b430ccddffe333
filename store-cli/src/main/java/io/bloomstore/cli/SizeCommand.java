package io.bloomstore.cli;

import static io.bloomstore.cli.Model.flag;
import static io.bloomstore.cli.Model.option;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.GrowingSpec;
import io.bloomstore.Layout;
import io.bloomstore.StableSpec;
import io.bloomstore.WindowSpec;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code bloomstore size}: what a file of the given options would be, before anything is allocated.
 * Every number comes from the library's sizing ({@link BloomSpec}, {@link GrowingSpec},
 * {@link WindowSpec}), the one {@code create} uses, so the bytes are the created file's length.
 */
final class SizeCommand extends CliCommand {
    private static final String[] DESCRIPTION = {
        "Show what a filter file of these options would be, without creating it: its bytes on disk (the length "
                + "'create' gives it), cells (m), hashes (k), bits a key, layout and expected false-positive rate.",
        "The options are those of 'create'. With --grow, for --keys K keys: how many segments, the file's bytes "
                + "and each segment's, and how far the file can grow (its table's segments, or --max-size). With "
                + "--window: each of its L + 1 slots and the whole file, which never grows.",
        "--json prints the same as one JSON object, for scripts."
    };
    private static final String[] EXAMPLES = {
        "  bloomstore size --expected 10M --fpp 0.001                      # a fixed filter: bytes, m, k",
        "  bloomstore size --expected 10M --fpp 0.001 --layout blocked --counter-bits 4",
        "  bloomstore size --expected 1M --fpp 1e-6 --grow --keys 1G --max-size 10G   # segments for 1G keys",
        "  bloomstore size --expected 5M --fpp 0.001 --window 24h --epochs 8",
        "  bloomstore size --expected 1M --fpp 0.01 --json | jq .fileBytes",
        "  bloomstore size --stable --fpp 0.01 --expected 1M --counter-bits 2   # P, stable point, lifetime",
        "  bloomstore size --values max --value-bits 3 --expected 1M --fpp 0.001"
    };

    private final ShapeOptions shape;
    private final CellRuleOptions rules;
    private Long keys;
    private boolean json;

    SizeCommand(BloomstoreCli cli) {
        super(cli, DESCRIPTION, EXAMPLES);
        shape = new ShapeOptions(command, true, false);
        rules = new CellRuleOptions(command);
        command.addOption(option(Long.class, value -> keys = value, "--keys").paramLabel("K")
                .converters(new Converters.Count())
                .description("With --grow: the keys the file is to hold, for its segments and bytes then "
                        + "(e.g. 100M).").build());
        command.addOption(flag(value -> json = value, "--json")
                .description("Print JSON instead of text.").build());
    }

    @Override
    public Integer call() throws Exception {
        shape.checkKind();
        if (keys != null && !shape.grow) {
            throw new IllegalArgumentException("--keys goes with --grow: the keys a growing file is to hold");
        }
        SizeReport report;
        if (rules.asked()) {
            report = ruled();
        } else if (shape.grow) {
            report = growing(shape.growingSpec(null));
        } else if (shape.window != null) {
            report = windowed(shape.windowSpec());
        } else {
            report = fixed(shape.spec(null));
        }
        PrintWriter out = streams().text();
        if (json) {
            JsonOutput.write(report, out);
        } else {
            print(report, out);
        }
        return ExitCode.OK;
    }

    private static SizeReport fixed(BloomSpec spec) {
        Long n = spec.expectedKeys() > 0 ? spec.expectedKeys() : null;
        return new SizeReport("fixed", Human.name(spec.layout()), spec.counterBits(), n,
                n != null ? spec.targetFpp() : null, BloomFilter.fileBytes(spec), BloomFilter.fileBytes(spec), n != null ? spec.expectedFpp(n) : null,
                spec.cells(), spec.hashes(), n != null ? bitsPerKey(spec, n) : null,
                null, null, null, null, null, null, null, null, null, null, null);
    }

    /**
     * A stable filter (N is the later keys a key survives; the rate is the stable point's) or a
     * valued one (N keys at P, as a plain filter's, in wider cells), checked as create checks them.
     */
    private SizeReport ruled() {
        if (keys != null) {
            throw new IllegalArgumentException("--keys goes with --grow: the keys a growing file is to hold");
        }
        if (rules.valued()) {
            BloomSpec spec = rules.valuedSpec(shape);
            long n = spec.expectedKeys();
            return new SizeReport("valued", Human.name(spec.layout()), spec.counterBits(), n, spec.targetFpp(),
                    BloomFilter.fileBytes(spec), BloomFilter.fileBytes(spec), spec.expectedFpp(n), spec.cells(), spec.hashes(),
                    bitsPerKey(spec, n), null, null, null, null, null, null, null, null, null, null,
                    CellRuleReport.valued(rules.keepsMax(), rules.valueBits(), 1, java.util.Map.of()));
        }
        StableSpec stable = rules.stableSpec(shape);
        BloomSpec spec = stable.spec();
        return new SizeReport("stable", Human.name(spec.layout()), spec.counterBits(), Math.round(stable.expectedLifetime()),
                shape.fpp, BloomFilter.fileBytes(spec), BloomFilter.fileBytes(spec), stable.stableFpp(), spec.cells(),
                spec.hashes(), null, null, null, null, null, null, null, null, null, null, null,
                CellRuleReport.stable(stable, 1));
    }

    private SizeReport growing(GrowingSpec spec) {
        if (keys == null) {
            throw new IllegalArgumentException("--grow needs --keys K: the keys the file is to hold, e.g. --keys 100M");
        }
        if (keys < 0) {
            throw new IllegalArgumentException("--keys " + keys + " is below 0: give the keys the file is to hold, e.g. --keys 100M");
        }
        Growth limit = growthLimit(spec);
        int segments = spec.segmentsFor(keys);
        if (segments > limit.segments()) {
            throw new IllegalArgumentException("a growing file of these options holds at most " + CliFilters.keys(limit.keys())
                    + " (" + limit.segments() + " segments: " + limit.why() + "); ask for fewer --keys, or raise "
                    + switch (limit.reason()) {
                        case "max-size" -> "--max-size";
                        case "cells" -> "--fpp";
                        default -> "--expected or --growth";
                    });
        }
        List<Part> parts = new ArrayList<>(segments);
        long before = 0; // the keys of the full segments before the newest
        double allClear = 1; // a query is a false positive when any segment answers falsely, as SegmentedStats compounds it
        for (int i = 0; i < segments; i++) {
            BloomSpec segment = spec.segmentSpec(i);
            long held = i < segments - 1 ? segment.expectedKeys() : keys - before;
            parts.add(part(i, segment));
            allClear *= 1 - segment.expectedFpp(held);
            before += held;
        }
        return new SizeReport("growing", Human.name(spec.layout()), 1, spec.expectedKeys(), spec.fpp(),
                spec.fileBytes(segments), spec.fileBytes(1), 1 - allClear, null, null, null, keys, segments, spec.growthFactor(),
                spec.tighteningRatio(), spec.maxBytes() > 0 ? spec.maxBytes() : null, limit, null, null, null, parts, null);
    }

    /**
     * Where the chain stops growing: at its table's last segment, at the first segment too large to
     * size (more than {@link BloomSpec#MAX_CELLS} cells), or at the last that fits in --max-size.
     * The first too large is found by bisection in the standard layout, whose sizing is a formula,
     * then stepped back for another layout: every other layout needs more cells than the standard
     * one for the same keys and rate, and its sizing is a numeric search, seconds for a segment of
     * 2^60 keys.
     */
    private static Growth growthLimit(GrowingSpec spec) {
        GrowingSpec standard = spec.withLayout(Layout.STANDARD);
        int sizable = GrowingSpec.maxSegments();
        if (!sizes(standard, sizable - 1)) {
            int low = 0; // sizes
            while (sizable - low > 1) {
                int middle = (low + sizable) >>> 1;
                if (sizes(standard, middle)) {
                    low = middle;
                } else {
                    sizable = middle;
                }
            }
        }
        while (sizable > 1 && spec.layout() != Layout.STANDARD && !sizesInOwnLayout(spec, standard, sizable - 1)) {
            sizable--;
        }
        String reason = sizable < GrowingSpec.maxSegments() ? "cells" : "table";
        int segments = sizable;
        Long bytes = null;
        if (spec.maxBytes() > 0) {
            long fileBytes = spec.fileBytes(1);
            if (fileBytes > spec.maxBytes()) {
                throw new IllegalArgumentException("--max-size " + Human.count(spec.maxBytes()) + " is below the "
                        + Human.count(fileBytes) + " bytes of a new file, which create refuses; raise --max-size, or size "
                        + "the first segment smaller (--expected, --fpp)");
            }
            segments = 1;
            while (segments < sizable) {
                long next = BloomFilter.fileBytes(spec.segmentSpec(segments));
                if (fileBytes + next > spec.maxBytes()) {
                    break;
                }
                fileBytes += next;
                segments++;
            }
            reason = segments < sizable ? "max-size" : reason;
            bytes = fileBytes;
        }
        long held = 0;
        for (int i = 0; i < segments; i++) {
            held += spec.segmentKeys(i);
        }
        return new Growth(segments, held, bytes, reason);
    }

    /**
     * Whether the chain's own layout sizes {@code segment}, which the standard layout sizes. Far
     * down the table p is tiny, and the layout's sizing searches every k from 1 (sectorized) or
     * its standard k less 12 (blocked) up to the standard k plus 1, at most 32 or 64, building
     * the rate model of each and bisecting its cells. But the segment is sized if any
     * one k of that range reaches p within the cells allowed, as the search then takes that k's
     * count or a smaller one: so the standard layout's own k (the range's top, or one below it) is
     * tried alone first, the full sizing only when that k does not reach p. The answer is the full
     * sizing's (SizeIT; the row "`size --grow`" of docs/BENCHMARKS.md).
     */
    private static boolean sizesInOwnLayout(GrowingSpec spec, GrowingSpec standard, int segment) {
        BloomSpec standardSegment = standard.segmentSpec(segment);
        int k = Math.min(spec.layout() == Layout.SECTORIZED ? 32 : 64, standardSegment.hashes());
        try {
            BloomSpec.builder().expectedKeys(standardSegment.expectedKeys()).fpp(standardSegment.targetFpp())
                    .layout(spec.layout()).hashes(k).build();
        } catch (IllegalArgumentException e) {
            return sizes(spec, segment);
        }
        return true;
    }

    private static boolean sizes(GrowingSpec spec, int segment) {
        try {
            spec.segmentSpec(segment);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static SizeReport windowed(WindowSpec spec) {
        BloomSpec slot = spec.slotSpec();
        int slots = spec.epochs() + 1;
        double rate = 1 - Math.pow(1 - slot.expectedFpp(slot.expectedKeys()), slots);
        long epochMillis = spec.window().toMillis() / spec.epochs();
        List<Part> parts = new ArrayList<>(slots);
        for (int i = 0; i < slots; i++) {
            parts.add(part(i, slot));
        }
        return new SizeReport("windowed", Human.name(spec.layout()), 1, spec.expectedKeys(), spec.fpp(),
                spec.fileBytes(), spec.fileBytes(), rate, null, null, null, null, null, null, null, null, null,
                epochMillis * spec.epochs(), spec.epochs(), epochMillis, parts, null);
    }

    private static Part part(int index, BloomSpec spec) {
        return new Part(index, spec.expectedKeys(), spec.targetFpp(), spec.cells(), spec.hashes(),
                bitsPerKey(spec, spec.expectedKeys()), BloomFilter.fileBytes(spec));
    }

    /** The cells' bits over the keys: m w / n. */
    private static double bitsPerKey(BloomSpec spec, long n) {
        return (double) spec.cells() * spec.counterBits() / n;
    }

    private static void print(SizeReport r, PrintWriter out) {
        Table table = new Table();
        switch (r.kind()) {
            case "fixed" -> table.row("kind", r.counterBits() == 1 ? "fixed" : "fixed, counting (can remove and count keys)")
                    .row("cells (m)", Human.count(r.cells()) + " of " + r.counterBits() + (r.counterBits() == 1 ? " bit" : " bits"))
                    .row("hashes (k)", Integer.toString(r.hashes()))
                    .row("layout", r.layout())
                    .row("sized for", r.expectedKeys() == null ? "given as cells and hashes (--expected N tells the rate)"
                            : CliFilters.keys(r.expectedKeys()) + " at " + Human.percent(r.targetFpp()) + " false positives")
                    .row("bits a key", r.bitsPerKey() == null ? "-" : decimal(r.bitsPerKey()))
                    .row("false positives", r.expectedFpp() == null ? "-"
                            : Human.percent(r.expectedFpp()) + " expected at " + CliFilters.keys(r.expectedKeys()));
            case "stable", "valued" -> table.row("kind", r.kind().equals("stable")
                            ? "stable: fixed space, each add forgets a little, no clock"
                            : "valued: a value per key, cells of " + r.counterBits() + " bits")
                    .row("cells (m)", Human.count(r.cells()) + " of " + r.counterBits() + (r.counterBits() == 1 ? " bit" : " bits"))
                    .row("hashes (k)", Integer.toString(r.hashes()))
                    .row("sized for", r.kind().equals("stable")
                            ? "a key surviving " + CliFilters.keys(r.expectedKeys()) + " later on average, at "
                                    + Human.percent(r.targetFpp()) + " false positives"
                            : CliFilters.keys(r.expectedKeys()) + " at " + Human.percent(r.targetFpp()) + " false positives")
                    .row("false positives", Human.percent(r.expectedFpp()) + (r.kind().equals("stable")
                            ? " at the stable point, however long the stream" : " expected at " + CliFilters.keys(r.expectedKeys())));
            case "growing" -> table.row("kind", "growing: each next segment holds " + Human.factor(r.growthFactor())
                            + " the keys at " + Human.factor(r.tighteningRatio()) + " the rate")
                    .row("layout", r.layout())
                    .row("sized for", CliFilters.keys(r.expectedKeys()) + " in the first segment; false positives under "
                            + Human.percent(r.targetFpp()) + " however many keys come")
                    .row("at " + CliFilters.keys(r.keys()), r.segments() + (r.segments() == 1 ? " segment" : " segments")
                            + "; false positives " + Human.percent(r.expectedFpp()) + " expected")
                    .row("grows to", r.limit().segments() + " segments, " + CliFilters.keys(r.limit().keys())
                            + (r.limit().bytes() == null ? "" : ", " + sizeOnDisk(r.limit().bytes())) + ": " + r.limit().why());
            default -> {
                Duration window = Duration.ofMillis(r.windowMillis());
                Duration epoch = Duration.ofMillis(r.epochMillis());
                Part slot = r.parts().get(0);
                table.row("kind", "windowed, " + r.parts().size() + " slots (" + r.epochs()
                                + (r.epochs() == 1 ? " epoch" : " epochs") + " + 1); the file never grows")
                        .row("window", Human.duration(window) + " in epochs of " + Human.duration(epoch)
                                + ": a key is found for at least " + Human.duration(window) + " and forgotten within "
                                + Human.duration(window.plus(epoch)))
                        .row("layout", r.layout())
                        .row("sized for", CliFilters.keys(r.expectedKeys()) + " per window at " + Human.percent(r.targetFpp())
                                + " false positives")
                        .row("each slot", CliFilters.keys(slot.keys()) + " at " + Human.percent(slot.fpp()) + ": "
                                + Human.count(slot.cells()) + " cells, " + slot.hashes() + " hashes, "
                                + decimal(slot.bitsPerKey()) + " bits a key, " + sizeOnDisk(slot.bytes()))
                        .row("false positives", Human.percent(r.expectedFpp()) + " expected for a query when every slot is full");
            }
        }
        if (r.kind().equals("growing")) {
            table.row("file size", sizeOnDisk(r.fileBytes()) + " at " + CliFilters.keys(r.keys()) + "; create makes "
                    + sizeOnDisk(r.createdBytes()) + ", the first segment");
        } else {
            table.row("file size", sizeOnDisk(r.fileBytes()) + ", allocated whole by create");
        }
        if (r.cellRule() != null) {
            r.cellRule().addRows(table);
        }
        table.print(out);
        if (r.kind().equals("growing")) {
            out.println();
            Table segments = new Table().cells("segment", "keys", "false positives", "cells (m)", "hashes", "bits a key", "bytes");
            for (Part p : r.parts()) {
                segments.cells(Integer.toString(p.index()), Human.count(p.keys()), Human.percent(p.fpp()),
                        Human.count(p.cells()), Integer.toString(p.hashes()), decimal(p.bitsPerKey()), Human.count(p.bytes()));
            }
            segments.print(out);
        }
    }

    /** "1.1 MiB (1,150,976 bytes)". */
    private static String sizeOnDisk(long bytes) {
        return Human.bytes(bytes) + " (" + Human.count(bytes) + " bytes)";
    }

    private static String decimal(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }

    /**
     * What {@code size} reports; its components are the JSON output's fields, in order. Those of
     * another kind are null: cells, hashes and bits a key are a fixed filter's (its parts' for the
     * others); keys, segments, growth, tightening, max bytes and limit a growing one's; window and
     * epochs a windowed one's.
     *
     * @param expectedKeys N; null for a fixed filter given as --cells and --hashes
     * @param targetFpp P; null when N is
     * @param fileBytes the file's length: as create makes it, or a growing one's with {@code segments}
     * @param createdBytes the length create gives it: a growing file is created with its first segment
     * @param expectedFpp the rate at N keys (fixed), at {@code keys} keys (growing), or of a query
     *     when every slot holds its share (windowed); null when N is
     * @param parts each segment (growing, for {@code keys} keys) or slot (windowed)
     * @param cellRule a stable or valued filter's rule and model, as inspect reports it of the new
     *     file (all cells zero); for those two kinds, whose N is a stable filter's expected lifetime
     *     and whose expected rate its stable point's
     */
    record SizeReport(String kind, String layout, int counterBits, Long expectedKeys, Double targetFpp,
            long fileBytes, long createdBytes, Double expectedFpp, Long cells, Integer hashes, Double bitsPerKey,
            Long keys, Integer segments, Double growthFactor, Double tighteningRatio, Long maxBytes, Growth limit,
            Long windowMillis, Integer epochs, Long epochMillis, List<Part> parts, CellRuleReport cellRule) {
    }

    /** A segment or slot: the keys and rate it is sized for, its cells, hashes, m / n and bytes (header page and cells). */
    record Part(int index, long keys, double fpp, long cells, int hashes, double bitsPerKey, long bytes) {
    }

    /**
     * How far a growing file can grow: {@code segments} segments holding {@code keys} keys, then
     * adds fail; {@code bytes} the file's length then, known only under --max-size (without it a
     * blocked chain would be sized segment by segment to its end).
     *
     * @param reason "table" (its table is full), "cells" (the next segment would need more than
     *     2^56 cells) or "max-size"
     */
    record Growth(int segments, long keys, Long bytes, String reason) {
        /** Why it stops, in words. */
        String why() {
            return switch (reason) {
                case "table" -> "the file's table holds " + segments + " segments";
                case "cells" -> "segment " + segments + " would need more than 2^56 cells";
                default -> "the next segment would pass --max-size, so adds past them fail";
            };
        }
    }
}
