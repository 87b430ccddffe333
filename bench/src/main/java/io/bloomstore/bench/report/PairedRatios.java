package io.bloomstore.bench.report;

import io.bloomstore.bench.ComparedFilter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The ratios of {@code run-benchmarks.sh paired}: one per pair of short runs taken seconds apart,
 * and their median, which a drift of the shared host during some pairs moves far less than it moves
 * one long run's mean. Two kinds, from the wall-clock throughputs of each {@code pair-*} folder:
 *
 * <ul>
 *   <li>bloomstore against Guava at the same n and key type: a batch call against Guava's single
 *       calls, as in {@link BenchReport};
 *   <li>two threads against one, per layout, for the same operation and n;
 *   <li>queries of present keys against the memory path's limit, where the pair ran
 *       {@code MemoryLimitsBenchmark.independentLoads8}: the cache lines per second a filter's
 *       queries loaded ({@link ComparedFilter#linesPerKey}) as a share of the loads per second of the
 *       limit probe. Guava's share says how far a filter that loads as many lines per key can
 *       get ahead of Guava there: loading them at the probe's rate, 1 / 0.6 = 1.67x at a share of
 *       0.6 (a batch can exceed the probe's rate somewhat, as it keeps more misses in flight).
 * </ul>
 *
 * <pre>java -cp bench/target/benchmarks.jar io.bloomstore.bench.report.PairedRatios RESULTS-DIR</pre>
 */
public final class PairedRatios {
    /** Row name (comparison and configuration) to the ratio of each pair that measured it, in pair order. */
    private final Map<String, List<Double>> ratios = new TreeMap<>();

    PairedRatios(List<List<JmhResult>> pairs) {
        for (List<JmhResult> pair : pairs) {
            for (JmhResult result : pair) {
                if (!result.metric().isEmpty()) {
                    continue;
                }
                againstGuava(pair, result);
                againstOneThread(pair, result);
                againstLoadLimit(pair, result);
            }
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: PairedRatios RESULTS-DIR (holding pair-*/ folders of JMH CSV files)");
            System.exit(2);
        }
        List<List<JmhResult>> pairs = new ArrayList<>();
        try (Stream<Path> folders = Files.list(Path.of(args[0]))) {
            for (Path folder : folders.filter(f -> f.getFileName().toString().startsWith("pair-")).sorted().toList()) {
                List<JmhResult> pair = new ArrayList<>();
                try (Stream<Path> files = Files.list(folder)) {
                    for (Path csv : files.filter(f -> f.toString().endsWith(".csv")).sorted().toList()) {
                        pair.addAll(JmhResult.read(csv));
                    }
                }
                pairs.add(pair);
            }
        }
        System.out.print(new PairedRatios(pairs).render());
    }

    private void againstGuava(List<JmhResult> pair, JmhResult ours) {
        // Only bloomstore's results are set against Guava's: a peer's side-by-side table is BenchReport's.
        if (ours.param("impl").isEmpty() || !ComparedFilter.valueOf(ours.param("impl")).isBloomstore() || ours.threads() != 1) {
            return;
        }
        String guavaMethod = ours.method().replace("Batch", ""); // Guava's twin of a batch: its single calls
        find(pair, guavaMethod, "GUAVA", 1, ours)
                .ifPresent(guava -> record(describe(ours) + ": bloomstore / Guava", ours.score() / guava.score()));
    }

    private void againstOneThread(List<JmhResult> pair, JmhResult ours) {
        if (ours.threads() != 2) {
            return;
        }
        find(pair, ours.method(), ours.param("impl"), 1, ours)
                .ifPresent(one -> record(describe(ours) + ": 2 threads / 1", ours.score() / one.score()));
    }

    private void againstLoadLimit(List<JmhResult> pair, JmhResult ours) {
        if (!ours.method().startsWith("mightContainPresent") || ours.threads() != 1 || ours.param("impl").isEmpty()) {
            return;
        }
        int lines = ComparedFilter.valueOf(ours.param("impl")).linesPerKey(Long.parseLong(ours.param("n")));
        pair.stream()
                .filter(r -> r.metric().isEmpty() && r.method().equals("independentLoads8"))
                .findFirst()
                .ifPresent(limit -> record(describe(ours) + ": lines loaded / the limit probe's loads",
                        // keys per µs × lines per key, against 8 loads per limit.score() ns
                        ours.score() * lines / (8 * 1000 / limit.score())));
    }

    /** "addBatch, standard, bytes16 keys, n = 1000000". */
    private static String describe(JmhResult result) {
        return result.method() + ", " + result.param("impl").toLowerCase(Locale.ROOT) + ", "
                + result.param("keyType").toLowerCase(Locale.ROOT) + " keys, n = " + result.param("n");
    }

    private static Optional<JmhResult> find(List<JmhResult> pair, String method, String impl, int threads, JmhResult like) {
        return pair.stream()
                .filter(r -> r.metric().isEmpty() && r.method().equals(method) && r.param("impl").equals(impl)
                        && r.threads() == threads && r.param("keyType").equals(like.param("keyType"))
                        && r.param("n").equals(like.param("n")))
                .findFirst();
    }

    private void record(String row, double ratio) {
        ratios.computeIfAbsent(row, r -> new ArrayList<>()).add(ratio);
    }

    /** The median of {@code values}: the middle one, or the mean of the middle two. */
    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    String render() {
        StringBuilder out = new StringBuilder("| ratio | pairs | median | lowest | highest | each pair, in order |\n"
                + "| --- | --- | --- | --- | --- | --- |\n");
        ratios.forEach((row, values) -> {
            List<String> each = values.stream().map(v -> String.format(Locale.ROOT, "%.2f", v)).toList();
            out.append(String.format(Locale.ROOT, "| %s | %d | **%.2f** | %.2f | %.2f | %s |%n", row, values.size(),
                    median(values), values.stream().min(Double::compare).orElseThrow(),
                    values.stream().max(Double::compare).orElseThrow(), String.join(", ", each)));
        });
        return out.toString();
    }
}
