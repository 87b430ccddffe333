package io.bloomstore.bench.report;

import io.bloomstore.bench.FilterKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Turns JMH CSV result files into the markdown tables of docs/BENCHMARKS.md: every bloomstore
 * result as a ratio to its Guava twin from the same run, thread scaling, the machine limits, and
 * the 200 M results as fractions of those limits.
 *
 * <pre>java -cp bench/target/benchmarks.jar io.bloomstore.bench.report.BenchReport results/*.csv</pre>
 */
public final class BenchReport {
    private static final List<String> OPERATIONS = List.of("add", "addBatch", "mightContainPresent",
            "mightContainPresentBatch", "mightContainAbsent", "mightContainAbsentBatch");
    private static final long LARGE_N = 200_000_000;

    private final List<JmhResult> results;
    private final StringBuilder out = new StringBuilder();

    BenchReport(List<JmhResult> results) {
        this.results = results;
    }

    public static void main(String[] args) throws IOException {
        List<JmhResult> results = new ArrayList<>();
        for (String file : args) {
            results.addAll(JmhResult.read(Path.of(file)));
        }
        System.out.print(new BenchReport(results).render());
    }

    String render() {
        TreeSet<Long> sizes = new TreeSet<>();
        results.stream().filter(r -> !r.param("n").isEmpty()).forEach(r -> sizes.add(Long.parseLong(r.param("n"))));
        for (long n : sizes) {
            againstGuava(n);
        }
        threadScaling();
        limits();
        againstLimits();
        return out.toString();
    }

    // ------------------------------------------------------------ bloomstore / Guava

    private void againstGuava(long n) {
        out.append(String.format(Locale.ROOT, "\n#### n = %,d: Mops/s (one op = one key) and bloomstore / Guava\n\n", n));
        out.append("| operation | key | threads | Guava | standard | standard / Guava | blocked | blocked / Guava |\n");
        out.append("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for (String operation : OPERATIONS) {
            for (String key : List.of("LONG", "BYTES16")) {
                for (int threads : List.of(1, 2)) {
                    Optional<JmhResult> standard = find(operation, "STANDARD", key, n, threads);
                    Optional<JmhResult> blocked = find(operation, "BLOCKED", key, n, threads);
                    if (standard.isEmpty() && blocked.isEmpty()) {
                        continue;
                    }
                    // Guava has no batch calls: its twin of a batch is the loop of single calls.
                    Optional<JmhResult> guava = find(operation, "GUAVA", key, n, threads)
                            .or(() -> find(operation.replace("Batch", ""), "GUAVA", key, n, threads));
                    out.append("| ").append(operation).append(" | ").append(key.toLowerCase(Locale.ROOT)).append(" | ")
                            .append(threads).append(" | ").append(guava.map(r -> Ratio.of(r).format("%.2f")).orElse("-"));
                    for (Optional<JmhResult> ours : List.of(standard, blocked)) {
                        out.append(" | ").append(ours.map(r -> Ratio.of(r).format("%.2f")).orElse("-")).append(" | ");
                        out.append(ours.isPresent() && guava.isPresent()
                                ? "**" + Ratio.of(ours.get()).over(Ratio.of(guava.get())).format("%.2f") + "**" : "-");
                    }
                    out.append(" |\n");
                }
            }
        }
    }

    // ------------------------------------------------------------ 2 threads / 1 thread

