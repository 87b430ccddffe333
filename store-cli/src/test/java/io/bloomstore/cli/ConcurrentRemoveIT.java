package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What remove promises under concurrency (docs/CLI.md, "Counting filters"): removes of different
 * keys by two processes at once end in exactly the counters of the same removes one after the
 * other, and a key that was added and not removed is never lost.
 */
class ConcurrentRemoveIT {
    private static final int KEYS = 200_000;
    /** Cells start at byte 4096 (docs/FORMAT.md); the header page before them holds per-handle counts. */
    private static final int CELLS_START = 4096;

    @TempDir
    Path dir;

    private static byte[] cells(Path file) throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        return Arrays.copyOfRange(bytes, CELLS_START, bytes.length);
    }

    @Test
    void removesOfDifferentKeysAtOnceEndAsTheyWouldOneAfterTheOther() throws Exception {
        Files.writeString(dir.resolve("first.txt"), KeyLines.numbered("removed-", 0, KEYS / 2));
        Files.writeString(dir.resolve("second.txt"), KeyLines.numbered("removed-", KEYS / 2, KEYS));
        Files.writeString(dir.resolve("kept.txt"), KeyLines.numbered("kept-", 0, KEYS));
        run(dir, "create", "c.bloom", "--expected", "400k", "--fpp", "0.01", "--counter-bits", "4").assertOk();
        for (String keys : List.of("first.txt", "second.txt", "kept.txt")) {
            run(dir, "add", "c.bloom", "--from", keys).assertOk();
        }
        Files.copy(dir.resolve("c.bloom"), dir.resolve("sequential.bloom"), StandardCopyOption.COPY_ATTRIBUTES);
        Files.copy(dir.resolve("c.bloom"), dir.resolve("concurrent.bloom"), StandardCopyOption.COPY_ATTRIBUTES);

        for (String keys : List.of("first.txt", "second.txt")) {
            assertEquals("removed 100,000 of 100,000 keys from sequential.bloom\n",
                    run(dir, "remove", "sequential.bloom", "--from", keys).assertOk().stdout());
        }
        // two JVMs at once, each fed its keys through stdin as soon as it starts (a thread each: the
        // common pool may have one)
        ExecutorService both = Executors.newFixedThreadPool(2);
        try {
            List<CompletableFuture<JarProcess.Result>> removes = List.of("first.txt", "second.txt").stream()
                    .map(keys -> CompletableFuture.supplyAsync(() -> {
                        try {
                            return run(dir, Files.readAllBytes(dir.resolve(keys)), "remove", "concurrent.bloom", "--from", "-");
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }, both))
                    .toList();
            for (CompletableFuture<JarProcess.Result> remove : removes) {
                assertEquals("removed 100,000 of 100,000 keys from concurrent.bloom\n", remove.join().assertOk().stdout());
            }
        } finally {
            both.shutdown();
        }

        assertArrayEquals(cells(dir.resolve("sequential.bloom")), cells(dir.resolve("concurrent.bloom")));
        for (String file : List.of("sequential.bloom", "concurrent.bloom")) {
            JarProcess.Result kept = run(dir, "contains", file, "--from", "kept.txt", "--print", "absent");
            assertEquals(0, kept.exit(), "every key added and not removed is present in " + file + ": " + kept.stdout());
        }
        String stillThere = run(dir, "contains", "concurrent.bloom", "--from", "first.txt", "--print", "present").stdout();
        assertTrue(stillThere.lines().count() < KEYS / 100, "the removed keys are gone, but for false positives");
    }
}
