package io.bloomstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.bloomstore.BloomFilter;
import io.bloomstore.OpenMode;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An {@code add --from -} ended by a signal, as a user ends a pipeline (Ctrl-C sends SIGINT, a
 * service manager SIGTERM): the process exits with the signal's status and its handle gives its
 * writer count back, so the file does not go on saying that someone writes to it.
 */
class InterruptedAddIT {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "SIG{0}")
    @CsvSource({"TERM, 143", "INT, 130"})
    void aSignalledAddLeavesNoOpenWriterBehind(String signal, int exitStatus) throws Exception {
        assumeFalse(signal.equals("INT") && JarProcess.sigintIgnored(), "SIGINT is ignored by this process tree");
        JarProcess.run(dir, "create", "f.bloom", "--expected", "10k", "--fpp", "0.01").assertOk();
        Path file = dir.resolve("f.bloom");
        Process add = JarProcess.start(dir, "add", "f.bloom", "--from", "-");
        try (OutputStream keys = add.getOutputStream()) {
            keys.write("alpha\nbeta\n".getBytes(StandardCharsets.UTF_8));
            keys.flush();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (openWriters(file) != 1) { // the add has opened the file and waits for more keys
                assertTrue(add.isAlive() && System.nanoTime() < deadline, "add never opened the file");
                Thread.sleep(5);
            }
            assertEquals(0, new ProcessBuilder("kill", "-" + signal, Long.toString(add.pid())).start().waitFor());
            assertTrue(add.waitFor(60, TimeUnit.SECONDS));
        }
        assertEquals(exitStatus, add.exitValue(), new String(add.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        assertEquals(0, openWriters(file), "the writer count after the add ended");
    }

    private static int openWriters(Path file) throws Exception {
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            return filter.shape().openWriters();
        }
    }
}