    private void threadScaling() {
        List<String[]> rows = new ArrayList<>();
        for (JmhResult two : results) {
            if (two.threads() != 2 || two.param("impl").isEmpty()) {
                continue;
            }
            find(two.method(), two.param("impl"), two.param("keyType"), Long.parseLong(two.param("n")), 1)
                    .ifPresent(one -> rows.add(new String[] {two.method(), two.param("impl").toLowerCase(Locale.ROOT),
                            two.param("keyType").toLowerCase(Locale.ROOT), String.format(Locale.ROOT, "%,d", Long.parseLong(two.param("n"))),
                            Ratio.of(one).format("%.2f"), Ratio.of(two).format("%.2f"),
                            "**" + Ratio.of(two).over(Ratio.of(one)).format("%.2f") + "**"}));
        }
        if (rows.isEmpty()) {
            return;
        }
        rows.sort(Comparator.<String[], String>comparing(r -> r[3]).thenComparing(r -> OPERATIONS.indexOf(r[0])).thenComparing(r -> r[1]));
        out.append("\n#### Two threads on one filter: Mops/s and 2 threads / 1 thread\n\n");
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
        out.append("\n#### Machine limits over a mapped region of random words\n\n");
        out.append("| region | dependent random load (ns) | 8 independent random loads (ns) | per load, overlapped (ns) | sequential copy (GiB/s) |\n");
        out.append("| --- | --- | --- | --- | --- |\n");
        for (long region : regions) {
            Optional<JmhResult> dependent = limit("dependentLoad", region);
            Optional<JmhResult> independent = limit("independentLoads8", region);
            Optional<JmhResult> copy = limit("sequentialCopy", region);
            out.append(String.format(Locale.ROOT, "| %d MiB | %s | %s | %s | %s |\n", region >> 20,
                    dependent.map(r -> Ratio.of(r).format("%.1f")).orElse("-"),
                    independent.map(r -> Ratio.of(r).format("%.1f")).orElse("-"),
                    independent.map(r -> Ratio.of(r).times(1.0 / 8).format("%.1f")).orElse("-"),
                    // ms per copy of the region -> GiB/s
                    copy.map(r -> Ratio.of(r).inverse(region / (double) (1L << 30) * 1e3).format("%.2f")).orElse("-")));
        }
    }

    /**
     * The 200 M long-key results as fractions of the limit for their access pattern, measured over
     * the region closest in size to the filter: a key of the blocked layout touches one cache line,
     * a key of the standard layout (and Guava's) k independent lines; the bound is that many
     * overlapped random loads (the 8-load probe / 8 each). 1.0 would be at the limit.
     */
    private void againstLimits() {
        TreeSet<Long> regions = regionSizes();
        if (regions.isEmpty()) {
            return;
        }
        long filterBytes = FilterKind.STANDARD.spec(LARGE_N).cellBytes();
        long region = regions.stream().min(Comparator.comparingLong(r -> Math.abs(r - filterBytes))).orElseThrow();
        Optional<JmhResult> independent = limit("independentLoads8", region);
        Optional<JmhResult> dependent = limit("dependentLoad", region);
        if (independent.isEmpty()) {
            return;
        }
        Ratio perLoad = Ratio.of(independent.get()).times(1.0 / 8);
        out.append(String.format(Locale.ROOT, "\n#### n = %,d, long keys, 1 thread: against the limit (%d MiB region)\n\n",
                LARGE_N, region >> 20));
        out.append("| operation | filter | lines per key | ns per key | limit: lines x overlapped load (ns) | limit / measured |"
                + " dependent load / measured |\n| --- | --- | --- | --- | --- | --- | --- |\n");
        for (String operation : List.of("add", "addBatch", "mightContainPresent", "mightContainPresentBatch")) {
            for (FilterKind kind : FilterKind.values()) {
                Optional<JmhResult> measured = find(operation, kind.name(), "LONG", LARGE_N, 1);
                if (measured.isEmpty()) {
                    continue;
                }
                int lines = kind == FilterKind.BLOCKED ? 1 : FilterKind.STANDARD.spec(LARGE_N).hashes();
                Ratio nanos = Ratio.of(measured.get()).inverse(1e3); // ops/us -> ns/op
                Ratio bound = perLoad.times(lines);
                out.append("| ").append(operation).append(" | ").append(kind.name().toLowerCase(Locale.ROOT)).append(" | ")
                        .append(lines).append(" | ").append(nanos.format("%.1f")).append(" | ").append(bound.format("%.1f"))
                        .append(" | **").append(bound.over(nanos).format("%.2f")).append("** | ")
                        .append(dependent.map(d -> Ratio.of(d).over(nanos).format("%.2f")).orElse("-")).append(" |\n");
            }
        }
    }

    private TreeSet<Long> regionSizes() {
        TreeSet<Long> regions = new TreeSet<>();
        results.stream().filter(r -> !r.param("regionBytes").isEmpty())
                .forEach(r -> regions.add(Long.parseLong(r.param("regionBytes"))));
        return regions;
    }

    private Optional<JmhResult> limit(String method, long region) {
        return first(r -> r.method().equals(method) && r.param("regionBytes").equals(Long.toString(region)));
    }

    private Optional<JmhResult> find(String method, String impl, String key, long n, int threads) {
        return first(r -> r.method().equals(method) && r.param("impl").equals(impl) && r.param("keyType").equals(key)
                && r.param("n").equals(Long.toString(n)) && r.threads() == threads);
    }

    private Optional<JmhResult> first(Predicate<JmhResult> matching) {
        return results.stream().filter(matching).findFirst();
    }
}
