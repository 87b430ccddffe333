package io.bloomstore.bench.report;

import io.bloomstore.bench.Features;
import io.bloomstore.bench.ComparedFilter;
import io.bloomstore.bench.micro.CpuTimeProfiler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Turns JMH CSV result files into the markdown tables of docs/BENCHMARKS.md: every bloomstore
 * result as a ratio to its Guava twin from the same run, every filter kind side by side with
 * bloomstore's lead over the fastest peer and each kind's feature row, thread scaling, the machine limits, and
 * the 200 M results as fractions of those limits. Where the runs used {@link CpuTimeProfiler},
 * the same comparisons are also made on CPU time per key. Every ratio is a speed-up: above 1
 * means bloomstore is faster.
 *
 * <p>With {@code --svg FILE} first, it also draws the throughput of every filter kind into FILE
 * ({@link ThroughputChart}), the chart of docs/BENCHMARKS.md.
 *
 * <pre>java -cp bench/target/benchmarks.jar io.bloomstore.bench.report.BenchReport [--svg FILE] results/*.csv</pre>
 */
public final class BenchReport {
    private static final List<String> OPERATIONS = List.of("add", "addBatch", "mightContainPresent",
            "mightContainPresentBatch", "mightContainAbsent", "mightContainAbsentBatch");
    private static final long LARGE_N = 200_000_000;
    private static final String WALL = "";
    private static final String CPU = CpuTimeProfiler.METRIC;

    private final List<JmhResult> results;
    private final StringBuilder out = new StringBuilder();

    BenchReport(List<JmhResult> results) {
        this.results = results;
    }

    public static void main(String[] args) throws IOException {
        List<String> files = new ArrayList<>(Arrays.asList(args));
        Optional<Path> svg = Optional.empty();
        if (files.size() >= 2 && files.get(0).equals("--svg")) {
            svg = Optional.of(Path.of(files.get(1)));
            files = files.subList(2, files.size());
        }
        List<JmhResult> results = new ArrayList<>();
        for (String file : files) {
            results.addAll(JmhResult.read(Path.of(file)));
        }
        if (svg.isPresent()) {
            Files.writeString(svg.get(), new ThroughputChart(results).render());
        }
        System.out.print(new BenchReport(results).render());
    }

    String render() {
        TreeSet<Long> sizes = new TreeSet<>();
        results.stream().filter(r -> !r.param("n").isEmpty()).forEach(r -> sizes.add(Long.parseLong(r.param("n"))));
        for (String metric : List.of(WALL, CPU)) {
            for (long n : sizes) {
                againstGuava(n, metric);
            }
        }
        for (long n : sizes) {
            sideBySide(n);
        }
        features();
        threadScaling();
        limits();
        for (String metric : List.of(WALL, CPU)) {
            againstLimits(metric);
        }
        return out.toString();
    }

    // ------------------------------------------------------------ bloomstore / Guava

    private void againstGuava(long n, String metric) {
        if (results.stream().noneMatch(r -> r.metric().equals(metric) && r.param("n").equals(Long.toString(n))
                && r.param("impl").equals("GUAVA"))) {
            return;
        }
        out.append(String.format(Locale.ROOT, metric.equals(WALL)
                ? "\n#### n = %,d: Mops/s (wall clock; one op = one key) and bloomstore / Guava\n\n"
                : "\n#### n = %,d: process CPU ns per key and the speed-up Guava / bloomstore on CPU time\n\n", n));
        String ratio = metric.equals(WALL) ? "bloomstore / Guava" : "Guava / bloomstore";
        out.append("| operation | key | threads | Guava | standard | standard: " + ratio + " | blocked | blocked: " + ratio + " |\n");
        out.append("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for (String operation : OPERATIONS) {
            for (String key : List.of("LONG", "BYTES16")) {
                for (int threads : List.of(1, 2)) {
                    Optional<JmhResult> standard = find(operation, metric, "STANDARD", key, n, threads);
                    Optional<JmhResult> blocked = find(operation, metric, "BLOCKED", key, n, threads);
                    // Guava has no batch calls: its twin of a batch is the loop of single calls.
                    Optional<JmhResult> guava = find(operation, metric, "GUAVA", key, n, threads)
                            .or(() -> find(operation.replace("Batch", ""), metric, "GUAVA", key, n, threads));
                    if (guava.isEmpty() || standard.isEmpty() && blocked.isEmpty()) {
                        continue; // nothing to compare
                    }
                    out.append("| ").append(operation).append(" | ").append(key.toLowerCase(Locale.ROOT)).append(" | ")
                            .append(threads).append(" | ").append(Ratio.of(guava.get()).format("%.2f"));
                    for (Optional<JmhResult> ours : List.of(standard, blocked)) {
                        out.append(" | ").append(ours.map(r -> Ratio.of(r).format("%.2f")).orElse("-")).append(" | ");
                        out.append(ours.map(r -> "**" + speedUp(r, guava.get()).format("%.2f") + "**").orElse("-"));
                    }
                    out.append(" |\n");
                }
            }
        }
    }

