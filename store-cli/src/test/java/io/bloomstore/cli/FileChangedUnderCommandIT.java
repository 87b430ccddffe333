package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A filter file changed under a running command by another program: truncated, or (sparse) on a
 * disk that fills. The pages a command has mapped then fault (SIGBUS), which the JVM turns into an
 * {@link InternalError}: the command must end with one line that names the file and says what
 * happened, exit 2 (for contains, not 1, "absent"), no stack trace and no hs_err file.
 */
class FileChangedUnderCommandIT {
    /** Keys fed before the change: enough for the JIT to have compiled the add and query paths (see docs/RELIABILITY.md). */
    private static final int WARM_UP_KEYS = 1_000_000;
    private static final byte[] WARM_UP = KeyLines.numberedBytes("warm-", 0, WARM_UP_KEYS);
    /** Far above a run's 1 to 5 s on a loaded machine. */
    private static final long LIMIT_SECONDS = 120;

    @TempDir
    Path dir;

    /**
     * Runs {@code verb FILE --from -} in {@code where}: feeds {@code warmUp} (once it is in the pipe,
     * the command has the file mapped and has added or queried most of it), then {@code change}, then
     * new keys; returns how the command ended. The command must end within {@link #LIMIT_SECONDS} of
     * its start, its input fed or not: a command that stops reading at the fault and runs on instead
     * of ending (as an add once did, for minutes: docs/RELIABILITY.md) fails here.
     */
    private JarProcess.Result changeDuringRun(Path where, String verb, String file, byte[] warmUp, Runnable change)
            throws Exception {
        Process process = JarProcess.start(where, verb, file, "--from", "-");
        CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> readAll(process, true));
        CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(process, false));
        CompletableFuture<Void> feed = CompletableFuture.runAsync(() -> {
            try (OutputStream stdin = process.getOutputStream()) {
                stdin.write(warmUp);
                stdin.flush();
                change.run();
                stdin.write(KeyLines.numberedBytes("after-", 0, 200_000));
            } catch (IOException e) {
                // the command stopped reading at the fault (or was killed below): what it printed says how
            }
        });
        boolean ended = process.waitFor(LIMIT_SECONDS, TimeUnit.SECONDS);
        if (!ended) {
            process.destroyForcibly().waitFor();
        }
        feed.get();
        assertTrue(ended, "ended within " + LIMIT_SECONDS + " s of its start");
        return new JarProcess.Result(process.exitValue(), out.get(), new String(err.get(), StandardCharsets.UTF_8));
    }

    private static byte[] readAll(Process process, boolean stdout) {
        try {
            return (stdout ? process.getInputStream() : process.getErrorStream()).readAllBytes();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void assertOneLineAndNoCrash(JarProcess.Result result, Path where, String... says) throws IOException {
        assertEquals(ExitCode.ERROR, result.exit(), result.err());
        String err = result.err();
        assertTrue(err.startsWith("bloomstore: ") && err.indexOf('\n') == err.length() - 1, "one line: " + err);
        assertFalse(err.contains("Exception") || err.contains("Error") || err.contains("\tat "), err);
        for (String said : says) {
            assertTrue(err.contains(said), said + " in: " + err);
        }
        assertTrue(JarProcess.filesIn(where).stream().noneMatch(name -> name.startsWith("hs_err")), "no JVM crash report");
    }

    private static Runnable truncate(Path file) {
        return () -> {
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.truncate(4096); // the header page only: every cell page is gone
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"add", "contains", "dedup", "remove"})
    void aFilterTruncatedByAnotherProgramEndsTheCommandWithOneLine(String verb) throws Exception {
        List<String> create = new ArrayList<>(List.of("create", "f.bloom", "--cells", "100M", "--hashes", "3"));
        if (verb.equals("remove")) {
            create.addAll(List.of("--counter-bits", "2"));
        }
        run(dir, create.toArray(String[]::new)).assertOk();
        JarProcess.Result result = changeDuringRun(dir, verb, "f.bloom", WARM_UP, truncate(dir.resolve("f.bloom")));
        assertOneLineAndNoCrash(result, dir, "f.bloom: the file was truncated by another program", "now 4,096 bytes");
    }

    @Test
    void aSparseFilterOnADiskThatFillsEndsTheCommandWithOneLine() throws Exception {
        // 1 GiB of cells, sparse; the warm-up adds 2,000 keys 500 times over (at most 2,000 pages, 8 MiB),
        // then the disk is filled, and the next keys need pages there is no room for
        byte[] distinct = KeyLines.numberedBytes("warm-", 0, 2_000);
        byte[] warmUp = new byte[distinct.length * 500];
        for (int i = 0; i < 500; i++) {
            System.arraycopy(distinct, 0, warmUp, i * distinct.length, distinct.length);
        }
        try (SmallFileSystem small = SmallFileSystem.mount(dir, "small", "64m")) {
            run(small.root(), "create", "s.bloom", "--cells", "8G", "--hashes", "1", "--layout", "blocked", "--sparse")
                    .assertOk();
            Path filler = small.root().resolve("filler");
            JarProcess.Result result = changeDuringRun(small.root(), "add", "s.bloom", warmUp, () -> fill(filler));
            assertOneLineAndNoCrash(result, small.root(), "s.bloom: the disk is full");
        }
    }

    /** Writes {@code file} until the file system has no room left. */
    private static void fill(Path file) {
        byte[] block = new byte[1 << 20];
        try (OutputStream out = Files.newOutputStream(file)) {
            while (true) {
                out.write(block);
            }
        } catch (IOException e) {
            // full
        }
    }
}
