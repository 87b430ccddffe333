package io.bloomstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code contains} with a few keys, all on the command line, reads a fixed filter without mapping
 * it and so loads no class of Chronicle (the start-up saving: docs/BENCHMARKS.md, "CLI start-up"),
 * and answers as the mapped query of the same keys through --from; more keys, --from, or a growing
 * file map it. Read from the JVM's log of the classes the real jar loaded.
 */
class UnmappedContainsIT {
    private static final String CHRONICLE = "net.openhft.chronicle.";

    @TempDir
    Path dir;

    /** Runs the jar with {@code args}, logging the classes it loads; returns its output and that log. */
    private String[] runLoggingClasses(String... args) throws IOException {
        Path log = Files.createTempFile(dir, "classes", ".log");
        List<String> command = new ArrayList<>(JarProcess.command(args));
        command.add(1, "-Xlog:class+load=info:file=" + log);
        JarProcess.Result result = JarProcess.run(new ProcessBuilder(command), dir, new byte[0]);
        assertEquals("", result.err());
        return new String[] {result.stdout(), Files.readString(log)};
    }

    /** {@code count} keys, the first half added to the filters below, the others not. */
    private static List<String> asked(int count) {
        return IntStream.range(0, count).mapToObj(i -> i < count / 2 ? "key-" + i : "other-" + i).toList();
    }

    private static void writeKeys(Path file, List<String> keys) throws IOException {
        Files.write(file, (String.join("\n", keys) + "\n").getBytes(StandardCharsets.UTF_8));
    }

    private String[] contains(String file, List<String> keys) throws IOException {
        List<String> args = new ArrayList<>(List.of("contains", file));
        args.addAll(keys);
        return runLoggingClasses(args.toArray(String[]::new));
    }

    /** The answers of the mapped query of {@code keys} through --from. */
    private String containsFrom(String file, List<String> keys) throws IOException {
        writeKeys(dir.resolve("asked.txt"), keys);
        String[] mapped = runLoggingClasses("contains", file, "--from", "asked.txt");
        assertTrue(mapped[1].contains(CHRONICLE), "--from maps the file");
        return mapped[0];
    }

    private static void assertNoChronicle(String classes) {
        assertTrue(classes.contains("io.bloomstore.UnmappedFilter "), "the log names the classes loaded");
        assertFalse(classes.contains(CHRONICLE), () -> "Chronicle classes loaded: " + classes.lines()
                .filter(line -> line.contains(CHRONICLE)).limit(5).toList());
    }

    @Test
    void fewKeysOnTheCommandLineAreAnsweredWithoutChronicleAsTheMappedQueryAnswersThem() throws IOException {
        JarProcess.run(dir, "create", "c.bloom", "--expected", "1000", "--fpp", "0.01", "--counter-bits", "4",
                "--layout", "blocked").assertOk();
        writeKeys(dir.resolve("added.txt"), IntStream.range(0, 1000).mapToObj(i -> "key-" + i).toList());
        JarProcess.run(dir, "add", "c.bloom", "--from", "added.txt").assertOk();

        List<String> few = asked(ContainsCommand.UNMAPPED_KEYS);
        String[] unmapped = contains("c.bloom", few);
        assertNoChronicle(unmapped[1]);
        assertTrue(unmapped[0].contains("key-0\tpresent\n") && unmapped[0].contains("\tabsent\n"), unmapped[0]);
        assertEquals(containsFrom("c.bloom", few), unmapped[0]);

        List<String> many = asked(ContainsCommand.UNMAPPED_KEYS + 2);
        String[] mapped = contains("c.bloom", many);
        assertTrue(mapped[1].contains(CHRONICLE), "more keys than the bound: mapped");
        assertEquals(containsFrom("c.bloom", many), mapped[0]);
    }

    @Test
    void aGrowingFileIsMapped() throws IOException {
        JarProcess.run(dir, "create", "g.bloom", "--grow", "--expected", "1000", "--fpp", "0.01").assertOk();
        JarProcess.run(dir, "add", "g.bloom", "key-0").assertOk();
        String[] answered = contains("g.bloom", List.of("key-0"));
        assertEquals("key-0\tpresent\n", answered[0]);
        assertTrue(answered[1].contains(CHRONICLE), "a growing file has no unmapped reader");
    }
}
