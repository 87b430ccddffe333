package io.bloomstore.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.OpenMode;
import io.bloomstore.Pack;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Outputs bound to one descriptor, through the jar: while a command writes its hidden temporary,
 * another process's file is renamed over the temporary's name (a real rename, from this JVM, while
 * the command is held between making the temporary and publishing it: its stdin kept open, or the
 * process stopped with SIGSTOP). The command must refuse in one line naming the user's file (never
 * the temporary), exit 2, publish nothing, and leave the other file, unchanged, where it was put.
 * Against the jar before the fix, every case exited 0 with the other process's file published as
 * its output.
 */
class OutputSwappedByRenameIT {
    /** Rounds a stopped command may have finished before it was stopped (its temporary already published). */
    private static final int STOP_ATTEMPTS = 10;

    @TempDir
    Path dir;
    private Path neighbour;
    private byte[] neighbourBytes;
    private Path target;

    @BeforeEach
    void makeTheNeighboursFile() throws IOException {
        neighbour = dir.resolve("neighbour.bloom");
        try (BloomFilter filter = BloomFilter.create(neighbour, BloomSpec.forExpected(1_000, 0.01))) {
            filter.add("not yours");
            filter.seal();
        }
        neighbourBytes = Files.readAllBytes(neighbour);
        target = dir.resolve("out.bloom");
    }

    @Test
    void unpackFromAPipe() throws Exception {
        Path filter = dir.resolve("packed.bloom");
        try (BloomFilter packed = BloomFilter.create(filter, BloomSpec.forExpected(200_000, 0.01))) {
            for (long key = 0; key < 100_000; key++) {
                packed.add(key);
            }
        }
        Path pack = dir.resolve("packed.pack");
        Pack.packTo(filter, pack);
        assertRefusedWhileFedAndHeld(Files.readAllBytes(pack), "new", "unpack", "-", target.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"fixed", "growing"})
    void buildFromAPipe(String kind) throws Exception {
        byte[] keys = LongStream.range(0, 50_000).mapToObj(k -> "key-" + k)
                .collect(Collectors.joining("\n", "", "\n")).getBytes(StandardCharsets.UTF_8);
        String[] command = {"build", target.toString(), "--from", "-", "--expected", "100000", "--fpp", "0.01"};
        if (kind.equals("growing")) {
            command = Stream.concat(Arrays.stream(command), Stream.of("--grow")).toArray(String[]::new);
        }
        assertRefusedWhileFedAndHeld(keys, "building", command);
    }

    @Test
    void mergeStoppedWhileItWrites() throws Exception {
        BloomSpec spec = BloomSpec.builder().cells(1L << 28).hashes(3).build(); // 32 MiB of cells to write
        Path a = dir.resolve("a.bloom");
        Path b = dir.resolve("b.bloom");
        BloomFilter.create(a, spec).close();
        BloomFilter.create(b, spec).close();
        assertRefusedWhenStopped("merge", target.toString(), a.toString(), b.toString());
    }

    @Test
    void createStoppedWhileItWrites() throws Exception {
        assertRefusedWhenStopped("create", target.toString(), "--cells", Long.toString(1L << 28), "--hashes", "3");
    }

    /**
     * Feeds the command half its input, renames the neighbour's file over its temporary once it
     * exists (the command cannot publish before its input ends), then feeds the rest.
     */
    private void assertRefusedWhileFedAndHeld(byte[] input, String purpose, String... command) throws Exception {
        Path swapped;
        Process process;
        CompletableFuture<byte[]> out;
        CompletableFuture<byte[]> err;
        try (WatchService watch = watchFolder()) {
            process = JarProcess.start(dir, command);
            out = JarProcess.readAll(process.getInputStream());
            err = JarProcess.readAll(process.getErrorStream());
            OutputStream in = process.getOutputStream();
            in.write(input, 0, input.length / 2);
            in.flush();
            swapped = renameOverTheTemporary(watch, purpose, process);
            in.write(input, input.length / 2, input.length - input.length / 2);
            in.close();
        }
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the command ended");
        assertRefused(new JarProcess.Result(process.exitValue(), out.join(), new String(err.join(), StandardCharsets.UTF_8)),
                swapped);
    }

