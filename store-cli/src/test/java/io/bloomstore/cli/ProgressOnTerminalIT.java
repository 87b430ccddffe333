package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

    private String onTerminal(String... args) {
        String command = JarProcess.command(args).stream()
                .map(word -> "'" + word.replace("'", "'\\''") + "'")
                .collect(Collectors.joining(" "));
        List<String> script = new ArrayList<>(List.of("script", "-qec", command, "/dev/null"));
        JarProcess.Result result = JarProcess.run(new ProcessBuilder(script), dir, new byte[0]);
        assertEquals(0, result.exit(), result.stdout());
        return result.stdout();
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
