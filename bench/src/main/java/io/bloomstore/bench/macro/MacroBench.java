package io.bloomstore.bench.macro;

import io.bloomstore.bench.BenchDirs;
import io.bloomstore.bench.BenchJvm;
import io.bloomstore.bench.ComparedFilter;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The macro runs of docs/BENCHMARKS.md: whole jobs, each side in a fresh child JVM with the heap it
 * is measured under, timed from outside (process wall time) and inside ({@link MacroTask}), with
 * heap peak and RSS. Prints markdown tables with the ratios and appends them to {@code --out}.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar io.bloomstore.bench.macro.MacroBench [options] SCENARIO...
 *   SCENARIO      open-query | build | merge | billion | all
 *   --lines N     key-file lines for build (default 100000000)
 *   --billion N   keys of the small-heap build (default 1000000000)
 *   --repeat R    runs of each side of open-query (default 3; medians are reported)
 *   --cli PATH    the bloomstore command, timed building from the key file too (default bin/bloomstore;
 *                 its rows are left out when it is missing)
 *   --out FILE    markdown file the tables are appended to (default &lt;bench dir&gt;/macro-results.md)
 * </pre>
 *
 * bloomstore sides run with {@code -Xmx64m}; Guava sides with the JVM's default heap (what a plain
 * program gets), except in the billion run where both get {@code -Xmx64m}. Files go to
 * {@link BenchDirs#root()}; check its free space first (build needs ~2 GB, merge ~4 GB, billion ~1.3 GB).
 */
public final class MacroBench {
    private static final String SMALL_HEAP = "-Xmx64m";
    private static final long OPEN_QUERY_N = 200_000_000;
    private static final long OPEN_QUERY_KEYS = 1_000_000;
    private static final long MERGE_CELLS = 1L << 33; // 1 GiB of 1-bit cells

    private final Path root = BenchDirs.root();
    private final Path fixtures = BenchDirs.fixtures();
    private long lines = 100_000_000;
    private long billion = 1_000_000_000;
    private int repeat = 3;
    private Path cli = Path.of("bin", "bloomstore");
    private Path out;
    private final StringBuilder report = new StringBuilder();

    private MacroBench() {
    }

    public static void main(String[] args) throws Exception {
        MacroBench bench = new MacroBench();
        Set<String> scenarios = bench.parse(args);
        bench.report.append("\n## Macro runs, ").append(Instant.now()).append("\n");
        for (String scenario : scenarios) {
            try {
                switch (scenario) {
                    case "open-query" -> bench.openQuery();
                    case "build" -> bench.build();
                    case "merge" -> bench.merge();
                    case "billion" -> bench.billion();
                    default -> throw new IllegalArgumentException("unknown scenario " + scenario);
                }
            } catch (IOException e) { // a failed or killed child: say so, keep the other scenarios
                bench.report.append("\n**").append(scenario).append(" failed:** ").append(e.getMessage()).append('\n');
            }
            bench.flushReport(); // each table is kept as soon as its scenario is done
        }
        System.out.println("(tables appended to " + bench.out + ")");
    }

    /** Appends what the report holds so far to {@code --out}, prints it, and empties it. */
    private void flushReport() throws IOException {
        Files.writeString(out, report, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        System.out.print(report);
        report.setLength(0);
    }

    private Set<String> parse(String[] args) {
        Set<String> scenarios = new LinkedHashSet<>();
        out = root.resolve("macro-results.md");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--lines" -> lines = Long.parseLong(args[++i]);
                case "--billion" -> billion = Long.parseLong(args[++i]);
                case "--repeat" -> repeat = Integer.parseInt(args[++i]);
                case "--cli" -> cli = Path.of(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                case "all" -> scenarios.addAll(List.of("open-query", "build", "merge", "billion"));
                default -> scenarios.add(args[i]);
            }
        }
        if (scenarios.isEmpty()) {
            throw new IllegalArgumentException("usage: MacroBench [--lines N] [--billion N] [--repeat R] [--cli PATH] [--out FILE] "
                    + "open-query|build|merge|billion|all ...");
        }
        return scenarios;
    }

    // ------------------------------------------------------------ scenarios

    private void openQuery() throws Exception {
        Path bloomstore = fixtures.resolve("open-query-n" + OPEN_QUERY_N + ".bloom");
        Path guava = fixtures.resolve("open-query-n" + OPEN_QUERY_N + ".guava");
        if (!Files.exists(bloomstore) || !Files.exists(guava)) {
            child("-Xmx2g", "prepare-open", bloomstore, guava, OPEN_QUERY_N, OPEN_QUERY_KEYS);
        }
        List<Map<String, String>> ours = new ArrayList<>();
        List<Map<String, String>> theirs = new ArrayList<>();
        for (int i = 0; i < repeat; i++) { // alternate, so drifting machine load hits both sides alike
            ours.add(child(SMALL_HEAP, "open-bloomstore", bloomstore));
            theirs.add(child(null, "open-guava", guava));
        }
        Map<String, String> o = medians(ours);
        Map<String, String> t = medians(theirs);
        section(String.format(Locale.ROOT, "Open + first query of a %.0f MB filter (n = %,d, p = 1%%, warm page cache; median of %d runs)",
                Files.size(bloomstore) / 1e6, OPEN_QUERY_N, repeat));
        table("side", "first open + query (fresh JVM)", "again, same JVM", "process wall", "heap peak", "VmHWM");
        row("bloomstore (-Xmx64m)", ms(o, "firstMs"), ms(o, "againMs"), ms(o, "wallMs"), mib(o, "heapPeakMiB"), mib(o, "vmHwmMiB"));
        row("Guava readFrom (default heap)", ms(t, "firstMs"), ms(t, "againMs"), ms(t, "wallMs"), mib(t, "heapPeakMiB"), mib(t, "vmHwmMiB"));
        row("**Guava / bloomstore**", ratio(t, o, "firstMs"), ratio(t, o, "againMs"), ratio(t, o, "wallMs"), "", "");
    }

    private void build() throws Exception {
        Path keyFile = fixtures.resolve("keys-" + lines + ".txt");
        long start = System.nanoTime();
        KeyFile.ensure(keyFile, lines);
        System.err.printf(Locale.ROOT, "key file %s ready (%.1f s)%n", keyFile, (System.nanoTime() - start) / 1e9);
        Path scratch = BenchDirs.scratch("build-");
        try {
            Map<String, String> guava = child(null, "build-guava", keyFile, scratch.resolve("guava.bin"), lines);
            Files.deleteIfExists(scratch.resolve("guava.bin"));
            section(String.format(Locale.ROOT, "Build from a key file of %,d lines (%.2f GB, warm page cache), n = lines, p = 1%%",
                    lines, Files.size(keyFile) / 1e9));
            table("side", "process wall", "build (in JVM)", "keys/s", "wall / Guava", "heap peak", "VmHWM (anon + file)");
            buildRow("Guava program (BufferedReader, put, writeTo; default heap)", guava, guava);
            for (String[] variant : List.of(new String[] {"STANDARD", "1"}, new String[] {"STANDARD", "2"},
                    new String[] {"BLOCKED", "1"}, new String[] {"BLOCKED", "2"})) {
                Path filter = scratch.resolve("built.bloom");
                Map<String, String> ours = child(SMALL_HEAP, "build-bloomstore", keyFile, filter, lines, variant[0], variant[1]);
                Files.deleteIfExists(filter);
                buildRow("bloomstore API, " + variant[0].toLowerCase(Locale.ROOT) + ", " + variant[1] + " thread(s) (-Xmx64m)",
                        ours, guava);
            }
            if (Files.isExecutable(cli)) { // what a user types: the launcher, its JVM flags, the seal and the fsync included
                for (String layout : List.of("standard", "blocked")) {
                    Path filter = scratch.resolve("cli.bloom");
                    Map<String, String> ours = command(List.of(cli.toString(), "build", filter.toString(), "--from",
                            keyFile.toString(), "--expected", Long.toString(lines), "--fpp", Double.toString(ComparedFilter.FPP),
                            "--layout", layout), 0);
                    Files.deleteIfExists(filter);
                    ours.put("buildMs", ours.get("wallMs"));
                    ours.put("lines", Long.toString(lines));
                    buildRow("`bloomstore build --layout " + layout + "` (build time = process wall)", ours, guava);
                }
            }
        } finally {
            BenchDirs.deleteTree(scratch);
        }
    }

    private void buildRow(String side, Map<String, String> run, Map<String, String> guava) {
        double seconds = Double.parseDouble(run.get("buildMs")) / 1e3;
        row(side, ms(run, "wallMs"), ms(run, "buildMs"),
                String.format(Locale.ROOT, "%.2f M", Long.parseLong(run.get("lines")) / seconds / 1e6),
                ratio(run, guava, "wallMs"), mib(run, "heapPeakMiB"),
                run.containsKey("vmHwmMiB")
                        ? run.get("vmHwmMiB") + " MiB (" + run.get("rssAnonMiB") + " + " + run.get("rssFileMiB") + ")"
                        : "n/a");
    }

    private void merge() throws Exception {
        Path a = fixtures.resolve("merge-a-" + MERGE_CELLS + ".bloom");
        Path b = fixtures.resolve("merge-b-" + MERGE_CELLS + ".bloom");
        if (!Files.exists(a) || !Files.exists(b)) {
            child(SMALL_HEAP, "prepare-merge", a, b, MERGE_CELLS);
        }
        Path scratch = BenchDirs.scratch("merge-");
        try {
            // -Xmx64m for the filters; the anonymous copy probe needs 1 GiB of direct memory besides.
            Map<String, String> run = child(SMALL_HEAP + " -XX:MaxDirectMemorySize=1200m", "merge", a, b, scratch);
            double copy = Double.parseDouble(run.get("copyGiBps"));
            section("OR-merge of two 1 GiB filters (random cells, half set) against the copy bandwidth, one JVM (-Xmx64m)");
            table("operation", "GiB of filter / s", "fraction of copy bandwidth");
            for (String[] line : List.of(
                    new String[] {"copy probe: 1 GiB mapped onto mapped (limit)", "copyGiBps"},
                    new String[] {"copy probe: 1 GiB mapped into anonymous memory", "copyAnonymousGiBps"},
                    new String[] {"write + fsync of 1 GiB (the disk's limit for a durable new file)", "writeForceGiBps"},
                    new String[] {"Merge.toNewFile OR (writes, then fsyncs), run 1", "toNewFileGiBps1"},
                    new String[] {"Merge.toNewFile OR, run 2", "toNewFileGiBps2"},
                    new String[] {"Merge.inPlace OR (CAS per changed word), before sync", "inPlaceGiBps"},
                    new String[] {"Merge.inPlace OR, including sync()", "inPlaceSyncedGiBps"})) {
                double value = Double.parseDouble(run.get(line[1]));
                row(line[0], String.format(Locale.ROOT, "%.2f", value), String.format(Locale.ROOT, "%.2f", value / copy));
            }
            report.append("\nheap peak ").append(mib(run, "heapPeakMiB")).append(", VmHWM ").append(mib(run, "vmHwmMiB"))
                    .append(" (anon ").append(mib(run, "rssAnonMiB")).append(", file ").append(mib(run, "rssFileMiB")).append(")\n");
        } finally {
            BenchDirs.deleteTree(scratch);
        }
    }

    private void billion() throws Exception {
        Path scratch = BenchDirs.scratch("billion-");
        try {
            Map<String, String> ours = child(SMALL_HEAP, "billion-bloomstore", scratch.resolve("billion.bloom"), billion,
                    "BLOCKED", 2);
            Map<String, String> guava = child(SMALL_HEAP, "billion-guava", billion);
            section(String.format(Locale.ROOT, "%,d keys with -Xmx64m (p = 1%%)", billion));
            table("side", "outcome", "process wall", "keys/s", "heap peak", "VmHWM (anon + file)");
            row("bloomstore, blocked, addAll from 2 threads",
                    String.format(Locale.ROOT, "built, %.2f GB file", Long.parseLong(ours.get("fileBytes")) / 1e9),
                    ms(ours, "wallMs"), String.format(Locale.ROOT, "%.2f M", Double.parseDouble(ours.get("keysPerSecond")) / 1e6),
                    mib(ours, "heapPeakMiB"),
                    ours.get("vmHwmMiB") + " MiB (" + ours.get("rssAnonMiB") + " + " + ours.get("rssFileMiB") + ")");
            row("Guava BloomFilter.create", guava.get("outcome"), ms(guava, "wallMs"), "", mib(guava, "heapPeakMiB"),
                    guava.get("vmHwmMiB") + " MiB");
        } finally {
            BenchDirs.deleteTree(scratch);
        }
    }

    // ------------------------------------------------------------ child JVMs

    /**
     * Runs {@code MacroTask task args} in a new JVM with the bench flags and {@code jvmOptions}
     * (space-separated, e.g. the heap size; null for the JVM's defaults).
     */
    private Map<String, String> child(String jvmOptions, String task, Object... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(BenchJvm.javaExecutable().toString());
        command.addAll(BenchJvm.flags());
        if (jvmOptions != null) {
            command.addAll(Arrays.asList(jvmOptions.split(" ")));
        }
        command.add("-Dbloomstore.bench.dir=" + root);
        command.addAll(List.of("-cp", System.getProperty("java.class.path")));
        int shownFrom = command.size();
        command.addAll(List.of(MacroTask.class.getName(), task));
        for (Object arg : args) {
            command.add(String.valueOf(arg));
        }
        Map<String, String> result = command(command, shownFrom);
        if (result.size() == 1) { // only wallMs
            throw new IOException(task + " printed no RESULT line");
        }
        return result;
    }

    /**
     * Runs a command, echoing it (from {@code shownFrom} on), its output and its errors to stderr, and
     * times it from outside: the {@code RESULT key=value ...} line it prints, if any, plus {@code wallMs}.
     */
    private static Map<String, String> command(List<String> command, int shownFrom) throws IOException, InterruptedException {
        System.err.println("$ " + String.join(" ", command.subList(shownFrom, command.size())));
        long start = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        Map<String, String> result = new LinkedHashMap<>();
        try (BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = output.readLine(); line != null; line = output.readLine()) {
                System.err.println("  " + line);
                if (line.startsWith("RESULT")) {
                    result.putAll(parseResult(line));
                }
            }
        }
        int exit = process.waitFor();
        long wallNanos = System.nanoTime() - start;
        if (exit != 0) {
            throw new IOException(String.join(" ", command.subList(shownFrom, command.size()))
                    + " failed with exit code " + exit);
        }
        result.put("wallMs", String.format(Locale.ROOT, "%.3f", wallNanos / 1e6));
        return result;
    }

    static Map<String, String> parseResult(String line) {
        Map<String, String> values = new HashMap<>();
        for (String pair : line.substring("RESULT".length()).trim().split(" ")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                values.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        return values;
    }

    /** Per key, the median over runs of its numeric values. */
    static Map<String, String> medians(List<Map<String, String>> runs) {
        Map<String, String> medians = new HashMap<>();
        for (String key : runs.get(0).keySet()) {
            double[] values = new double[runs.size()];
            try {
                for (int i = 0; i < values.length; i++) {
                    values[i] = Double.parseDouble(runs.get(i).get(key));
                }
            } catch (NumberFormatException | NullPointerException e) {
                continue;
            }
            Arrays.sort(values);
            double median = values.length % 2 == 1 ? values[values.length / 2]
                    : (values[values.length / 2 - 1] + values[values.length / 2]) / 2;
            medians.put(key, String.format(Locale.ROOT, "%.3f", median));
        }
        return medians;
    }

    // ------------------------------------------------------------ markdown

    private void section(String title) {
        report.append("\n### ").append(title).append("\n\n");
    }

    private void table(String... headers) {
        report.append("| ").append(String.join(" | ", headers)).append(" |\n|");
        report.append(" --- |".repeat(headers.length)).append('\n');
    }

    private void row(String... cells) {
        report.append("| ").append(String.join(" | ", cells)).append(" |\n");
    }

    private static String ms(Map<String, String> run, String key) {
        double ms = Double.parseDouble(run.get(key));
        return ms >= 10_000 ? String.format(Locale.ROOT, "%.1f s", ms / 1e3) : String.format(Locale.ROOT, "%.1f ms", ms);
    }

    private static String mib(Map<String, String> run, String key) {
        String value = run.get(key);
        return value == null ? "n/a" : String.format(Locale.ROOT, "%.0f MiB", Double.parseDouble(value));
    }

    private static String ratio(Map<String, String> numerator, Map<String, String> denominator, String key) {
        return String.format(Locale.ROOT, "%.2fx", Double.parseDouble(numerator.get(key)) / Double.parseDouble(denominator.get(key)));
    }
}
