package io.bloomstore.segmented;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.FilterBusyException;
import io.bloomstore.GrowingBloomFilter;
import io.bloomstore.GrowingSpec;
import io.bloomstore.OpenMode;
import io.bloomstore.RegionStats;
import io.bloomstore.SegmentedStats;
import io.bloomstore.WindowSpec;
import io.bloomstore.WindowedBloomFilter;
import io.bloomstore.internal.format.ContainerDescriptor;
import io.bloomstore.testing.ChildJvm;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process stopped (SIGSTOP, as Ctrl-Z sends) while it holds a growing or windowed file's step
 * lock: another process's add that needs the step ends within a bounded time, refused with a
 * message naming the stopped process and how to resume it, having added nothing; once the stopped
 * process is continued, it finishes its step, adds resume, and no acknowledged key is lost. The
 * children stop themselves at a crash point inside the step ({@code -Dbloomstore.test.stop-at}).
 * An add that spun without end, as it did before, fails the test at its timeout.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HeldStepLockTest {
    /** Generous: the refusal itself comes about two seconds after the owner is seen stopped. */
    private static final Duration TIMEOUT = Duration.ofMinutes(3);

    @TempDir
    Path dir;

    @Test
    void aStoppedGrowerMakesOtherAddsFailWithItsPidAndResumingItLosesNothing() throws Exception {
        Path file = dir.resolve("growing.bloom");
        GrowingBloomFilter.create(file, GrowingSpec.of(2000, 0.01)).close();
        try (ChildJvm grower = ChildJvm.start(List.of("-Dbloomstore.test.stop-at=growth"), SegmentedFilterWorker.class,
                "growing", file.toString())) {
            grower.expectLine("ready", TIMEOUT);
            grower.send("add 0 1500 1"); // prepares segment 1 at half capacity, and stops inside
            awaitStopped(grower);
            long acknowledged = 1_000_000;
            try (GrowingBloomFilter writer = GrowingBloomFilter.open(file, OpenMode.READ_WRITE)) {
                long start = System.nanoTime();
                FilterBusyException busy = null;
                for (long key = acknowledged; busy == null && key < 1_000_000 + 100_000; key++) {
                    try {
                        writer.add(key);
                        acknowledged = key + 1;
                    } catch (FilterBusyException e) {
                        busy = e;
                    }
                }
                assertTrue(busy != null, "an add into the full segment is refused, not left spinning");
                assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(TIMEOUT) < 0, "within a bounded time");
                assertHeldBy(busy, grower.pid());
                assertTrue(acknowledged - 1_000_000 < 4000, (acknowledged - 1_000_000)
                        + " keys went into the 2000-key segment: a full segment takes no more than a publish's overfill");
                long cells = setCells(writer.stats());
                assertThrows(FilterBusyException.class, () -> writer.add(-1L), "refused again while it stays stopped");
                assertEquals(cells, setCells(writer.stats()), "the refused add added nothing");

                signal("-CONT", grower.pid());
                grower.expectLine("added", TIMEOUT);
                for (long key = acknowledged; key < acknowledged + 20_000; key++) {
                    writer.add(key); // resumes: publishes the segment the grower wrote, then grows on
                }
                acknowledged += 20_000;
                assertTrue(writer.segmentCount() >= 3, writer.segmentCount() + " segments");
                assertEquals("ok", SegmentedFilterWorker.firstMissing(writer, 0, 1500));
                assertEquals("ok", SegmentedFilterWorker.firstMissing(writer, 1_000_000, acknowledged - 1_000_000));
            }
            grower.send("check 1000000 " + (acknowledged - 1_000_000));
            grower.expectLine("ok", TIMEOUT);
        }
    }

    @Test
    void aStoppedRotationMakesOtherAddsFailWithItsPidAndResumingItLosesNothing() throws Exception {
        Path file = dir.resolve("windowed.bloom");
        // epochs of a minute: the file's clock, which the test's writer follows, runs on with the
        // system clock, and the window must outlast the test on a loaded machine
        long epoch = 60_000;
        long t0 = 1_700_000_000_000L;
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(file,
                WindowSpec.of(20_000, 0.01, Duration.ofMillis(8 * epoch)), new TestClock(t0))) {
            for (long key = 0; key < 1000; key++) {
                filter.add(key);
            }
        }
        unclaimClock(file); // the rotator claims the file's clock, so it rotates by its own clock (docs/FORMAT.md, "Windowed: time")
        long next = t0 + epoch;
        try (ChildJvm rotator = ChildJvm.start(List.of("-Dbloomstore.test.stop-at=clear"), SegmentedFilterWorker.class,
                "windowed", file.toString(), Long.toString(next))) {
            rotator.expectLine("ready", TIMEOUT);
            rotator.send("add 1000 1000 1"); // the first add rotates to the next epoch, and stops clearing a slot
            awaitStopped(rotator);
            try (WindowedBloomFilter writer = WindowedBloomFilter.open(file, OpenMode.READ_WRITE, new TestClock(next))) {
                long cells = setCells(writer.stats());
                long start = System.nanoTime();
                FilterBusyException busy = assertThrows(FilterBusyException.class, () -> writer.add(5000L));
                assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(TIMEOUT) < 0, "within a bounded time");
                assertHeldBy(busy, rotator.pid());
                assertEquals(cells, setCells(writer.stats()), "the refused add added nothing");

                signal("-CONT", rotator.pid());
                rotator.expectLine("added", TIMEOUT);
                for (long key = 5000; key < 6000; key++) {
                    writer.add(key);
                }
                assertEquals("ok", SegmentedFilterWorker.firstMissing(writer, 0, 2000));
                assertEquals("ok", SegmentedFilterWorker.firstMissing(writer, 5000, 1000));
            }
        }
    }

    /** Clears a windowed file's clock words, as a file written before them has them: its next writer claims it. */
    private static void unclaimClock(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(ContainerDescriptor.CLOCK_OWNER_OFFSET + 8 - ContainerDescriptor.CLOCK_OFFSET_OFFSET),
                    ContainerDescriptor.CLOCK_OFFSET_OFFSET);
        }
    }

    private static long setCells(SegmentedStats stats) {
        return stats.parts().stream().mapToLong(RegionStats::setCells).sum();
    }

    private static void assertHeldBy(FilterBusyException busy, long pid) {
        String message = busy.getMessage();
        assertTrue(message.contains("process " + pid) && message.contains("stopped")
                && message.contains("kill -CONT " + pid), message);
    }

    /** Waits until the child is stopped (state T in /proc/PID/stat). */
    static void awaitStopped(ChildJvm child) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!state(child.pid()).equals("T")) {
            assertTrue(System.nanoTime() < deadline, child.name() + " did not stop at its stop point: " + child.stderr());
            Thread.sleep(20);
        }
    }

    private static String state(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        return stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    }

    static void signal(String signal, long pid) throws IOException, InterruptedException {
        assertEquals(0, new ProcessBuilder("kill", signal, Long.toString(pid)).inheritIO().start().waitFor());
    }
}
