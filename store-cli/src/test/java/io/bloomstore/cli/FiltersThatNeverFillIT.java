package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.filesIn;
import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Growing and windowed filters through the jar: created, filled, queried, deduplicated against,
 * inspected and verified; the verbs that make no sense on them refused in one line; their options
 * checked.
 */
class FiltersThatNeverFillIT {
    private static final int KEYS = 20_000;

    @TempDir
    Path dir;

    private static String lines(String prefix, int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> prefix + i + "\n").collect(Collectors.joining());
    }

    private Path keyFile(String name, String prefix, int from, int to) throws Exception {
        return Files.writeString(dir.resolve(name), lines(prefix, from, to));
    }

    private static long lineCount(String text) {
        return text.chars().filter(c -> c == '\n').count();
    }

    private JsonNode inspectJson(String file) throws Exception {
        return new ObjectMapper().readTree(run(dir, "inspect", file, "--json").assertOk().stdout());
    }

    /**
     * 20 000 keys into a file sized for 1 000 at first: it grows four times, every key is found,
     * fresh keys are false positives at under P, dedup passes every new line and no old one, and
     * inspect and verify describe every segment.
     */
    @Test
    void aGrowingFileGrowsAndKeepsEveryKey() throws Exception {
        run(dir, "create", "g.bloom", "--expected", "1000", "--fpp", "0.01", "--grow").assertOk();
        keyFile("keys.txt", "key-", 0, KEYS);
        String added = run(dir, "add", "g.bloom", "--from", "keys.txt").assertOk().stdout();
        assertTrue(added.startsWith("added 20,000 keys to g.bloom: "), added);
        assertEquals(0, run(dir, "contains", "-q", "g.bloom", "--from", "keys.txt").exit(), "no key lost across growths");

        keyFile("fresh.txt", "fresh-", 0, KEYS);
        long falsePositives = lineCount(run(dir, "contains", "g.bloom", "--from", "fresh.txt", "--print", "present")
                .stdout());
        // P = 1%: 200 expected at most, with 4 binomial standard deviations (about 14 each)
        assertTrue(falsePositives < 256, falsePositives + " false positives in " + KEYS);

        String newLines = run(dir, ("key-19999\n" + lines("new-", 0, 1000) + "key-0\n").getBytes(StandardCharsets.UTF_8),
                "dedup", "g.bloom").assertOk().stdout();
        assertFalse(newLines.contains("key-"), "an added key is never printed again");
        assertTrue(lineCount(newLines) >= 970, "new lines dropped only at about P: " + lineCount(newLines));

        JsonNode report = inspectJson("g.bloom");
        assertEquals("growing", report.get("kind").asText());
        assertEquals(1000, report.get("expectedKeys").asLong());
        assertEquals(2.0, report.get("growthFactor").asDouble());
        assertTrue(report.get("maxBytes").isNull());
        assertTrue(report.get("compoundFpp").asDouble() < 0.01, report.toString());
        JsonNode parts = report.get("parts");
        assertTrue(parts.size() >= 5, "grew at least four times: " + parts.size() + " segments");
        long published = 0;
        double allClear = 1;
        for (int i = 0; i < parts.size(); i++) {
            JsonNode part = parts.get(i);
            allClear *= 1 - part.get("currentFpp").asDouble();
            assertEquals(i, part.get("index").asInt());
            assertEquals(1000L << i, part.get("capacity").asLong(), "segment i holds n s^i keys");
            assertTrue(part.get("epoch").isNull());
            assertTrue(part.get("probed").asBoolean());
            assertTrue(part.get("targetFpp").asDouble() < 0.01 * 0.15 * Math.pow(0.85, i) * 1.0001);
            published += part.get("publishedKeys").asLong();
        }
        assertTrue(published >= KEYS && published <= KEYS + 1000 + 100, "keys counted into the segments: " + published);
        assertEquals(1 - allClear, report.get("compoundFpp").asDouble(), 1e-15, "1 - the product of 1 - currentFpp");

        String text = run(dir, "inspect", "g.bloom").assertOk().stdout();
        assertTrue(text.contains("kind             growing, " + parts.size() + " segments; each next one holds 2x the keys"),
                text);
        assertTrue(text.contains("segment  cells"), text);
        String verified = run(dir, "verify", "g.bloom").assertOk().stdout();
        assertEquals("g.bloom: ok (container header and " + parts.size() + " segments: headers, lengths, shapes and padding; "
                + "cells are written live, never sealed)\n", verified);
    }

    /** verify exits 1 on a growing file whose container header or last segment is damaged, with the reason in one line. */
    @Test
    void verifyFindsADamagedGrowingFile() throws Exception {
        run(dir, "create", "g.bloom", "--expected", "1000", "--fpp", "0.01", "--grow").assertOk();
        keyFile("keys.txt", "key-", 0, 5000);
        run(dir, "add", "g.bloom", "--from", "keys.txt").assertOk();
        Path file = dir.resolve("g.bloom");
        byte[] intact = Files.readAllBytes(file);

        byte[] header = intact.clone();
        header[24] ^= 1; // the first segment's keys, under the container's CRC32C
        Files.write(file, header);
        String err = run(dir, "verify", "g.bloom").assertError(1).err();
        assertTrue(err.startsWith("bloomstore: g.bloom: ") && err.contains("damaged"), err);

        Files.write(file, java.util.Arrays.copyOf(intact, intact.length - 4096)); // the newest segment cut short
        err = run(dir, "verify", "g.bloom").assertError(1).err();
        assertTrue(err.contains("does not fit in the file"), err);

        Files.write(file, intact);
        run(dir, "verify", "g.bloom").assertOk();
    }

    /** A stream of keys of unknown length builds a growing filter: read once, published whole, nothing left behind. */
    @Test
    void buildGrowReadsStdinOnceAndPublishesAGrowingFile() throws Exception {
        String built = run(dir, lines("key-", 0, KEYS).getBytes(StandardCharsets.UTF_8),
                "build", "g.bloom", "--from", "-", "--expected", "1000", "--fpp", "0.001", "--grow").assertOk().stdout();
        assertTrue(built.startsWith("built g.bloom from 20,000 keys ("), built);
        assertTrue(built.contains("): growing, 5 segments (the first holds 1,000 keys, each next one 2x as many); "
                + "false positives under 0.1%; no size limit ("), built);
        assertEquals(List.of("g.bloom"), filesIn(dir), "no spool, no temporary left");
        keyFile("keys.txt", "key-", 0, KEYS);
        assertEquals(0, run(dir, "contains", "-q", "g.bloom", "--from", "keys.txt").exit());
        run(dir, "verify", "g.bloom").assertOk();
    }

    /** --max-size stops the growth with one clear line, and the file goes on answering what it holds. */
    @Test
    void aGrowingFileStopsAtItsMaxSizeAndKeepsAnswering() throws Exception {
        run(dir, "create", "m.bloom", "--expected", "1000", "--fpp", "0.01", "--grow", "--max-size", "40k").assertOk();
        keyFile("keys.txt", "key-", 0, KEYS);
        String err = run(dir, "add", "m.bloom", "--from", "keys.txt").assertError(2).err();
        assertTrue(err.contains("cannot grow past its max size of 40000 bytes"), err);
        assertTrue(Files.size(dir.resolve("m.bloom")) <= 40_000);
        assertEquals("key-0\tpresent\n", run(dir, "contains", "m.bloom", "key-0").stdout());
        assertEquals(40_000, inspectJson("m.bloom").get("maxBytes").asLong());
    }

    /**
     * A 4-second window in 2 epochs: a line is found and not printed again within the window, and
     * forgotten once window + one epoch (6 s) have passed. The CLI reads the system clock, so this
     * test sleeps those 6 s; the window's semantics under a controlled clock are the core's tests.
     * (A 2-second window failed on a host at load 20: the query's JVM started after the window.)
     */
    @Test
    void aWindowedFileForgetsAfterTheWindowAndOneEpoch() throws Exception {
        String created = run(dir, "create", "w.bloom", "--expected", "1000", "--fpp", "0.001", "--window", "4s",
                "--epochs", "2").assertOk().stdout();
        assertEquals("created w.bloom: windowed, keys remembered 4s (2 epochs of 2s), 1,000 keys per window at 0.1% "
                + "false positives (28.0 KiB); allocated on disk\n", created);
        assertEquals("a\nb\n", run(dir, "a\nb\na\n".getBytes(StandardCharsets.UTF_8), "dedup", "w.bloom").assertOk().stdout());
        long added = System.nanoTime();
        assertEquals(0, run(dir, "contains", "-q", "w.bloom", "a", "b").exit(), "found within the window");

        JsonNode report = inspectJson("w.bloom");
        assertEquals("windowed", report.get("kind").asText());
        assertEquals(4000, report.get("windowMillis").asLong());
        assertEquals(2, report.get("epochs").asInt());
        assertEquals(2000, report.get("epochMillis").asLong());
        assertTrue(report.get("growthFactor").isNull());
        JsonNode parts = report.get("parts");
        assertEquals(3, parts.size(), "L + 1 slots");
        long rotated = report.get("rotatedEpoch").asLong(); // the clock's, currentEpoch, may be later by now
        assertTrue(report.get("currentEpoch").asLong() >= rotated);
        long keys = 0;
        for (JsonNode part : parts) {
            long epoch = part.get("epoch").asLong();
            assertTrue(epoch >= rotated - 2 && epoch <= rotated, part.toString());
            assertEquals(500, part.get("capacity").asLong(), "n / L keys per slot");
            keys += part.get("publishedKeys").asLong();
        }
        assertEquals(2, keys);
        assertTrue(run(dir, "inspect", "w.bloom").assertOk().stdout()
                .contains("window           4s in 2 epochs of 2s: a key is found for at least 4s and forgotten within 6s"));
        run(dir, "verify", "w.bloom").assertOk();

        long waited = (System.nanoTime() - added) / 1_000_000;
        Thread.sleep(Math.max(0, 6_100 - waited));
        // Idle for three epochs: inspect tells the epoch by the clock, and probes by it, not the one last rotated to.
        long before = System.currentTimeMillis() / 2000;
        JsonNode idle = inspectJson("w.bloom");
        long after = System.currentTimeMillis() / 2000;
        long now = idle.get("currentEpoch").asLong();
        assertTrue(now >= before && now <= after, now + " is the clock's epoch, between " + before + " and " + after);
        assertTrue(idle.get("rotatedEpoch").asLong() <= now - 3, idle.get("rotatedEpoch") + ": rotated three epochs ago");
        for (JsonNode part : idle.get("parts")) {
            long epoch = part.get("epoch").asLong();
            assertEquals(epoch >= now - 2 && epoch <= now, part.get("probed").asBoolean(), part.toString());
        }
        String text = run(dir, "inspect", "w.bloom").assertOk().stdout(); // the clock may have moved on meanwhile
        java.util.regex.Matcher row = java.util.regex.Pattern.compile("current epoch +(\\d+) \\(began [^)]*\\): a query probes the "
                + "slots of epochs (\\d+) to \\1; the file last rotated to " + idle.get("rotatedEpoch").asLong() + ",").matcher(text);
        assertTrue(row.find() && Long.parseLong(row.group(1)) >= now && Long.parseLong(row.group(2)) == Long.parseLong(row.group(1)) - 2,
                text);
        assertEquals("a\tabsent\n", run(dir, "contains", "w.bloom", "a").stdout(), "forgotten after window + epoch");
        assertEquals("b\n", run(dir, "b\n".getBytes(StandardCharsets.UTF_8), "dedup", "w.bloom").assertOk().stdout(),
                "printed again once forgotten");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "remove FILE k|'remove' works on fixed filters only: keys cannot be taken out of it",
        "count FILE k|'count' works on fixed filters only: it has no counters",
        "estimate FILE FILE|'estimate' works on fixed filters only: 'inspect' shows its estimated keys"})
    void verbsThatMakeNoSenseOnThemRefuseInOneLine(String verb, String message) throws Exception {
        run(dir, "create", "g.bloom", "--expected", "1000", "--fpp", "0.01", "--grow").assertOk();
        run(dir, "create", "w.bloom", "--expected", "1000", "--fpp", "0.01", "--window", "1h").assertOk();
        for (String kind : List.of("growing", "windowed")) {
            String file = kind.charAt(0) + ".bloom";
            String err = run(dir, verb.replace("FILE", file).split(" ")).assertError(2).err();
            assertTrue(err.startsWith("bloomstore: " + file + " is a " + kind + " filter; " + message), err);
        }
        assertEquals(List.of("g.bloom", "w.bloom"), filesIn(dir), "nothing made");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "create x.bloom --expected 1k --fpp 0.01 --grow --window 1h|--grow and --window exclude each other",
        "create x.bloom --grow --cells 1000 --hashes 3|--grow sizes its parts from --expected N and --fpp P",
        "create x.bloom --expected 1k --fpp 0.01 --window 1h --counter-bits 4|--window makes plain filters (1-bit cells)",
        "create x.bloom --expected 1k --fpp 0.01 --grow --sparse|--grow allocates its parts whole",
        "create x.bloom --expected 1k --fpp 0.01 --window 90|'90' is not a duration (write e.g. 90s, 30m, 24h, 7d",
        "create x.bloom --expected 1k --fpp 0.01 --window 0s|'0s' is not a duration",
        "create x.bloom --expected 1k --fpp 0.01 --window 1h --epochs 100|epochs must be in [1, 64], got 100",
        "create x.bloom --expected 1k --fpp 0.01 --grow --growth 2x|'2x' is not a growth factor (write a number from 1 to 16",
        "create x.bloom --expected 1k --fpp 0.01 --grow --growth 0.5|growth factor must be in [1, 16.0], got 0.5",
        "create x.bloom --expected 1k --fpp 0.01 --growth 3|--growth goes with --grow",
        "create x.bloom --fpp 0.01 --grow|--grow needs --expected N",
        "build x.bloom --from - --expected 1k --fpp 0.01 --window 1h|build makes fixed or growing filters"})
    void badOptionsGiveOneClearLine(String command, String message) throws Exception {
        String err = run(dir, command.split(" ")).assertError(2).err();
        assertTrue(err.contains(message), err);
        assertEquals(List.of(), filesIn(dir));
    }
}
