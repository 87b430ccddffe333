package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What dedup promises about delivery, against real processes: at least once by default (a key is
 * marked seen only after its line was written out, so no kill -9 loses a line and a reader that
 * goes away leaves the lines it never got unmarked); at most once on request, where --sync puts
 * every printed line's key on disk before the line is written.
 */
class DedupDeliveryIT {
    private static final int KEYS = 200_000;

    @TempDir
    Path dir;

    private static byte[] lines(List<String> keys) {
        return keys.stream().collect(Collectors.joining("\n", "", "\n")).getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> keys(String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> prefix + i).toList();
    }

    /** The keys of {@code candidates} that {@code filter} may contain, by the jar. */
    private Set<String> present(String filter, List<String> candidates) throws IOException {
        Files.write(dir.resolve("candidates.txt"), lines(candidates));
        String out = run(dir, "contains", filter, "--from", "candidates.txt", "--print", "present").stdout();
        return out.isEmpty() ? Set.of() : Set.copyOf(List.of(out.split("\n")));
    }

    /**
     * {@code | head -1}, done exactly: the reader takes the first line, then closes the pipe; only
     * after that does the rest of the input arrive. Returns dedup's exit status.
     */
    private int readFirstLineThenClose(List<String> keys, String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("dedup", "seen.bloom", "--from", "-"));
        args.addAll(List.of(options));
        Process dedup = JarProcess.start(dir, args.toArray(String[]::new));
        try (OutputStream stdin = dedup.getOutputStream()) {
            byte[] first = (keys.get(0) + "\n").getBytes(StandardCharsets.UTF_8);
            stdin.write(first);
            stdin.flush();
            try (InputStream stdout = dedup.getInputStream()) {
                assertArrayEquals(first, stdout.readNBytes(first.length), "the first line, delivered at once");
            } // the reader is gone
            stdin.write(lines(keys.subList(1, keys.size())));
        } catch (IOException e) {
            // dedup ended at its first failed write, before reading all of its input: what a reader's exit does
        }
        assertTrue(dedup.waitFor(60, TimeUnit.SECONDS));
        return dedup.exitValue();
    }

    @Test
    void linesTheReaderNeverGotStayUnmarked() throws Exception {
        run(dir, "create", "seen.bloom", "--expected", "1M", "--fpp", "1e-9").assertOk();
        List<String> keys = keys("event-", KEYS);
        assertEquals(ExitCode.OUTPUT_CLOSED, readFirstLineThenClose(keys));
        assertEquals(Set.of(keys.get(0)), present("seen.bloom", keys), "only the line delivered is marked seen");
        // and the next run delivers them
        JarProcess.Result again = run(dir, lines(keys), "dedup", "seen.bloom").assertOk();
        assertEquals(keys.subList(1, keys.size()), List.of(again.stdout().split("\n")));
    }

    @Test
    void atMostOnceMarksBeforeItPrintsAsItSays() throws Exception {
        run(dir, "create", "seen.bloom", "--expected", "1M", "--fpp", "1e-9").assertOk();
        List<String> keys = keys("event-", KEYS);
        assertEquals(ExitCode.OUTPUT_CLOSED, readFirstLineThenClose(keys, "--delivery", "at-most-once"));
        assertTrue(present("seen.bloom", keys).size() > 1, "lines marked that no reader received: the option's price");
    }

    @Test
    void noLineIsLostAcrossKills() throws Exception {
        // Every line distinct, and each twice, in two halves: the second run of a half repeats it.
        List<String> distinct = keys("order-", KEYS);
        List<String> input = new ArrayList<>(distinct);
        input.addAll(distinct.subList(0, KEYS / 2));
        Files.write(dir.resolve("input.txt"), lines(input));
        run(dir, "create", "seen.bloom", "--expected", "1M", "--fpp", "1e-12").assertOk();

        Set<String> delivered = new HashSet<>();
        Random random = new Random(16);
        int kills = 0;
        for (int round = 0; round < 8; round++) {
            int remainingBytes = (KEYS - delivered.size()) * "order-100000\n".length(); // about what this run prints
            if (remainingBytes < 100_000) {
                break;
            }
            Process dedup = JarProcess.start(dir, "dedup", "seen.bloom", "--from", "input.txt");
            dedup.getOutputStream().close();
            InputStream stdout = dedup.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            // kill -9 once it has printed a random amount: in the middle of its work, wherever that is
            int killAfter = 1 + random.nextInt(remainingBytes / 2);
            byte[] buffer = new byte[4096];
            int n;
            while (got.size() < killAfter && (n = stdout.read(buffer)) > 0) {
                got.write(buffer, 0, n);
            }
            if (dedup.isAlive()) {
                dedup.toHandle().destroyForcibly(); // SIGKILL, leaving the pipe to be read to its end
                kills++;
            }
            got.write(stdout.readAllBytes()); // what it wrote before it died is the reader's
            assertTrue(dedup.waitFor(60, TimeUnit.SECONDS));
            String text = got.toString(StandardCharsets.UTF_8);
            int end = text.lastIndexOf('\n') + 1; // a line cut by the kill is not delivered
            if (end > 0) {
                delivered.addAll(List.of(text.substring(0, end).split("\n")));
            }
        }
        JarProcess.Result last = run(dir, "dedup", "seen.bloom", "--from", "input.txt");
        assertEquals(0, last.exit(), last.err());
        if (!last.stdout().isEmpty()) {
            delivered.addAll(List.of(last.stdout().split("\n")));
        }
        assertTrue(kills >= 3, "several rounds were killed mid-run: " + kills);
        Set<String> lost = new HashSet<>(distinct);
        lost.removeAll(delivered);
        assertEquals(0, lost.size(), "lines never delivered in any run, e.g. " + lost.stream().sorted().limit(5).toList());
    }

    @Test
    void atMostOnceWithSyncForcesTheFilterBeforeEveryWriteToStdout() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/strace")), "needs strace to see the order of system calls");
        Files.write(dir.resolve("input.txt"), lines(keys("id-", KEYS)));
        List<String> command = new ArrayList<>(List.of("strace", "-f", "-qq", "-e", "trace=write,fsync,fdatasync,msync",
                "-o", dir.resolve("trace.txt").toString()));
        command.addAll(JarProcess.command("dedup", "seen.bloom", "--expected", "1M", "--fpp", "1e-9", "--from", "input.txt",
                "--delivery", "at-most-once", "--sync"));
        JarProcess.Result result = JarProcess.run(new ProcessBuilder(command), dir, new byte[0]);
        assumeTrue(result.exit() == 0 || !result.err().contains("ptrace"), "strace may not trace here: " + result.err());
        assertEquals(0, result.exit(), result.err());
        assertEquals(KEYS, result.stdout().split("\n").length);

        Pattern sync = Pattern.compile("\\b(fsync|fdatasync|msync)\\(");
        Pattern stdoutWrite = Pattern.compile("\\bwrite\\(1,");
        int writes = 0;
        int unsynced = 0;
        boolean syncedSinceLastWrite = false;
        for (String line : Files.readAllLines(dir.resolve("trace.txt"), StandardCharsets.ISO_8859_1)) {
            if (sync.matcher(line).find()) {
                syncedSinceLastWrite = true;
            } else if (stdoutWrite.matcher(line).find()) {
                writes++;
                unsynced += syncedSinceLastWrite ? 0 : 1;
                syncedSinceLastWrite = false;
            }
        }
        assertTrue(writes > 10, "the output took many writes: " + writes);
        assertEquals(0, unsynced, "writes to stdout with no sync of the filter before them, of " + writes);
    }
}
