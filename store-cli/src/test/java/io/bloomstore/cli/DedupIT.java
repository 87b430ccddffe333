package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.filesIn;
import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** dedup as a persistent dedup index: across runs, with binary lines, and prompt enough for a live pipe. */
class DedupIT {
    @TempDir
    Path dir;

    private static byte[] lines(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void printsEachLineOnceAcrossRuns() throws Exception {
        String first = run(dir, lines("a\nb\na\r\n\nc\nb\n"), "dedup", "seen.bloom", "--expected", "10k", "--fpp", "1e-6")
                .assertOk().stdout();
        assertEquals("a\nb\nc\n", first);
        String second = run(dir, lines("c\nd\na\ne\nd\n"), "dedup", "seen.bloom", "--expected", "10k", "--fpp", "1e-6")
                .assertOk().stdout();
        assertEquals("d\ne\n", second);
        // once created, the sizing options are not needed
        assertEquals("f\n", run(dir, lines("e\nf\n"), "dedup", "seen.bloom").assertOk().stdout());
        assertEquals(List.of("seen.bloom"), filesIn(dir));
        assertEquals(0, run(dir, "contains", "-q", "seen.bloom", "a", "b", "c", "d", "e", "f").exit());
    }

    @Test
    void binaryLinesPassThroughUnchanged() {
        byte[] input = {'x', 0, (byte) 0xff, '\n', (byte) 0xc3, (byte) 0x28, '\n', 'x', 0, (byte) 0xff, '\n'};
        byte[] expected = {'x', 0, (byte) 0xff, '\n', (byte) 0xc3, (byte) 0x28, '\n'};
        assertArrayEquals(expected, run(dir, input, "dedup", "bin.bloom", "--cells", "100000", "--hashes", "7").assertOk().out());
    }

    @Test
    void aLineIsPrintedAsSoonAsItIsReadNotAtTheEnd() throws Exception {
        run(dir, "create", "live.bloom", "--expected", "1000", "--fpp", "0.001").assertOk();
        Process process = JarProcess.start(dir, "dedup", "live.bloom");
        try (OutputStream stdin = process.getOutputStream();
                BufferedReader stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String id : List.of("order-1", "order-2")) {
                stdin.write(lines(id + "\n"));
                stdin.flush();
                CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
                    try {
                        return stdout.readLine();
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                assertEquals(id, line.get(30, TimeUnit.SECONDS), "printed while the input is still open");
            }
            stdin.write(lines("order-1\n"));
        }
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue());
    }

    @Test
    void aMissingIndexIsAnErrorUnlessSized() {
        String err = run(dir, lines("a\n"), "dedup", "none.bloom").assertError(2).err();
        assertTrue(err.contains("--expected N --fpp P"), err);
        run(dir, lines("a\n"), "dedup", "other.bloom", "--cells", "1000", "--hashes", "3").assertOk();
        String incompatible = run(dir, lines("a\n"), "dedup", "other.bloom", "--cells", "2000", "--hashes", "3")
                .assertError(2).err();
        assertTrue(incompatible.contains("cells (m): 1000 vs 2000"), incompatible);
    }
}
