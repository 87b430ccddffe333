package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How far a growing file grows, as a user meets it: a dedup stopped by --max-size prints only lines
 * it marked seen, never a line twice across restarts, and does not push the last segment past its
 * capacity; inspect accounts for every byte of the file; a growth factor whose table of segments
 * could fill is refused at creation.
 */
class GrowingFileLimitsIT {
    @TempDir
    Path dir;

    private JsonNode inspectJson(String file) throws Exception {
        return new ObjectMapper().readTree(run(dir, "inspect", file, "--json").assertOk().stdout());
    }

    @ParameterizedTest(name = "--delivery {0}")
    @ValueSource(strings = {"at-least-once", "at-most-once"})
    void aDedupStoppedAtItsMaxSizeNeitherRepeatsNorOverfills(String delivery) throws Exception {
        Files.writeString(dir.resolve("in.txt"),
                IntStream.range(0, 200_000).mapToObj(i -> "line-" + i + "\n").collect(Collectors.joining()));
        // standard segments, whose sizes these line counts were worked out for (a blocked chain at 1%,
        // the default, holds about a third fewer keys in the same 300 KB)
        String[] dedup = {"dedup", "d.bloom", "--expected", "10k", "--fpp", "0.01", "--grow", "--layout", "standard",
            "--max-size", "300K", "--delivery", delivery, "--from", "in.txt"};
        JarProcess.Result first = run(dir, dedup);
        assertEquals(2, first.exit(), first.err());
        assertTrue(first.err().contains("cannot grow past its max size of 300000 bytes"), first.err());
        String printed = first.stdout();
        long lines = printed.lines().count();
        assertTrue(lines > 100_000 && lines < 200_000, lines + " lines printed before the cap");
        Files.writeString(dir.resolve("printed.txt"), printed);
        assertEquals(0, run(dir, "contains", "-q", "d.bloom", "--from", "printed.txt").exit(),
                "every line printed is marked seen");
        Set<String> distinct = new HashSet<>(printed.lines().toList());
        assertEquals(lines, distinct.size(), "no line printed twice");
        for (int restart = 0; restart < 2; restart++) {
            JarProcess.Result again = run(dir, dedup);
            assertEquals(2, again.exit(), again.err());
            assertEquals("", again.stdout(), "a restart at the cap prints nothing");
            assertTrue(again.err().contains("cannot grow past its max size of 300000 bytes")
                    && again.err().contains("dedup printed nothing"), again.err());
        }
        for (JsonNode part : inspectJson("d.bloom").get("parts")) {
            assertTrue(part.get("publishedKeys").asLong() <= part.get("capacity").asLong(), part.toString());
        }
    }

    @Test
    void inspectAccountsForEveryByteIncludingTheSegmentWrittenAhead() throws Exception {
        run(dir, "create", "g.bloom", "--expected", "1000", "--fpp", "0.01", "--grow").assertOk();
        Files.writeString(dir.resolve("keys.txt"),
                IntStream.range(0, 2200).mapToObj(i -> "k" + i + "\n").collect(Collectors.joining()));
        run(dir, "add", "g.bloom", "--from", "keys.txt").assertOk(); // segment 1 half full: segment 2 written ahead
        JsonNode report = inspectJson("g.bloom");
        long parts = 0;
        for (JsonNode part : report.get("parts")) {
            parts += part.get("bytes").asLong();
        }
        assertEquals(2, report.get("parts").size());
        assertTrue(report.get("preparedBytes").asLong() > 0, report.toString());
        assertEquals(Files.size(dir.resolve("g.bloom")), report.get("fileBytes").asLong());
        assertEquals(report.get("fileBytes").asLong(), report.get("containerBytes").asLong() + parts
                + report.get("preparedBytes").asLong() + report.get("unusedBytes").asLong());
        assertEquals(0, report.get("unusedBytes").asLong());
        assertTrue(report.get("keysBeforeTableFull").isNull(), "the default growth cannot fill its table");
        String text = run(dir, "inspect", "g.bloom").assertOk().stdout();
        assertTrue(text.contains("container page 4.0 KiB + 2 segments ") && text.contains("+ the next segment, written ahead"),
                text);
        assertTrue(text.contains("grows until      the disk is full (its table of segments cannot fill"), text);
    }

    @Test
    void aGrowthFactorWhoseTableCouldFillIsRefused() {
        JarProcess.Result one = run(dir, "create", "g.bloom", "--expected", "1000", "--fpp", "0.01", "--grow",
                "--growth", "1");
        assertEquals(2, one.exit());
        assertTrue(one.err().contains("would fill the file's table of 120 segments after 120000 keys"), one.err());
        assertTrue(!Files.exists(dir.resolve("g.bloom")));
        run(dir, "create", "g.bloom", "--expected", "1000", "--fpp", "0.01", "--grow", "--growth", "1.5").assertOk();
        String help = run(dir, "create", "--help").assertOk().stdout();
        assertTrue(help.replaceAll("\\s+", " ").contains("could fill first is refused"), help);
    }
}
