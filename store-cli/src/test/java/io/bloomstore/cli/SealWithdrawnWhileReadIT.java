package io.bloomstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.CellsCheck;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.OpenMode;
import io.bloomstore.Pack;
import io.bloomstore.testing.ChildJvm;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sealed filter opened for writing by another process while {@code verify} checks its cells or
 * {@code pack} copies them (issue 16, defects 3 and 4). The writer is a real process
 * ({@link SealWithdrawingWriter}), ready before the jar starts and told to open the file the moment
 * the jar is reading the cells (it has read {@value #READ_BEFORE_THE_WRITER} bytes from the disk, by
 * /proc/PID/io; the cells were dropped from the page cache); it withdraws the seal and adds 2,000
 * keys while the jar reads the rest of 256 MiB of cells.
 * Then:
 * <ul>
 *   <li>verify exits 0 and says the file was opened for writing while it was checked, never
 *       "cells are damaged" (exit 1) of a file nothing damaged;
 *   <li>pack to a file exits 0 with a pack that restores to a file whose cells match its seal, or
 *       that is unsealed; never a sealed header over cells copied after the writer came;
 *   <li>pack to stdout either gives such a pack or fails in one line (exit 2), leaving a frame
 *       without its end that unpack refuses.
 * </ul>
 * Each case runs rounds until the writer has opened the file while the jar was still reading it
 * (at most five), and must see that at least once.
 */
class SealWithdrawnWhileReadIT {
    /**
     * 256 MiB of 1-bit cells, allocated and dropped from the page cache before each run (GNU dd's
     * {@code iflag=nocache}), so the jar reads them from the disk: a pass of a second or so, a
     * wide window for the writer to land in however loaded the machine.
     */
    private static final long CELLS = 1L << 31;
    private static final long READ_BEFORE_THE_WRITER = 8 << 20;
    private static final int MAX_ROUNDS = 5;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path dir;
    private Path file;

    /** What a round showed: the jar's run, and whether the writer's open returned while the jar still ran. */
    record Round(String[] args, int exit, byte[] out, String err, boolean writerCameDuringTheRun) {
        String stdout() {
            return new String(out, StandardCharsets.UTF_8);
        }
    }

    @BeforeEach
    void sealedFilter() throws IOException {
        file = dir.resolve("big.bloom");
        try (BloomFilter filter = BloomFilter.create(file, BloomSpec.builder().cells(CELLS).hashes(7).build())) {
            for (int i = 0; i < 1_000; i++) {
                filter.add("sealed-" + i);
            }
            filter.seal();
        }
    }

    @Test
    void verifyOfAFileOpenedForWritingDuringTheCheckReportsThatNotDamage() throws Exception {
        roundsUntilTheWriterCameDuringOne("verify", round -> new String[] {"verify", file.toString()}, run -> {
            assertEquals(0, run.exit(), "never 'damaged' (1) for a file nothing damaged: " + run.err());
            assertEquals("", run.err());
            String said = run.stdout();
            assertTrue(said.startsWith(file + ": ok ("), said);
            // the writer came during the check itself, not only while the JVM started or ended
            return said.contains("opened for writing while its cells were checked");
        });
    }

    @Test
    void aPackToAFileRestoresToAFileWhoseSealHoldsWhenAWriterCameDuringIt() throws Exception {
        roundsUntilTheWriterCameDuringOne("pack FILE OUT", round -> new String[] {"pack", file.toString(),
            dir.resolve("round-" + round + ".pack").toString()}, run -> {
                assertEquals(0, run.exit(), run.err());
                assertEquals("", run.err());
                String pack = run.args()[2];
                System.out.println("restored cells: " + restore(Files.readAllBytes(Path.of(pack))));
                return run.writerCameDuringTheRun();
            });
    }

    @Test
    void aPackToStdoutEitherHoldsItsSealOrFailsUnfinished() throws Exception {
        roundsUntilTheWriterCameDuringOne("pack FILE -", round -> new String[] {"pack", file.toString(), "-"}, run -> {
            if (run.exit() == 0) {
                assertEquals("", run.err());
                restore(run.out());
            } else {
                assertEquals(2, run.exit(), run.err());
                assertTrue(run.err().startsWith("bloomstore: " + file + ": was opened for writing while it was being "
                        + "packed") && run.err().indexOf('\n') == run.err().length() - 1, run.err());
                InvalidFilterFileException refused = assertThrows(InvalidFilterFileException.class,
                        () -> restore(run.out()), "an unfinished pack does not unpack");
                assertEquals(InvalidFilterFileException.Problem.BAD_PACK, refused.problem());
            }
            return run.writerCameDuringTheRun();
        });
    }

    /** What a case checks of a round; returns whether the writer came while the jar read the cells. */
    @FunctionalInterface
    interface RoundCheck {
        boolean check(Round run) throws Exception;
    }

    /** Runs rounds of {@code command} (given the round's number), each checked, until the writer came during one. */
    private void roundsUntilTheWriterCameDuringOne(String what, IntFunction<String[]> command, RoundCheck check)
            throws Exception {
        boolean hit = false;
        for (int round = 0; round < MAX_ROUNDS && !hit; round++) {
            reseal();
            Round run = race(command.apply(round));
            hit = check.check(run);
            System.out.println(what + " round " + round + ": exit " + run.exit() + ", writer came during the run "
                    + run.writerCameDuringTheRun() + ", counted " + hit);
        }
        assertTrue(hit, "in " + MAX_ROUNDS + " rounds the writer never opened the file while " + what + " read it");
    }

    /**
     * Seals the file again (the last round's writer withdrew the seal), then drops its pages from
     * the page cache (seal forced them to the disk, so they are clean and can go).
     */
    private void reseal() throws Exception {
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_WRITE)) {
            filter.seal();
        }
        Process drop = new ProcessBuilder("dd", "if=" + file, "iflag=nocache", "count=0", "status=none")
                .redirectErrorStream(true).start();
        assertEquals(0, drop.waitFor(), new String(drop.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    /** Unpacks {@code pack} and checks the restored cells: any outcome but damage. */
    private CellsCheck restore(byte[] pack) throws IOException {
        Path restored = dir.resolve("restored.bloom");
        Files.deleteIfExists(restored);
        Pack.unpack(new ByteArrayInputStream(pack), "pack", restored);
        try (BloomFilter copy = BloomFilter.open(restored, OpenMode.READ_ONLY)) {
            CellsCheck check = copy.verify(); // throws on cells that do not match their seal
            assertTrue(copy.mightContain("sealed-0") && copy.mightContain("sealed-999"), "the sealed keys travelled");
            return check;
        }
    }

    /**
     * Runs the jar with {@code args} and, the moment it is reading the cells (it has read
     * {@value #READ_BEFORE_THE_WRITER} bytes from the disk), tells a writer process that is already
     * running to open the file for writing.
     */
    private Round race(String... args) throws Exception {
        try (ChildJvm writer = ChildJvm.start(SealWithdrawingWriter.class, file.toString(), "2000")) {
            writer.expectLine("ready", TIMEOUT);
            Process jar = JarProcess.start(dir, args);
            jar.getOutputStream().close();
            CompletableFuture<byte[]> out = JarProcess.readAll(jar.getInputStream());
            CompletableFuture<byte[]> err = JarProcess.readAll(jar.getErrorStream());
            Path io = Path.of("/proc", Long.toString(jar.pid()), "io");
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (jar.isAlive() && bytesReadFromDisk(io) < READ_BEFORE_THE_WRITER) {
                if (System.nanoTime() > deadline) {
                    fail("the jar never read " + file);
                }
                LockSupport.parkNanos(100_000); // a poll of another process's state: no latch to wait on
            }
            writer.send("go");
            writer.expectLine("opened", TIMEOUT);
            boolean during = jar.isAlive();
            writer.expectLine("added", TIMEOUT);
            writer.awaitSuccess(TIMEOUT);
            if (!jar.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                jar.destroyForcibly();
                fail("the jar did not end: " + String.join(" ", args));
            }
            return new Round(args, jar.exitValue(), out.join(), new String(err.join(), StandardCharsets.UTF_8), during);
        }
    }

    /** The bytes a process has had read from the storage device (its page faults on a mapping count). */
    private static long bytesReadFromDisk(Path io) {
        try {
            for (String line : Files.readAllLines(io)) {
                if (line.startsWith("read_bytes: ")) {
                    return Long.parseLong(line.substring("read_bytes: ".length()).trim());
                }
            }
            throw new AssertionError("no read_bytes in " + io);
        } catch (IOException ended) {
            return 0; // the process ended while it was looked at: the loop sees it
        }
    }
}
