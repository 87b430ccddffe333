package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command that leaves a fixed filter past the keys it was sized for, or a windowed one with an
 * epoch past its share of the window, says so on stderr (once, or once more at the end if the rate
 * has more than doubled), with the rate it has reached and what to do, and still succeeds; one
 * within its capacity says nothing.
 */
class PastCapacityIT {
    private static final String WARNING = "bloomstore: warning: ";

    @TempDir
    Path dir;

    @BeforeEach
    void keys() throws Exception {
        Files.writeString(dir.resolve("few.txt"), lines(0, 500));
        Files.writeString(dir.resolve("many.txt"), lines(500, 20_000));
    }

    private static String lines(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> "id-" + i).collect(Collectors.joining("\n", "", "\n"));
    }

    /**
     * An add within the capacity says nothing; one that passes it warns, once it is past it (while
     * it adds, if a batch finds it so) and at the end with the rate it left, which is more than
     * twice any rate said while it added.
     */
    @Test
    void addWarnsOnceItIsPastCapacityAndEndsWithTheRateItLeft() {
        run(dir, "create", "f.bloom", "--expected", "1000", "--fpp", "0.01").assertOk();
        assertEquals("", run(dir, "add", "f.bloom", "--from", "few.txt").assertOk().err());
        JarProcess.Result past = run(dir, "add", "f.bloom", "--from", "many.txt");
        assertEquals(0, past.exit(), past.err());
        assertTrue(past.stdout().startsWith("added 19,500 keys to f.bloom"), past.stdout());
        assertWarnings(past.err(), 2, "f.bloom holds about ", "past the 1,000 it was sized for",
                "(sized for 1%); rebuild it larger (build --expected N), or use a filter that never fills");
        String inspect = run(dir, "inspect", "f.bloom").assertOk().stdout();
        assertTrue(inspect.contains("merge --op and); past the 1,000 keys it was sized for: rebuild it larger, "
                + "or use --grow or --window"),
                inspect);
        assertTrue(run(dir, "inspect", "f.bloom", "--json").assertOk().stdout().contains("\"pastCapacity\" : true"));
    }

    @Test
    void dedupWithAnIndexTooSmallSaysSoAfterItsOutput() throws Exception {
        run(dir, "create", "seen.bloom", "--expected", "1000", "--fpp", "0.01").assertOk();
        JarProcess.Result dedup = run(dir, Files.readAllBytes(dir.resolve("many.txt")), "dedup", "seen.bloom");
        assertEquals(0, dedup.exit(), dedup.err());
        assertTrue(dedup.stdout().lines().count() < 19_500, "a saturated index drops new lines: the reason to warn");
        assertWarnings(dedup.err(), 2, "seen.bloom holds about ", "past the 1,000 it was sized for");
    }

    @Test
    void buildWithTooSmallAnExpectedCountWarnsAndABuildThatFitsDoesNot() {
        JarProcess.Result small = run(dir, "build", "small.bloom", "--from", "many.txt", "--expected", "100", "--fpp", "0.01");
        assertEquals(0, small.exit(), small.err());
        assertWarnings(small.err(), 1, "small.bloom holds about ", "past the 100 it was sized for");
        run(dir, "build", "fits.bloom", "--from", "many.txt", "--fpp", "0.01").assertOk(); // sized by counting the lines
    }

    /**
     * A windowed filter whose epoch takes more than its share of the window's keys says so in
     * dedup (many.txt comes within one or two epochs of 3 hours, each sized for 1,000 keys);
     * within the share it says nothing.
     */
    @Test
    void dedupIntoAWindowWhoseEpochTookMoreThanItsShareSaysSo() throws Exception {
        JarProcess.Result within = run(dir, Files.readAllBytes(dir.resolve("few.txt")), "dedup", "recent.bloom",
                "--expected", "8000", "--fpp", "0.01", "--window", "24h");
        assertEquals(0, within.exit(), within.err());
        assertEquals("", within.err());
        assertTrue(run(dir, "inspect", "recent.bloom", "--json").assertOk().stdout().contains("\"pastCapacity\" : false"));
        JarProcess.Result burst = run(dir, Files.readAllBytes(dir.resolve("many.txt")), "dedup", "recent.bloom");
        assertEquals(0, burst.exit(), burst.err());
        assertWarnings(burst.err(), 2, "recent.bloom: an epoch of its window holds about ",
                " each was sized for (8,000 per window over 8 epochs): a query's false-positive rate is now about ",
                "(sized for 1%) until that epoch leaves the window; create it again with --expected at least 8 times");
        assertTrue(run(dir, "inspect", "recent.bloom").assertOk().stdout().contains(
                "; an epoch holds more than the 1,000 keys of its share of the window: create it again with a larger --expected"));
        assertTrue(run(dir, "inspect", "recent.bloom", "--json").assertOk().stdout().contains("\"pastCapacity\" : true"));
    }

    /**
     * dedup over a stream that has not ended warns once the index is past its capacity, at the
     * pause in the input, while the stream is still open: an index that is never closed must not
     * saturate silently. A little more input, which does not double the rate, says nothing more.
     */
    @Test
    void dedupOverAnOpenStreamWarnsWhileTheStreamIsStillOpen() throws Exception {
        run(dir, "create", "live.bloom", "--expected", "1000", "--fpp", "0.01").assertOk();
        Process process = JarProcess.start(dir, "dedup", "live.bloom");
        try {
            CompletableFuture<byte[]> stdout = JarProcess.readAll(process.getInputStream());
            BufferedReader stderr = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8));
            CompletableFuture<String> firstLine = new CompletableFuture<>();
            new Thread(() -> {
                try {
                    firstLine.complete(stderr.readLine());
                } catch (IOException e) {
                    firstLine.completeExceptionally(e);
                }
            }).start();
            OutputStream stdin = process.getOutputStream();
            stdin.write(lines(0, 1500).getBytes(StandardCharsets.UTF_8));
            stdin.flush();
            String warning = firstLine.get(60, TimeUnit.SECONDS);
            assertTrue(process.isAlive(), "warned before the input ended");
            assertTrue(warning.startsWith(WARNING + "live.bloom holds about "), warning);
            assertTrue(warning.contains("past the 1,000 it was sized for: its false-positive rate is now about"), warning);
            stdin.write(lines(1500, 1600).getBytes(StandardCharsets.UTF_8)); // a little more: the rate does not double
            stdin.close();
            assertTrue(process.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, process.exitValue());
            assertEquals(null, stderr.readLine(), "one warning");
            assertTrue(stdout.get().length > 0);
        } finally {
            process.destroyForcibly(); // a failed wait must not leave the process, nor a reader blocked on it
        }
    }

    /**
     * {@code err} holds one to {@code most} warnings and nothing else; the last one, the rate the
     * command left, holds every one of {@code parts}.
     */
    private static void assertWarnings(String err, int most, String... parts) {
        List<String> lines = err.lines().toList();
        assertTrue(!lines.isEmpty() && lines.size() <= most && err.endsWith("\n"), "1 to " + most + " lines: " + err);
        for (String line : lines) {
            assertTrue(line.startsWith(WARNING), line);
        }
        String last = lines.get(lines.size() - 1);
        for (String part : parts) {
            assertTrue(last.contains(part), part + " in: " + last);
        }
        assertTrue(last.contains("false-positive rate is now about"), last);
    }
}
