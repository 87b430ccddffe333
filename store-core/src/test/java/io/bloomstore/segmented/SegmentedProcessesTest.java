package io.bloomstore.segmented;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.bloomstore.GrowingBloomFilter;
import io.bloomstore.GrowingSpec;
import io.bloomstore.OpenMode;
import io.bloomstore.RegionStats;
import io.bloomstore.WindowSpec;
import io.bloomstore.WindowedBloomFilter;
import io.bloomstore.testing.ChildJvm;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Growing and windowed files shared by real processes: children adding at once while the file
 * grows under them, and children that die (halted as kill -9 would stop them) in the middle of a
 * growth or a slot clear, after which the file opens, answers right and finishes the step.
 */
class SegmentedProcessesTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** Where the step lock's owner stamp lies (ContainerDescriptor.LOCK_OFFSET). */
    private static final int LOCK_OFFSET = 136;
    /** Where the region table starts (ContainerDescriptor.TABLE_OFFSET); entries are 32 bytes. */
    private static final int TABLE_OFFSET = 256;

    @TempDir
    Path dir;

    /**
     * Three processes add 40 000 disjoint keys each into a file whose first segment holds 1000, so
     * it grows six times while they add; afterwards every process, and a handle opened before the
     * first growth, finds every key.
     */
    @Test
    void processesAddingAtOnceWhileTheFileGrowsLoseNoKey() throws Exception {
        Path file = dir.resolve("shared.bloom");
        int children = 3;
        long keysEach = 40_000;
        long stride = 1_000_000_000L;
        GrowingBloomFilter.create(file, GrowingSpec.of(1000, 0.01)).close();
        List<ChildJvm> workers = new ArrayList<>();
        try (GrowingBloomFilter early = GrowingBloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertEquals(1, early.segmentCount());
            try {
                for (int c = 0; c < children; c++) {
                    workers.add(ChildJvm.start(SegmentedFilterWorker.class, "growing", file.toString()));
                }
                for (ChildJvm worker : workers) {
                    worker.expectLine("ready", TIMEOUT);
                }
                for (int c = 0; c < children; c++) {
                    // one child adds through the batch path, the others key by key
                    workers.get(c).send("add " + c * stride + " " + keysEach + " " + (c == 1 ? 64 : 1));
                }
                for (ChildJvm worker : workers) {
                    worker.expectLine("added", TIMEOUT);
                }
                assertEquals(7, early.segmentCount(), "120 000 keys: segments of 1000 .. 64 000");
                for (RegionStats part : early.stats().parts().subList(0, 6)) {
                    // Each process publishes every few keys (1000-key segment) to 256 (32 000-key), and
                    // the switch waits for the next segment: a full segment is overfilled by little.
                    assertTrue(part.publishedKeys() < part.capacity() * 1.25, "segment " + part.index() + " took "
                            + part.publishedKeys() + " keys for " + part.capacity());
                }
                for (int c = 0; c < children; c++) {
                    assertEquals("ok", SegmentedFilterWorker.firstMissing(early, c * stride, keysEach),
                            "the handle opened before the growths, keys of child " + c);
                }
                for (ChildJvm worker : workers) {
                    for (int c = 0; c < children; c++) {
                        worker.send("check " + c * stride + " " + keysEach);
                        worker.expectLine("ok", TIMEOUT);
                    }
                    worker.awaitSuccess(TIMEOUT);
                }
            } finally {
                for (ChildJvm worker : workers) {
                    worker.close();
                }
            }
            long published = early.stats().parts().stream().mapToLong(RegionStats::publishedKeys).sum();
            assertTrue(published > children * keysEach * 0.99 && published <= children * keysEach,
                    "published counts: " + published);
        }
        assertEquals(0, lockWord(file), "no step lock is left held");
    }

    /**
     * One process adds into the current epoch's slot while another, whose clock has passed the
     * epoch, rotates the ring under it: every key is found afterwards, by both processes and by a
     * fresh handle up to the end of its window. The rotator is this process, the file's clock owner
     * (the child works by the file's clock, which only the owner moves): epochs are an hour long, so
     * the file's clock stays in the first one until this process moves it.
     */
    @Test
    void aRotationByAnotherProcessRacingAddsLosesNothing() throws Exception {
        Path file = dir.resolve("shared-window.bloom");
        long e = Duration.ofHours(1).toMillis();
        long t0 = 1_700_000_000_000L / e * e + 60_000; // a minute into an epoch
        long window = 8 * e;
        long keys = 500_000; // a good part of a second of adds: the rotation, a few milliseconds, lands inside them
        TestClock clock = new TestClock(t0);
        try (WindowedBloomFilter rotator = WindowedBloomFilter.create(file, WindowSpec.of(8 * keys, 0.01,
                        Duration.ofMillis(window)), clock);
                ChildJvm adder = ChildJvm.start(SegmentedFilterWorker.class, "windowed", file.toString(),
                        Long.toString(t0 + e / 2))) { // half an epoch off the file's clock, before and after
            adder.expectLine("ready", TIMEOUT);
            adder.send("add-timed 0 " + keys);
            adder.expectLine("adding " + t0 / e, TIMEOUT);
            clock.set(t0 + e);
            rotator.add(10 * keys);
            assertEquals(t0 / e + 1, rotator.currentEpoch());
            adder.expectLine("added " + (t0 / e + 1), TIMEOUT);
            adder.send("check " + 10 * keys + " 1");
            adder.expectLine("ok", TIMEOUT);
            assertEquals("ok", SegmentedFilterWorker.firstMissing(rotator, 0, keys));
            adder.awaitSuccess(TIMEOUT);
        }
        try (WindowedBloomFilter late = WindowedBloomFilter.open(file, OpenMode.READ_ONLY, new TestClock(t0 + window - 1))) {
            assertEquals("ok", SegmentedFilterWorker.firstMissing(late, 0, keys), "found up to t + window");
        }
    }

    /**
     * A writer halted in the middle of a growth (the next segment, prepared when the newest is half
     * full, written but not forced nor recorded) leaves a file that opens and answers every
     * acknowledged key from its published segment; the next read-write open takes the lock over
     * and writes the segment again, which is published when the newest is full.
     */
    @Test
    void killDuringGrowthLeavesAFileThatAnswersAndFinishesTheGrowth() throws Exception {
        Path file = dir.resolve("crash.bloom");
        GrowingBloomFilter.create(file, GrowingSpec.of(1000, 0.01)).close();
        long acknowledged = addUntilHalted(file, List.of("growing", file.toString(), "growth"));
        assertTrue(acknowledged >= 500 && acknowledged < 700, acknowledged + " keys acknowledged before the growth");
        assertNotEquals(0, lockWord(file), "the halted grower still holds the lock");
        assertEquals(0, tableWord(file, 1, 8), "segment 1 is not recorded in the table");
        assertTrue(Files.size(file) > 4096 + 8192, "segment 1 was being written");
        try (GrowingBloomFilter reader = GrowingBloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertEquals(1, reader.segmentCount(), "the unpublished segment is not read");
            assertEquals("ok", SegmentedFilterWorker.firstMissing(reader, 0, acknowledged));
        }
        try (GrowingBloomFilter writer = GrowingBloomFilter.open(file, OpenMode.READ_WRITE)) {
            assertEquals(0, lockWord(file), "opening read-write took the lock over and freed it");
            assertEquals(4096 + 8192, tableWord(file, 1, 0), "segment 1 written again where segment 0 ends");
            assertNotEquals(0, tableWord(file, 1, 8), "and recorded");
            assertEquals(1, writer.segmentCount(), "published only when segment 0 is full");
            assertEquals("ok", SegmentedFilterWorker.firstMissing(writer, 0, acknowledged));
            for (long key = acknowledged; key < 10_000; key++) {
                writer.add(key);
            }
            assertEquals(4, writer.segmentCount(), "and it grows on as before");
            assertEquals("ok", SegmentedFilterWorker.firstMissing(writer, 0, 10_000));
        }
    }

    /**
     * A writer halted while clearing the slot that falls out of the window leaves that slot
     * marked CLEARING: no query probes it, every key of the live window is found, and the next
     * read-write open finishes the rotation (slot empty, epoch and current epoch published).
     */
    @Test
    void killDuringASlotClearLeavesAFileThatAnswersAndFinishesTheRotation() throws Exception {
        Path file = dir.resolve("window.bloom");
        int epochs = 8;
        long e = Duration.ofHours(1).toMillis(); // the file's clock stays in an epoch until the test moves it
        long t0 = 1_700_000_000_000L / e * e + 60_000;
        TestClock clock = new TestClock(t0);
        WindowSpec spec = WindowSpec.of(80_000, 0.01, Duration.ofMillis(epochs * e));
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(file, spec, clock)) {
            for (long key = 0; key < 1000; key++) {
                filter.add(key); // epoch e0: falls out when e0 + 9 begins
            }
            clock.set(t0 + epochs * e);
            for (long key = 10_000; key < 11_000; key++) {
                filter.add(key); // epoch e0 + 8: live until e0 + 17
            }
        }
        long later = t0 + (epochs + 1) * e;
        SegmentedFilterWorker.setFileClock(file, later); // an hour passes for the child, which works by the file's clock
        assertEquals(0, addUntilHalted(file, List.of("windowed", file.toString(), Long.toString(later), "clear")),
                "the first add rotates, and the rotation halts");
        assertNotEquals(0, lockWord(file), "the halted rotation still holds the lock");
        TestClock now = new TestClock(later);
        long e0 = t0 / e;
        int oldSlot = (int) Math.floorMod(e0, epochs + 1);
        try (WindowedBloomFilter reader = WindowedBloomFilter.open(file, OpenMode.READ_ONLY, now)) {
            RegionStats half = reader.stats().parts().get(oldSlot);
            assertEquals(Long.MIN_VALUE, half.epoch(), "the slot is marked as being cleared");
            assertTrue(!half.probed() && half.setCells() > 0, "half cleared, and not probed");
            assertEquals("ok", SegmentedFilterWorker.firstMissing(reader, 10_000, 1000), "live keys are all found");
            assertEquals(e0 + epochs, reader.currentEpoch(), "the new epoch is not published");
        }
        try (WindowedBloomFilter writer = WindowedBloomFilter.open(file, OpenMode.READ_WRITE, now)) {
            assertEquals(0, lockWord(file));
            assertEquals(e0 + epochs + 1, writer.currentEpoch(), "opening read-write finished the rotation");
            RegionStats cleared = writer.stats().parts().get(oldSlot);
            assertEquals(e0 + epochs + 1, cleared.epoch());
            assertEquals(0, cleared.setCells(), "the reused slot is empty");
            assertEquals("ok", SegmentedFilterWorker.firstMissing(writer, 10_000, 1000));
            assertTrue(writer.add(20_000L) && writer.mightContain(20_000L));
        }
    }

    /**
     * Starts a worker that adds keys 0, 1, 2, ... one by one and halts at its crash point; returns
     * how many adds it acknowledged (each key is printed after its add returned).
     */
    private static long addUntilHalted(Path file, List<String> args) throws IOException {
        long acknowledged = 0;
        try (ChildJvm worker = ChildJvm.start(SegmentedFilterWorker.class, args.toArray(String[]::new))) {
            worker.expectLine("ready", TIMEOUT);
            worker.send("add-acknowledged 0 1000000");
            while (true) {
                String line;
                try {
                    line = worker.readLine(TIMEOUT);
                } catch (AssertionError ended) {
                    // The halt: ChildJvm reports the end of output after the last line printed.
                    assertTrue(ended.getMessage().contains("ended before printing") && ended.getMessage().contains("exit status 86"),
                            ended.getMessage());
                    return acknowledged;
                }
                if (Long.parseLong(line) != acknowledged) {
                    fail("acknowledgements come in key order: " + line + " after " + (acknowledged - 1));
                }
                acknowledged++;
            }
        }
    }

    private static long lockWord(Path file) throws IOException {
        return word(file, LOCK_OFFSET);
    }

    /** Word {@code at} (0 region offset, 8 region length, 16 epoch) of region table entry {@code entry}. */
    private static long tableWord(Path file, int entry, int at) throws IOException {
        return word(file, TABLE_OFFSET + entry * 32 + at);
    }

    private static long word(Path file, long offset) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer word = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
            channel.read(word, offset);
            return word.getLong(0);
        }
    }
}
