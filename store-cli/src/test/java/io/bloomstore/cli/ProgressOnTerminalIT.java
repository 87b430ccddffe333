package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Progress bars appear by themselves when stderr is a terminal: the jar runs under script(1),
 * which gives it a pseudo-terminal, as an interactive shell would.
 */
class ProgressOnTerminalIT {
    @TempDir
    Path dir;

    @BeforeEach
    void filterAndKeys() throws Exception {
        StringBuilder keys = new StringBuilder();
        for (int i = 0; i < 200_000; i++) {
            keys.append("key-").append(i).append('\n');
        }
        Files.writeString(dir.resolve("keys.txt"), keys);
        run(dir, "create", "f.bloom", "--expected", "200k", "--fpp", "0.01").assertOk();
    }

    /**
     * The jar's command line run by script(1), on a pseudo-terminal of its own, with the TERM an
     * interactive shell has (a build's environment may have none, and terminal libraries behave
     * differently without it: JLine then makes a dumb terminal that leaves SIGINT alone).
     */
    private static ProcessBuilder underScript(String... args) {
        String command = JarProcess.command(args).stream()
                .map(word -> "'" + word.replace("'", "'\\''") + "'")
                .collect(Collectors.joining(" "));
        ProcessBuilder script = new ProcessBuilder(new ArrayList<>(List.of("script", "-qec", command, "/dev/null")));
        script.environment().put("TERM", "xterm");
        return script;
    }

    private String onTerminal(String... args) {
        JarProcess.Result result = JarProcess.run(underScript(args), dir, new byte[0]);
        assertEquals(0, result.exit(), result.stdout());
        return result.stdout();
    }

    /**
     * Ctrl-C makes the terminal send SIGINT. The JVM's own handler runs the shutdown hooks, which
     * delete the build's temporary; a terminal library that installs its handler instead (JLine,
     * when the bar library asks it for the width) ends the process without them. The keys come
     * through a named pipe this test holds open until after the signal, so the build is still
     * running when it arrives however fast it builds (a 3 M-line file, built in memory, was done
     * before the signal on a quiet host).
     */
    @Test
    void ctrlCWhileABarIsDrawnDeletesTheTemporaryAndExits130() throws Exception {
        assumeFalse(JarProcess.sigintIgnored(), "SIGINT is ignored by this process tree");
        Path keys = dir.resolve("keys.fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", keys.toString()).start().waitFor());
        CountDownLatch signalled = new CountDownLatch(1);
        Thread writer = new Thread(() -> {
            try (var lines = Files.newBufferedWriter(keys)) { // opens once the build opens its end
                for (int i = 0; i < 100_000; i++) {
                    lines.write("key-" + i + "\n");
                }
                lines.flush();
                signalled.await(60, TimeUnit.SECONDS);
            } catch (IOException | InterruptedException e) {
                // the build is gone: its end of the pipe is closed
            }
        }, "keys-into-the-pipe");
        writer.start();
        Path screen = Files.createTempFile("terminal", ".txt");
        Process script = underScript("build", "big.bloom", "--from", "keys.fifo", "--expected", "3M", "--fpp", "1e-6")
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(screen.toFile())
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        // the moment a user would press Ctrl-C: the build's bar is on the screen, its temporary on disk
        while (!Files.readString(screen).contains("build ")
                || JarProcess.filesIn(dir).stream().noneMatch(name -> name.endsWith(".building.tmp"))) {
            assertTrue(script.isAlive() && System.nanoTime() < deadline, "no bar while building: " + Files.readString(screen));
            Thread.sleep(5);
        }
        ProcessHandle java = script.descendants()
                .filter(p -> p.info().command().orElse("").endsWith("/java"))
                .findFirst().orElseThrow();
        assertEquals(0, new ProcessBuilder("kill", "-INT", Long.toString(java.pid())).start().waitFor());
        assertTrue(script.waitFor(60, TimeUnit.SECONDS));
        signalled.countDown();
        writer.join();
        assertEquals(130, script.exitValue(), "the exit status of a process ended by SIGINT");
        assertEquals(List.of("f.bloom", "keys.fifo", "keys.txt"), JarProcess.filesIn(dir), "no temporary, no big.bloom");
        Files.delete(screen);
    }

    /** The commands that scan whole filters draw a bar too: inspect, verify (a sealed filter) and estimate. */
    @Test
    void scansOfWholeFiltersDrawABar() {
        run(dir, "build", "b.bloom", "--from", "keys.txt", "--expected", "200k", "--fpp", "0.01").assertOk();
        run(dir, "build", "g.bloom", "--from", "keys.txt", "--expected", "50k", "--fpp", "0.01", "--grow").assertOk();
        for (String[] scan : List.of(new String[] {"inspect", "b.bloom"}, new String[] {"inspect", "g.bloom"},
                new String[] {"verify", "b.bloom"},
                new String[] {"estimate", "f.bloom", "b.bloom"})) {
            String shown = onTerminal(scan);
            assertTrue(shown.contains(scan[0] + " 100%"), shown);
            String hidden = onTerminal(concat("--progress", "never", scan));
            assertFalse(hidden.contains(scan[0] + " 100%"), hidden);
        }
    }

    private static String[] concat(String a, String b, String[] rest) {
        List<String> all = new ArrayList<>(List.of(a, b));
        all.addAll(List.of(rest));
        return all.toArray(String[]::new);
    }

    @Test
    void aTerminalGetsABarUnlessItIsTurnedOff() {
        String shown = onTerminal("add", "f.bloom", "--from", "keys.txt");
        assertTrue(shown.contains("add 100%"), shown);
        assertTrue(shown.contains("added 200,000 keys to f.bloom"), shown);

        String hidden = onTerminal("--progress", "never", "add", "f.bloom", "--from", "keys.txt");
        assertFalse(hidden.contains("%"), hidden);
        assertTrue(hidden.contains("added 200,000 keys to f.bloom"), hidden);
    }
}
