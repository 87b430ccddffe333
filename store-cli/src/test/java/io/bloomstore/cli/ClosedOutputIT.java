package io.bloomstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reader that stops early ({@code | head}) is the reader's choice: bloomstore ends quietly with
 * the status a shell gives a process ended by SIGPIPE, 141, as Unix tools do, instead of an error
 * line and exit 2.
 */
class ClosedOutputIT {
    @TempDir
    Path dir;

    @BeforeEach
    void filterAndKeys() throws Exception {
        Files.writeString(dir.resolve("keys.txt"), IntStream.range(0, 300_000)
                .mapToObj(i -> "key-" + i).collect(Collectors.joining("\n", "", "\n")));
        JarProcess.run(dir, "build", "f.bloom", "--from", "keys.txt", "--fpp", "0.01").assertOk();
    }

    @ParameterizedTest
    @ValueSource(strings = {"contains f.bloom --from keys.txt --print present", "dedup new.bloom --from keys.txt",
        "--help"})
    void aPipeClosedByItsReaderEndsTheCommandQuietlyWithTheStatusOfSigpipe(String arguments) {
        if (arguments.startsWith("dedup")) {
            JarProcess.run(dir, "create", "new.bloom", "--expected", "1M", "--fpp", "0.01").assertOk();
        }
        String command = JarProcess.shellCommand(arguments.split(" "));
        // head -c 1 closes the pipe after one byte; the exit status of bloomstore is PIPESTATUS[0]
        JarProcess.Result result = JarProcess.run(new ProcessBuilder("bash", "-c",
                command + " | head -c 1 > /dev/null; echo \"status ${PIPESTATUS[0]}\""), dir, new byte[0]);
        int expected = arguments.equals("--help") ? 0 : ExitCode.OUTPUT_CLOSED; // help fits in the pipe's buffer
        assertEquals(List.of("status " + expected), result.stdout().lines().toList());
        assertEquals("", result.err(), "nothing on stderr");
    }
}