    // ------------------------------------------------------------ every filter side by side

    /**
     * Every filter kind of the run at n, in Mops/s (wall clock), and bloomstore's faster layout over the
     * fastest peer: above 1 means bloomstore is ahead of every peer measured. A peer's batch twin is its
     * loop of single calls (no peer has a batch call), as Guava's is.
     */
    private void sideBySide(long n) {
        List<ComparedFilter> kinds = kindsIn(r -> r.param("n").equals(Long.toString(n)));
        if (kinds.stream().filter(k -> !k.isBloomstore()).count() < 2) {
            return; // bloomstore against Guava alone: the table above says it all
        }
        out.append(String.format(Locale.ROOT, "\n#### n = %,d: every filter side by side, Mops/s (wall clock; one op = one key)\n\n", n));
        out.append("| operation | key | threads");
        kinds.forEach(k -> out.append(" | ").append(k.name().toLowerCase(Locale.ROOT)));
        out.append(" | bloomstore / fastest peer |\n| --- | --- | ---").append(" | ---".repeat(kinds.size())).append(" | --- |\n");
        for (String operation : OPERATIONS) {
            for (String key : List.of("LONG", "BYTES16")) {
                for (int threads : List.of(1, 2)) {
                    List<Optional<JmhResult>> row = new ArrayList<>();
                    for (ComparedFilter kind : kinds) {
                        row.add(find(operation, WALL, kind.name(), key, n, threads)
                                .or(() -> kind.isBloomstore() ? Optional.empty()
                                        : find(operation.replace("Batch", ""), WALL, kind.name(), key, n, threads)));
                    }
                    Optional<JmhResult> ours = fastest(kinds, row, true);
                    Optional<JmhResult> theirs = fastest(kinds, row, false);
                    if (ours.isEmpty() || theirs.isEmpty()) {
                        continue; // nothing to set side by side
                    }
                    out.append("| ").append(operation).append(" | ").append(key.toLowerCase(Locale.ROOT)).append(" | ").append(threads);
                    row.forEach(r -> out.append(" | ").append(r.map(x -> Ratio.of(x).format("%.2f")).orElse("-")));
                    out.append(" | **").append(speedUp(ours.get(), theirs.get()).format("%.2f")).append("** |\n");
                }
            }
        }
    }

    /** The highest throughput in {@code row} among bloomstore's kinds ({@code bloomstore}) or among the peers. */
    private static Optional<JmhResult> fastest(List<ComparedFilter> kinds, List<Optional<JmhResult>> row, boolean bloomstore) {
        Optional<JmhResult> best = Optional.empty();
        for (int i = 0; i < kinds.size(); i++) {
            Optional<JmhResult> candidate = row.get(i);
            if (kinds.get(i).isBloomstore() == bloomstore && candidate.isPresent()
                    && (best.isEmpty() || candidate.get().score() > best.get().score())) {
                best = candidate;
            }
        }
        return best;
    }

