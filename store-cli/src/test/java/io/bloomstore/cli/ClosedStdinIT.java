package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A command started with descriptor 0 closed ({@code <&-}) has no stdin: every verb that reads
 * stdin refuses with one line and exit 2, instead of reading whatever file the JVM opened at
 * descriptor 0 for itself (its runtime image, read as 856,128 keys).
 */
class ClosedStdinIT {
    private static final Path LAUNCHER = Path.of(System.getProperty("bloomstore.launcher", "../bin/bloomstore")).toAbsolutePath();

    @TempDir
    Path dir;
    /** The launcher's cache folder ({@code XDG_CACHE_HOME}), so that no test writes in the user's. */
    @TempDir
    Path cache;

    @BeforeEach
    void filter() {
        run(dir, "create", "f.bloom", "--expected", "10k", "--fpp", "0.01").assertOk();
    }

    /** Runs {@code command} (shell words, quoted) under bash with descriptor 0 closed. */
    private JarProcess.Result withStdinClosed(String command) {
        ProcessBuilder shell = new ProcessBuilder("bash", "-c", "exec " + command + " <&-");
        shell.environment().put("JAVA_HOME", System.getProperty("java.home"));
        shell.environment().put("XDG_CACHE_HOME", cache.toString());
        return JarProcess.run(shell, dir, new byte[0]);
    }

    @ParameterizedTest
    @ValueSource(strings = {"add f.bloom --from -", "contains f.bloom --from -", "remove f.bloom --from -",
        "dedup f.bloom", "build new.bloom --from - --fpp 0.01", "unpack - new.bloom"})
    void theJarRefusesToReadAClosedStdin(String arguments) throws Exception {
        byte[] before = Files.readAllBytes(dir.resolve("f.bloom"));
        String err = withStdinClosed(JarProcess.shellCommand(arguments.split(" "))).assertError(2).err();
        assertTrue(err.contains("stdin is closed"), err);
        assertTrue(err.contains("lib/modules"), "names what the JVM put at descriptor 0: " + err);
        assertArrayEquals(before, Files.readAllBytes(dir.resolve("f.bloom")), "nothing was added");
        assertEquals(List.of("f.bloom"), JarProcess.filesIn(dir));
    }

    @Test
    void theLauncherSaysSoBeforeTheJvmStarts() throws Exception {
        byte[] before = Files.readAllBytes(dir.resolve("f.bloom"));
        String err = withStdinClosed(JarProcess.shellQuoted(List.of(LAUNCHER.toString(), "add", "f.bloom", "--from", "-")))
                .assertError(2).err();
        assertTrue(err.contains("stdin is closed"), err);
        assertArrayEquals(before, Files.readAllBytes(dir.resolve("f.bloom")));
    }

    @Test
    void anEmptyOrRedirectedStdinIsStillRead() throws Exception {
        Files.writeString(dir.resolve("keys.txt"), "a\nb\n");
        for (String redirect : List.of("< /dev/null", "< keys.txt", "< " + Path.of(System.getProperty("java.home"), "release"))) {
            ProcessBuilder shell = new ProcessBuilder("bash", "-c",
                    JarProcess.shellCommand("add", "f.bloom", "--from", "-") + " " + redirect);
            JarProcess.Result result = JarProcess.run(shell, dir, new byte[0]);
            assertEquals(0, result.exit(), redirect + ": " + result.err());
            assertFalse(result.err().contains("stdin"), result.err());
        }
        assertEquals(0, run(dir, "contains", "-q", "f.bloom", "a", "b").exit());
    }

    @Test
    void aCommandThatDoesNotReadStdinRunsWithItClosed() {
        JarProcess.Result result = withStdinClosed(JarProcess.shellCommand("add", "f.bloom", "k1", "k2"));
        assertEquals(0, result.exit(), result.err());
    }
}
