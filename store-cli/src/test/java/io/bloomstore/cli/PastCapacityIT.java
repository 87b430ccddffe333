package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command that leaves a fixed filter past the keys it was sized for, or a windowed one with an
 * epoch past its share of the window, says so once, on stderr, with the rate it has reached and
 * what to do, and still succeeds; one within its capacity says nothing.
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

    @Test
    void addWarnsOnceThePastCapacityAddIsDoneAndNotBefore() {
        run(dir, "create", "f.bloom", "--expected", "1000", "--fpp", "0.01").assertOk();
        run(dir, "add", "f.bloom", "--from", "few.txt").assertOk();
        JarProcess.Result past = run(dir, "add", "f.bloom", "--from", "many.txt");
        assertEquals(0, past.exit(), past.err());
        assertTrue(past.stdout().startsWith("added 19,500 keys to f.bloom"), past.stdout());
        assertOneWarning(past.err(), "f.bloom holds about ", "past the 1,000 it was sized for",
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
        assertOneWarning(dedup.err(), "seen.bloom holds about ", "past the 1,000 it was sized for");
    }

    @Test
    void buildWithTooSmallAnExpectedCountWarnsAndABuildThatFitsDoesNot() {
        JarProcess.Result small = run(dir, "build", "small.bloom", "--from", "many.txt", "--expected", "100", "--fpp", "0.01");
        assertEquals(0, small.exit(), small.err());
        assertOneWarning(small.err(), "small.bloom holds about ", "past the 100 it was sized for");
        run(dir, "build", "fits.bloom", "--from", "many.txt", "--fpp", "0.01").assertOk(); // sized by counting the lines
    }

    /**
     * A windowed filter whose epoch takes more than its share of the window's keys says so at the
     * end of dedup (many.txt comes within one or two epochs of 3 hours, each sized for 1,000 keys);
     * within the share it says nothing.
     */
    @Test
    void dedupIntoAWindowWhoseEpochTookMoreThanItsShareSaysSo() throws Exception {
        JarProcess.Result within = run(dir, Files.readAllBytes(dir.resolve("few.txt")), "dedup", "recent.bloom",
                "--expected", "8000", "--fpp", "0.01", "--window", "24h");
        assertEquals(0, within.exit(), within.err());
        assertEquals("", within.err());
        JarProcess.Result burst = run(dir, Files.readAllBytes(dir.resolve("many.txt")), "dedup", "recent.bloom");
        assertEquals(0, burst.exit(), burst.err());
        assertTrue(burst.err().startsWith(WARNING) && burst.err().indexOf('\n') == burst.err().length() - 1,
                "one line: " + burst.err());
        for (String part : new String[] {"recent.bloom: an epoch of its window holds about ",
                " each was sized for (8,000 per window over 8 epochs): a query's false-positive rate is now about ",
                "(sized for 1%) until that epoch leaves the window; create it again with --expected at least 8 times"}) {
            assertTrue(burst.err().contains(part), part + " in: " + burst.err());
        }
    }

    private static void assertOneWarning(String err, String... parts) {
        assertTrue(err.startsWith(WARNING) && err.indexOf('\n') == err.length() - 1, "one line: " + err);
        for (String part : parts) {
            assertTrue(err.contains(part), part + " in: " + err);
        }
        assertTrue(err.contains("its false-positive rate is now about"), err);
    }
}
