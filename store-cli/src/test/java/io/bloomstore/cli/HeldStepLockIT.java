package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A growing file whose step lock is held by a stopped process (an {@code add} that stops itself,
 * as Ctrl-Z would, while it writes the next segment): {@code verify} and {@code inspect} name the
 * process and say it is stopped; another {@code add} that needs the growth, and {@code pack}, end
 * within a bounded time with one line naming the process and how to resume it (not a spin, not
 * advice to free disk space); once it is continued, everything completes and no key is lost.
 */
class HeldStepLockIT {
    @TempDir
    Path dir;

    @Test
    void aStoppedGrowerIsNamedAndNothingWaitsForItWithoutEnd() throws Exception {
        run(dir, "create", "g.bloom", "--expected", "1000", "--fpp", "0.01", "--grow").assertOk();
        Files.writeString(dir.resolve("a.txt"), lines("a-", 1500));
        Files.writeString(dir.resolve("b.txt"), lines("b-", 3000));
        List<String> command = JarProcess.command("add", "g.bloom", "--from", "a.txt");
        command.add(1, "-Dbloomstore.test.stop-at=growth");
        Process holder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("holder.out").toFile()).start();
        try {
            awaitStopped(holder.pid());
            String pid = Long.toString(holder.pid());

            String verified = run(dir, "verify", "g.bloom").assertOk().stdout();
            assertTrue(verified.contains("step lock held by process " + pid + ", stopped") && verified.contains(
                    "kill -CONT " + pid), verified);
            String inspected = new ObjectMapper().readTree(run(dir, "inspect", "g.bloom", "--json").assertOk().stdout())
                    .get("stepLock").asText();
            assertTrue(inspected.startsWith("held by process " + pid + ", stopped"), inspected);

            JarProcess.Result refused = run(dir, "add", "g.bloom", "--from", "b.txt");
            assertEquals(2, refused.exit(), refused.err());
            assertTrue(refused.err().contains("process " + pid + " holds the file's step lock (growing it) and is stopped")
                    && refused.err().contains("kill -CONT " + pid), refused.err());

            JarProcess.Result pack = run(dir, "pack", "g.bloom", "g.pack");
            assertEquals(2, pack.exit(), pack.err());
            assertTrue(pack.err().contains("process " + pid + " holds the file's step lock") && pack.err().contains(
                    "kill -CONT " + pid) && !pack.err().contains("disk space"), pack.err());
            assertFalse(Files.exists(dir.resolve("g.pack")));

            assertEquals(0, new ProcessBuilder("kill", "-CONT", pid).start().waitFor());
            assertTrue(holder.waitFor(5, TimeUnit.MINUTES), "the continued add ends");
            assertEquals(0, holder.exitValue(), Files.readString(dir.resolve("holder.out")));
        } finally {
            holder.destroyForcibly();
        }
        run(dir, "add", "g.bloom", "--from", "b.txt").assertOk();
        assertEquals(0, run(dir, "contains", "-q", "g.bloom", "--from", "a.txt").exit(), "the stopped add lost nothing");
        assertEquals(0, run(dir, "contains", "-q", "g.bloom", "--from", "b.txt").exit(), "nor the refused one, added again");
        String verified = run(dir, "verify", "g.bloom").assertOk().stdout();
        assertFalse(verified.contains("step lock"), verified);
        run(dir, "pack", "g.bloom", "g.pack").assertOk();
    }

    private static String lines(String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> prefix + i + "\n").collect(Collectors.joining());
    }

    /** Waits until the process is stopped (state T in /proc/PID/stat): at its stop point, holding the lock. */
    private static void awaitStopped(long pid) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (true) {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            if (stat.charAt(stat.lastIndexOf(')') + 2) == 'T') {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "the add never reached its stop point");
            Thread.sleep(20);
        }
    }
}