    /** The feature row of every filter kind in the results, beside the numbers (sources: {@link ComparedFilter}). */
    private void features() {
        List<ComparedFilter> kinds = kindsIn(r -> true);
        if (kinds.stream().noneMatch(k -> !k.isBloomstore() && k != ComparedFilter.GUAVA)) {
            return;
        }
        out.append("\n#### What each filter offers besides speed\n\n| filter | persisted | opened in O(1) | shared by processes |"
                + " adds from threads | counting | max size |\n| --- | --- | --- | --- | --- | --- | --- |\n");
        for (ComparedFilter kind : kinds) {
            Features f = kind.features();
            out.append("| ").append(kind.name().toLowerCase(Locale.ROOT)).append(" | ").append(String.join(" | ", f.persisted(),
                    f.openInConstantTime(), f.sharedByProcesses(), f.threadSafeUpdates(), f.counting(), f.maxSize())).append(" |\n");
        }
    }

    /** The filter kinds of the results that match, in {@link ComparedFilter} order. */
    private List<ComparedFilter> kindsIn(Predicate<JmhResult> matching) {
        return Arrays.stream(ComparedFilter.values()).filter(k -> results.stream()
                .anyMatch(r -> matching.test(r) && r.metric().equals(WALL) && r.param("impl").equals(k.name()))).toList();
    }

    /** How many times faster {@code ours} is than {@code theirs}, from throughputs or from times per op. */
    private static Ratio speedUp(JmhResult ours, JmhResult theirs) {
        return ours.unit().startsWith("ops/") ? Ratio.of(ours).over(Ratio.of(theirs)) : Ratio.of(theirs).over(Ratio.of(ours));
    }

    // ------------------------------------------------------------ 2 threads / 1 thread

    private void threadScaling() {
        List<String[]> rows = new ArrayList<>();
        for (JmhResult two : results) {
            if (two.threads() != 2 || two.param("impl").isEmpty() || !two.metric().equals(WALL)) {
                continue;
            }
            find(two.method(), WALL, two.param("impl"), two.param("keyType"), Long.parseLong(two.param("n")), 1)
                    .ifPresent(one -> rows.add(new String[] {two.method(), two.param("impl").toLowerCase(Locale.ROOT),
                            two.param("keyType").toLowerCase(Locale.ROOT), String.format(Locale.ROOT, "%,d", Long.parseLong(two.param("n"))),
                            Ratio.of(one).format("%.2f"), Ratio.of(two).format("%.2f"),
                            "**" + Ratio.of(two).over(Ratio.of(one)).format("%.2f") + "**"}));
        }
        if (rows.isEmpty()) {
            return;
        }
        rows.sort(Comparator.<String[], Long>comparing(r -> Long.parseLong(r[3].replace(",", "")))
                .thenComparing(r -> OPERATIONS.indexOf(r[0])).thenComparing(r -> r[1]));
        out.append("\n#### Two threads on one filter: Mops/s (wall clock) and 2 threads / 1 thread\n\n");
        out.append("| operation | filter | key | n | 1 thread | 2 threads | 2 / 1 |\n| --- | --- | --- | --- | --- | --- | --- |\n");
        for (String[] row : rows) {
            out.append("| ").append(String.join(" | ", row)).append(" |\n");
        }
    }

    // ------------------------------------------------------------ machine limits

    private void limits() {
        TreeSet<Long> regions = regionSizes();
        if (regions.isEmpty()) {
            return;
        }
        out.append("\n#### Machine limits over a mapped region of random words (wall clock; CPU time where profiled)\n\n");
        out.append("| region | dependent random load (ns) | 8 independent random loads (ns) | per load, overlapped (ns) |"
                + " copy onto mapped file (GiB/s) | copy into anonymous memory (GiB/s) |\n");
        out.append("| --- | --- | --- | --- | --- | --- |\n");
        for (long region : regions) {
            double gib = region / (double) (1L << 30);
            out.append(String.format(Locale.ROOT, "| %d MiB | %s | %s | %s | %s | %s |\n", region >> 20,
                    withCpu("dependentLoad", region, 1), withCpu("independentLoads8", region, 1),
                    withCpu("independentLoads8", region, 1.0 / 8),
                    limit("sequentialCopy", WALL, region).map(r -> Ratio.of(r).inverse(gib * 1e3).format("%.2f")).orElse("-"),
                    limit("sequentialCopyToAnonymous", WALL, region).map(r -> Ratio.of(r).inverse(gib * 1e3).format("%.2f")).orElse("-")));
        }
    }

