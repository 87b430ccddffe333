package io.bloomstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.GrowingBloomFilter;
import io.bloomstore.GrowingSpec;
import io.bloomstore.OpenMode;
import io.bloomstore.Pack;
import io.bloomstore.testing.RenameSwapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every verb that reads a filter file binds its input to one open descriptor: while the real jar
 * runs, another thread renames one file after another over an input in a tight loop (a filter of
 * the same shape and another seed, a smaller filter, a growing filter, a text file), and every run
 * must do exactly what the same command does on one of those files, whole: the same exit status,
 * the same output and, for the verbs that write a file, the same file. A run that checks one file
 * and reads another shows up as an outcome no single file gives: a merge of the wrong cells that
 * exits 0, a pack that does not restore, a kind or a size of another file in inspect's report, a
 * "not supported" for a valid filter. No run may crash the JVM (an hs_err file, a status above 2)
 * or print a stack trace.
 *
 * <p>Rounds are bounded by a count and by a time budget per verb ({@code -Dbloomstore.swap.rounds},
 * default 100; {@code -Dbloomstore.swap.seconds}, default 4, so that CI stays short on a loaded
 * host), two jar runs at a time; each verb runs a minimum number of rounds whatever the time. Given
 * a round count and no budget, each verb runs exactly that many rounds however long they take: the
 * long run of docs/RELIABILITY.md, "Inputs bound to one descriptor". Each test prints its tally
 * (rounds per outcome, renames).
 */
class InputsSwappedByRenameIT {
    private static final int MAX_ROUNDS = Integer.getInteger("bloomstore.swap.rounds", 100);
    /** The time budget per verb; none when only a round count is given. */
    private static final Duration BUDGET = System.getProperty("bloomstore.swap.seconds") == null
            && System.getProperty("bloomstore.swap.rounds") != null
                    ? ChronoUnit.FOREVER.getDuration()
                    : Duration.ofSeconds(Long.getLong("bloomstore.swap.seconds", 4));
    private static final int MIN_ROUNDS = 3;
    private static final int PARALLEL_RUNS = 2;
    private static final String OUTPUT = "OUT";

    @TempDir
    Path dir;
    private Path in;
    private Path out;
    private Path a;
    private Path b;
    private Path otherSeed;
    private Path small;
    private Path growing;
    private Path text;
    private final ExecutorService runners = Executors.newFixedThreadPool(PARALLEL_RUNS);

    /** What a run showed: its exit status, stdout and stderr (the round's output file named {@value #OUTPUT}), and what it wrote. */
    record Outcome(int exit, String stdout, String stderr, String written) {
        @Override
        public String toString() {
            return "exit " + exit + ", stdout " + abbreviate(stdout) + ", stderr " + abbreviate(stderr) + ", wrote " + written;
        }

        private static String abbreviate(String s) {
            return s.length() > 300 ? s.substring(0, 300) + "..." : s;
        }
    }