    /**
     * Stops the command (SIGSTOP) as soon as its temporary appears, renames the neighbour's file
     * over it, and lets it go on (SIGCONT). A command that published before the stop landed is run
     * again.
     */
    private void assertRefusedWhenStopped(String... command) throws Exception {
        for (int attempt = 1; attempt <= STOP_ATTEMPTS; attempt++) {
            Process process;
            CompletableFuture<byte[]> out;
            CompletableFuture<byte[]> err;
            Path swapped = null;
            try (WatchService watch = watchFolder()) {
                process = JarProcess.start(dir, command);
                out = JarProcess.readAll(process.getInputStream());
                err = JarProcess.readAll(process.getErrorStream());
                process.getOutputStream().close();
                Optional<Path> temporary = awaitTemporary(watch, "new", process);
                if (temporary.isPresent()) {
                    signal("STOP", process);
                    if (Files.exists(temporary.get())) { // stopped before its rename: it is ours to swap
                        swapped = renameNeighbourOver(temporary.get());
                    }
                    signal("CONT", process);
                }
            }
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the command ended");
            JarProcess.Result result = new JarProcess.Result(process.exitValue(), out.join(),
                    new String(err.join(), StandardCharsets.UTF_8));
            if (swapped != null) {
                System.out.println(command[0] + ": stopped while it wrote in run " + attempt + " of at most " + STOP_ATTEMPTS);
                assertRefused(result, swapped);
                return;
            }
            result.assertOk(); // finished before it could be stopped: a clean run, then try again
            Files.delete(target);
        }
        throw new AssertionError("the command published before it could be stopped in each of " + STOP_ATTEMPTS
                + " runs");
    }

    private Path renameOverTheTemporary(WatchService watch, String purpose, Process process)
            throws IOException, InterruptedException {
        Path temporary = awaitTemporary(watch, purpose, process)
                .orElseThrow(() -> new AssertionError("the command ended before it made its temporary"));
        return renameNeighbourOver(temporary);
    }

    /**
     * Waits for the command's temporary of {@code purpose} to appear (inotify, through a
     * {@link WatchService} registered before the command started), or for the command to end.
     */
    private Optional<Path> awaitTemporary(WatchService watch, String purpose, Process process)
            throws InterruptedException {
        String prefix = "." + target.getFileName() + "." + process.pid() + ".";
        while (process.isAlive()) {
            WatchKey key = watch.poll(100, TimeUnit.MILLISECONDS);
            if (key == null) {
                continue;
            }
            for (WatchEvent<?> event : key.pollEvents()) {
                if (event.context() instanceof Path name && name.toString().startsWith(prefix)
                        && name.toString().endsWith("." + purpose + ".tmp")) {
                    return Optional.of(dir.resolve(name));
                }
            }
            key.reset();
        }
        return Optional.empty();
    }

    private WatchService watchFolder() throws IOException {
        WatchService watch = dir.getFileSystem().newWatchService();
        dir.register(watch, StandardWatchEventKinds.ENTRY_CREATE);
        return watch;
    }

    /** What another process does: a hard link to its file, renamed over the name (atomic, as rename is). */
    private Path renameNeighbourOver(Path temporary) throws IOException {
        Path staging = Files.createLink(dir.resolve("staging"), neighbour);
        Files.move(staging, temporary, StandardCopyOption.ATOMIC_MOVE);
        return temporary;
    }

    private static void signal(String signal, Process process) throws IOException, InterruptedException {
        assertEquals(0, new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor(),
                "kill -" + signal);
    }

    private void assertRefused(JarProcess.Result result, Path swapped) throws IOException {
        result.assertError(2);
        assertTrue(result.err().startsWith("bloomstore: " + target + ": not written: another process replaced"),
                result.err());
        assertFalse(result.err().contains(".tmp"), "names the user's file, never the temporary: " + result.err());
        assertFalse(Files.exists(target), "nothing is published");
        assertTrue(Files.isSameFile(swapped, neighbour), "the neighbour's file is still where it put it");
        assertArrayEquals(neighbourBytes, Files.readAllBytes(neighbour), "and was never written into");
        try (BloomFilter file = BloomFilter.open(neighbour, OpenMode.READ_ONLY)) {
            assertTrue(file.isSealed() && file.mightContain("not yours"));
        }
        List<String> left = JarProcess.filesIn(dir);
        assertTrue(left.stream().noneMatch(name -> name.startsWith("hs_err")), "no JVM crash: " + left);
        assertEquals(1, left.stream().filter(name -> name.endsWith(".tmp")).count(),
                "the command's own temporary is deleted, the neighbour's file is not: " + left);
    }
}