    private String withCpu(String method, long region, double factor) {
        String wall = limit(method, WALL, region).map(r -> Ratio.of(r).times(factor).format("%.1f")).orElse("-");
        return limit(method, CPU, region).map(r -> wall + " (CPU " + Ratio.of(r).times(factor).format("%.1f") + ")").orElse(wall);
    }

    /**
     * The 200 M long-key results as fractions of the limit for their access pattern, measured over
     * the region closest in size to the filter: a key of the blocked layout touches one cache line,
     * a key of the standard layout (and Guava's) k independent lines; the bound is that many
     * overlapped random loads (the 8-load probe / 8 each). 1.0 would be at the limit.
     */
    private void againstLimits(String metric) {
        TreeSet<Long> regions = regionSizes();
        long filterBytes = ComparedFilter.STANDARD.spec(LARGE_N).cellBytes();
        Optional<Long> region = regions.stream().min(Comparator.comparingLong(r -> Math.abs(r - filterBytes)));
        Optional<JmhResult> independent = region.flatMap(r -> limit("independentLoads8", metric, r));
        Optional<JmhResult> dependent = region.flatMap(r -> limit("dependentLoad", metric, r));
        if (independent.isEmpty() || find("mightContainPresent", metric, "STANDARD", "LONG", LARGE_N, 1).isEmpty()) {
            return;
        }
        Ratio perLoad = Ratio.of(independent.get()).times(1.0 / 8);
        out.append(String.format(Locale.ROOT, "\n#### n = %,d, long keys, 1 thread: against the limit (%d MiB region, %s)\n\n",
                LARGE_N, region.get() >> 20, metric.equals(WALL) ? "wall clock" : "CPU time"));
        out.append("| operation | filter | lines per key | ns per key | limit: lines x overlapped load (ns) | limit / measured |"
                + " dependent load / measured |\n| --- | --- | --- | --- | --- | --- | --- |\n");
        for (String operation : List.of("add", "addBatch", "mightContainPresent", "mightContainPresentBatch")) {
            for (ComparedFilter kind : ComparedFilter.values()) {
                Optional<JmhResult> measured = find(operation, metric, kind.name(), "LONG", LARGE_N, 1);
                if (measured.isEmpty()) {
                    continue;
                }
                int lines = kind.linesPerKey(LARGE_N);
                Ratio nanos = nanosPerOp(measured.get());
                Ratio bound = perLoad.times(lines);
                out.append("| ").append(operation).append(" | ").append(kind.name().toLowerCase(Locale.ROOT)).append(" | ")
                        .append(lines).append(" | ").append(nanos.format("%.1f")).append(" | ").append(bound.format("%.1f"))
                        .append(" | **").append(bound.over(nanos).format("%.2f")).append("** | ")
                        .append(dependent.map(d -> Ratio.of(d).over(nanos).format("%.2f")).orElse("-")).append(" |\n");
            }
        }
    }

    /** A result as ns per op: throughputs in ops/us are inverted, times in ns/op kept. */
    private static Ratio nanosPerOp(JmhResult result) {
        return result.unit().equals("ops/us") ? Ratio.of(result).inverse(1e3) : Ratio.of(result);
    }

    private TreeSet<Long> regionSizes() {
        TreeSet<Long> regions = new TreeSet<>();
        results.stream().filter(r -> !r.param("regionBytes").isEmpty())
                .forEach(r -> regions.add(Long.parseLong(r.param("regionBytes"))));
        return regions;
    }

    private Optional<JmhResult> limit(String method, String metric, long region) {
        return first(r -> r.method().equals(method) && r.metric().equals(metric)
                && r.param("regionBytes").equals(Long.toString(region)));
    }

    private Optional<JmhResult> find(String method, String metric, String impl, String key, long n, int threads) {
        return first(r -> r.method().equals(method) && r.metric().equals(metric) && r.param("impl").equals(impl)
                && r.param("keyType").equals(key) && r.param("n").equals(Long.toString(n)) && r.threads() == threads);
    }

    /** The last matching row: a later rerun of the same benchmark replaces an earlier one. */
    private Optional<JmhResult> first(Predicate<JmhResult> matching) {
        return results.stream().filter(matching).reduce((earlier, later) -> later);
    }
}