    @BeforeEach
    void makeFiles() throws IOException {
        in = Files.createDirectory(dir.resolve("in"));
        out = Files.createDirectory(dir.resolve("out"));
        BloomSpec spec = BloomSpec.forExpected(20_000, 0.01);
        a = sealedFilter("a.bloom", spec, 0, 15_000);
        b = sealedFilter("alt-b.bloom", spec, 5_000, 20_000);
        otherSeed = sealedFilter("alt-other-seed.bloom", BloomSpec.builder().expectedKeys(20_000).fpp(0.01).seed(7).build(),
                5_000, 20_000);
        small = sealedFilter("alt-small.bloom", BloomSpec.forExpected(2_000, 0.01), 5_000, 7_000);
        growing = in.resolve("alt-growing.bloom");
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(growing, GrowingSpec.of(1_000, 0.01))) {
            for (int key = 0; key < 3_000; key++) {
                filter.add("k" + key);
            }
        }
        text = Files.writeString(in.resolve("alt-text.bloom"), "not a filter\n".repeat(1_000));
    }

    @AfterEach
    void stopRunners() {
        runners.shutdownNow();
    }

    private Path sealedFilter(String name, BloomSpec spec, int from, int to) throws IOException {
        Path file = in.resolve(name);
        try (BloomFilter filter = BloomFilter.create(file, spec)) {
            for (int key = from; key < to; key++) {
                filter.add("k" + key);
            }
            filter.seal();
        }
        return file;
    }

    @Test
    void mergeMergesTheInputsItCheckedOrRefuses() throws Exception {
        Path second = in.resolve("b.bloom");
        swapWhileRunning("merge --op and", second, List.of(b, otherSeed, small, growing, text),
                output -> new String[] {"merge", output.toString(), a.toString(), second.toString(), "--op", "and"},
                InputsSwappedByRenameIT::mergedFilter);
    }

    @Test
    void packPacksTheFileItCheckedOrRefuses() throws Exception {
        Path file = in.resolve("f.bloom");
        swapWhileRunning("pack", file, List.of(a, small, growing, text),
                output -> new String[] {"pack", file.toString(), output.toString()},
                InputsSwappedByRenameIT::restoredFromPack);
    }

    @Test
    void estimateReadsTheFilesItCheckedOrRefuses() throws Exception {
        Path second = in.resolve("b.bloom");
        swapWhileRunning("estimate --json", second, List.of(b, small, growing, text),
                output -> new String[] {"estimate", a.toString(), second.toString(), "--json"}, noFile());
    }

    @Test
    void inspectReportsOneWholeFileOfAnyKind() throws Exception {
        Path file = in.resolve("f.bloom");
        swapWhileRunning("inspect --json", file, List.of(a, small, growing),
                output -> new String[] {"inspect", file.toString(), "--json"}, noFile());
    }

    @Test
    void verifyJudgesOneWholeFileOfAnyKind() throws Exception {
        Path file = in.resolve("f.bloom");
        swapWhileRunning("verify", file, List.of(a, small, growing, text),
                output -> new String[] {"verify", file.toString()}, noFile());
    }

    @Test
    void unpackRestoresThePackItReadOrRefuses() throws Exception {
        List<Path> packs = new ArrayList<>();
        for (Path filter : List.of(a, small, growing)) {
            Path pack = in.resolve("alt-" + filter.getFileName() + ".pack");
            Pack.packTo(filter, pack);
            packs.add(pack);
        }
        byte[] whole = Files.readAllBytes(packs.get(0));
        packs.add(Files.write(in.resolve("alt-cut.pack"), Arrays.copyOf(whole, whole.length / 2)));
        packs.add(text);
        Path pack = in.resolve("p.pack");
        swapWhileRunning("unpack", pack, packs, output -> new String[] {"unpack", pack.toString(), output.toString()},
                InputsSwappedByRenameIT::wholeFile);
    }

    /**
     * Finds what the command does on each alternative at {@code target} (run in this JVM, the path
     * still), then runs the jar while a {@link RenameSwapper} swaps them over {@code target}: every
     * run must show one of those outcomes.
     *
     * @param command the command line, given the round's output file
     * @param written what a run wrote into its output file, as a string to compare ("" for none)
     */
    private void swapWhileRunning(String verb, Path target, List<Path> alternatives, Function<Path, String[]> command,
            Written written) throws Exception {
        Map<String, byte[]> before = contents(alternatives);
        Map<Outcome, String> expected = new LinkedHashMap<>();
        for (Path alternative : alternatives) {
            Files.deleteIfExists(target);
            Files.createLink(target, alternative);
            Path output = out.resolve("expected-" + alternative.getFileName());
            InProcess.Result result = InProcess.run(command.apply(output));
            // two files may give one outcome (verify says "ok" of either filter): the tally names both
            expected.merge(outcome(result.exit(), result.stdout(), result.err(), output, written),
                    alternative.getFileName().toString(), (x, y) -> x + " or " + y);
            Files.deleteIfExists(output);
        }

        Map<String, AtomicInteger> tally = new ConcurrentHashMap<>();
        List<String> failures = new ArrayList<>();
        AtomicInteger rounds = new AtomicInteger();
        AtomicInteger completed = new AtomicInteger();
        long start = System.nanoTime();
        long renames;
        try (RenameSwapper swapper = new RenameSwapper(target, alternatives)) {
            List<Future<?>> workers = new ArrayList<>();
            for (int i = 0; i < PARALLEL_RUNS; i++) {
                workers.add(runners.submit(() -> {
                    // the minimum is run whatever the time, so a loaded machine makes the test slower, never emptier
                    for (int round; (round = rounds.incrementAndGet()) <= MIN_ROUNDS
                            || round <= MAX_ROUNDS && Duration.ofNanos(System.nanoTime() - start).compareTo(BUDGET) < 0; ) {
                        Path output = out.resolve("round-" + round);
                        JarProcess.Result result = JarProcess.run(dir, command.apply(output));
                        Outcome outcome = outcome(result.exit(), result.stdout(), result.err(), output, written);
                        String which = expected.get(outcome);
                        if (which == null) {
                            synchronized (failures) {
                                failures.add("round " + round + ": " + outcome);
                            }
                            which = "none";
                        }
                        tally.computeIfAbsent(which, k -> new AtomicInteger()).incrementAndGet();
                        Files.deleteIfExists(output);
                        completed.incrementAndGet();
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get();
            }
            renames = swapper.stop();
        }
        int done = completed.get();
        System.out.println(verb + ": " + done + " runs while " + renames + " renames swapped " + target.getFileName()
                + "; outcomes by the file they match: " + new TreeMap<>(tally));
        assertTrue(failures.isEmpty(), failures.size() + " of " + done + " runs matched no single file's outcome "
                + "(expected one of " + expected + "):\n" + String.join("\n", failures));
        assertTrue(done >= MIN_ROUNDS, "only " + done + " runs");
        assertTrue(renames > done, "the input was swapped during the runs: " + renames + " renames");
        assertEquals(before.keySet(), contents(alternatives).keySet());
        for (Path alternative : alternatives) {
            assertTrue(Arrays.equals(before.get(alternative.toString()), Files.readAllBytes(alternative)),
                    alternative + " is unchanged");
        }
        try (var left = Files.list(dir)) {
            assertEquals(List.of("in", "out"), left.map(p -> p.getFileName().toString()).sorted().toList(),
                    "no hs_err file and nothing else beside the runs");
        }
        try (var left = Files.list(out)) {
            assertEquals(List.of(), left.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".")).toList(),
                    "no temporary left");
        }
    }

    /** What a command wrote into its output file. */
    @FunctionalInterface
    interface Written {
        String describe(Path output) throws IOException;
    }

    private static Written noFile() {
        return output -> "";
    }

    private static Outcome outcome(int exit, String stdout, String stderr, Path output, Written written) {
        try {
            String wrote = Files.exists(output) ? written.describe(output) : "nothing";
            return new Outcome(exit, stdout.replace(output.toString(), OUTPUT), stderr.replace(output.toString(), OUTPUT),
                    wrote);
        } catch (IOException e) {
            return new Outcome(exit, stdout, stderr, "an unreadable file (" + e.getMessage() + ")");
        }
    }

    /**
     * A merged filter: sealed and intact, and its bytes but those every new file has its own of
     * (its creation time, its random identity in the header and the state area, the header
     * checksum over them and the cells checksum seeded with the identity).
     */
    private static String mergedFilter(Path output) throws IOException {
        String check;
        try (BloomFilter merged = BloomFilter.open(output, OpenMode.READ_ONLY)) {
            check = merged.verify().toString();
        }
        byte[] bytes = Files.readAllBytes(output);
        Arrays.fill(bytes, 56, 64, (byte) 0); // created
        Arrays.fill(bytes, 80, 88, (byte) 0); // file identity
        Arrays.fill(bytes, 124, 128, (byte) 0); // header CRC32C
        Arrays.fill(bytes, 144, 160, (byte) 0); // cells checksum, identity copy
        return check + " " + sha256(bytes);
    }

    /** What a pack restores to, bit for bit, or why it does not. */
    private static String restoredFromPack(Path pack) throws IOException {
        Path restored = pack.resolveSibling(pack.getFileName() + ".restored");
        try (var stream = Files.newInputStream(pack)) {
            Pack.unpack(stream, pack.toString(), restored);
            return "a pack of " + sha256(Files.readAllBytes(restored));
        } catch (IOException e) {
            return "a pack that does not unpack: " + e.getMessage().replace(pack.toString(), OUTPUT);
        } finally {
            Files.deleteIfExists(restored);
        }
    }

    private static String wholeFile(Path output) throws IOException {
        return sha256(Files.readAllBytes(output));
    }

    private static Map<String, byte[]> contents(List<Path> files) throws IOException {
        Map<String, byte[]> contents = new TreeMap<>();
        for (Path file : files) {
            contents.put(file.toString(), Files.readAllBytes(file));
        }
        return contents;
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
