package io.bloomstore.bench.accuracy;

import io.bloomstore.BloomFilter;
import io.bloomstore.StableSpec;
import io.bloomstore.ValuedFilter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.SortedMap;

/**
 * Stable and valued filters against their models on real keys: the table of docs/BENCHMARKS.md
 * ("Stable and valued filters"). The lines of a key file (every file path under /usr, as
 * {@code bin/demo} takes them, is the reference set) are shuffled with a fixed seed and split in
 * halves: the first half is put, the second asked as keys never put; {@value #ROUNDS} rounds, each
 * with its own shuffle, summed.
 *
 * <ul>
 *   <li><b>Stable filter</b> of 2-bit cells, sized for a lifetime of a tenth of the half put, so the
 *       stream is ten lifetimes long and the filter at its stable point when asked: the
 *       false-positive rate against {@link StableSpec#stableFpp()}, and the false-negative rate of
 *       the keys put, by their distance from the end, against {@link StableSpec#falseNegativeRate}
 *       averaged over each band of distances.
 *   <li><b>Valued filter</b> (max rule, a spatial Bloom filter): the half put split into three
 *       labelled sets (values 1, 2, 3) of equal size: per label, the rate at which its keys read
 *       a larger one against {@link ValuedFilter#errorRates()}, and the rate at which keys never
 *       put read any value against the p it was sized for.
 * </ul>
 * Each rate comes with its binomial standard error.
 *
 * <pre>java -cp bench/target/benchmarks.jar io.bloomstore.bench.accuracy.CellRuleAccuracy KEYFILE [DIR]</pre>
 * (DIR: where the two files are made, a temporary directory if not given; they are deleted after).
 */
public final class CellRuleAccuracy {
    private static final long SEED = 20261128L;
    private static final double FPP = 0.01;
    private static final int LABELS = 3;
    private static final int ROUNDS = 5;
    private static final double[] LIFETIME_BANDS = {0, 0.25, 0.5, 1, 2, 3};

    private final RealKeyRates stableRows = new RealKeyRates();
    private final RealKeyRates valuedRows = new RealKeyRates();

    private CellRuleAccuracy() {
    }

    /**
     * Prints the tables.
     *
     * @param args the key file, then optionally the directory for the filter files
     * @throws IOException if the keys cannot be read or a filter file written
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: CellRuleAccuracy KEYFILE [DIR]: a file of distinct keys, one per line");
            System.exit(2);
        }
        Path dir = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("cell-rule-accuracy");
        CellRuleAccuracy tables = new CellRuleAccuracy();
        RealKeyRates.rounds(Path.of(args[0]), ROUNDS, SEED, (put, absent, first) -> {
            tables.stable(dir.resolve("stable.bloom"), put, absent, first);
            tables.valued(dir.resolve("valued.bloom"), put, absent, first);
        });
        tables.stableRows.print("stable filter");
        tables.valuedRows.print("valued filter (max)");
    }

    private void stable(Path file, List<String> put, List<String> absent, boolean describe) throws IOException {
        long lifetime = put.size() / 10;
        StableSpec spec = StableSpec.forLifetime(lifetime, FPP, 2);
        try (BloomFilter filter = BloomFilter.createStable(file, spec)) {
            put.forEach(filter::add);
            if (describe) {
                System.out.printf(Locale.ROOT, "stable filter: %s; lifetime %,d keys (model %.0f), %d lifetimes put%n",
                        spec, lifetime, spec.expectedLifetime(), put.size() / lifetime);
            }
            stableRows.tally("false positives", spec.stableFpp() * absent.size(),
                    absent.stream().filter(filter::mightContain).count(), absent.size());
            double[] bands = LIFETIME_BANDS;
            for (int b = 0; b + 1 < bands.length; b++) {
                long from = Math.round(bands[b] * lifetime);
                long to = Math.round(bands[b + 1] * lifetime);
                long missed = 0;
                double model = 0;
                for (long d = from; d < to; d++) {
                    missed += filter.mightContain(put.get((int) (put.size() - 1 - d))) ? 0 : 1;
                    model += spec.falseNegativeRate(d);
                }
                stableRows.tally(String.format(Locale.ROOT, "false negatives, %.2f to %.2f lifetimes back", bands[b],
                        bands[b + 1]), model, missed, to - from);
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private void valued(Path file, List<String> put, List<String> absent, boolean describe) throws IOException {
        try (ValuedFilter filter = ValuedFilter.create(file, put.size(), FPP, 2, ValuedFilter.Keep.MAX)) {
            int perLabel = put.size() / LABELS;
            for (int label = 1; label <= LABELS; label++) {
                for (String key : put.subList((label - 1) * perLabel, label * perLabel)) {
                    filter.put(key, label);
                }
            }
            SortedMap<Long, Double> model = filter.errorRates();
            if (describe) {
                System.out.printf(Locale.ROOT, "valued filter (max), %d labelled sets of %,d keys: %s%n", LABELS, perLabel,
                        filter.filter().spec());
            }
            for (long label = 1; label < LABELS; label++) { // the top label has none above it
                final long held = label;
                long higher = put.subList((int) (label - 1) * perLabel, (int) label * perLabel).stream()
                        .filter(key -> filter.get(key).orElseThrow() > held).count();
                valuedRows.tally("set " + label + " reads a larger label", model.get(label) * perLabel, higher, perLabel);
            }
            valuedRows.tally("a key never put reads a value", FPP * absent.size(),
                    absent.stream().filter(key -> filter.get(key).isPresent()).count(), absent.size());
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
