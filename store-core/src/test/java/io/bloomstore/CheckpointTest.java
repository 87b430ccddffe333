package io.bloomstore;

import static io.bloomstore.internal.format.FilterFixtures.assertNoTemporaryFiles;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.reliability.CrashingAdder;
import io.bloomstore.segmented.SegmentedFilterWorker;
import io.bloomstore.testing.ChildJvm;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoints of a live filter into a durable copy, on real files: the copy is created whole, then
 * gets exactly the pages that differ, of every kind of file; and a checkpoint halted in a separate
 * JVM (as kill -9 would stop it) half-way through its pages leaves a copy that opens clean and
 * holds every key of the checkpoint before.
 */
class CheckpointTest {
    private static final int PAGE = 4096;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** About 2.4 MB of cells: 585 pages, so that a thousand keys change some pages and not others. */
    private static final BloomSpec STANDARD = BloomSpec.builder().expectedKeys(2_000_000).fpp(0.01).build();

    @TempDir
    Path dir;

    private Path live;
    private Path copy;

    @BeforeEach
    void paths() {
        live = dir.resolve("live.bloom");
        copy = dir.resolve("copy.bloom");
    }

    /** A fixed filter file at {@code live} with keys {@code [0, count)}, closed. */
    private void liveWith(BloomSpec spec, long count, boolean seal) throws IOException {
        try (BloomFilter filter = BloomFilter.create(live, spec)) {
            addRange(filter, 0, count);
            if (seal) {
                filter.seal();
            }
        }
    }

    @Test
    void createsTheCopyWholeThenWritesExactlyThePagesThatDiffer() throws IOException {
        try (BloomFilter filter = BloomFilter.create(live, STANDARD)) {
            addRange(filter, 0, 100_000);
            Checkpoint.Result created = Checkpoint.write(live, copy);
            assertTrue(created.created());
            assertEquals(Files.size(live), created.fileLength());
            assertEquals(Files.size(live), created.bytesWritten(), "a new copy is written whole");
            assertArrayEquals(withoutWriters(Files.readAllBytes(live)), Files.readAllBytes(copy),
                    "the live file byte for byte, with no open writers");
            assertNoTemporaryFiles(dir);

            addRange(filter, 1_000_000, 40); // 280 bits over 585 pages: about 220 of them
            long expected = pagesDiffering(withoutWriters(Files.readAllBytes(live)), Files.readAllBytes(copy));
            List<Long> progress = new ArrayList<>();
            Checkpoint.Result update = Checkpoint.write(live, copy, progress::add);
            assertFalse(update.created());
            assertTrue(expected > 10 && expected < Files.size(live) / PAGE / 2, "the keys changed some pages: " + expected);
            assertEquals(expected, update.pagesWritten(), "exactly the pages that differ");
            assertEquals(expected * PAGE, update.bytesWritten());
            assertEquals(1, update.passes());
            assertEquals(Files.size(live), progress.get(progress.size() - 1));
            assertArrayEquals(withoutWriters(Files.readAllBytes(live)), Files.readAllBytes(copy));

            assertEquals(0, Checkpoint.write(live, copy).pagesWritten(), "nothing changed, nothing written");
        }
        try (BloomFilter restored = BloomFilter.open(copy, OpenMode.READ_ONLY)) {
            assertAllPresent(restored, 0, 100_000);
            assertAllPresent(restored, 1_000_000, 40);
        }
    }

    @Test
    void restoringIsACheckpointTheOtherWay() throws IOException {
        liveWith(STANDARD, 5_000, false);
        Checkpoint.write(live, copy);
        Files.delete(live); // a reboot empties /dev/shm
        assertTrue(Checkpoint.write(copy, live).created());
        try (BloomFilter restored = BloomFilter.open(live, OpenMode.READ_WRITE)) {
            assertAllPresent(restored, 0, 5_000);
        }
    }

    @Test
    void aSealedLiveFileGivesASealedCopyAndAnUnsealedOneAnUnsealedCopy() throws IOException {
        liveWith(STANDARD, 5_000, true);
        Checkpoint.write(live, copy);
        try (BloomFilter sealedCopy = BloomFilter.open(copy, OpenMode.READ_ONLY)) {
            assertTrue(sealedCopy.isSealed());
            assertEquals(CellsCheck.INTACT, sealedCopy.verify());
        }
        try (BloomFilter filter = BloomFilter.open(live, OpenMode.READ_WRITE)) {
            addRange(filter, 10_000, 5_000);
        }
        Checkpoint.write(live, copy);
        try (BloomFilter unsealedCopy = BloomFilter.open(copy, OpenMode.READ_ONLY)) {
            assertFalse(unsealedCopy.isSealed());
            assertAllPresent(unsealedCopy, 10_000, 5_000);
        }
    }

    @Test
    void countersAndRemovesReachTheCopy() throws IOException {
        BloomSpec counting = BloomSpec.builder().expectedKeys(100_000).fpp(0.01).counterBits(4).build();
        liveWith(counting, 10_000, false);
        Checkpoint.write(live, copy);
        try (BloomFilter filter = BloomFilter.open(live, OpenMode.READ_WRITE)) {
            for (long key = 0; key < 5_000; key++) {
                filter.remove(key);
            }
            filter.add(7_000L);
        }
        assertTrue(Checkpoint.write(live, copy).pagesWritten() > 0);
        assertArrayEquals(Files.readAllBytes(live), Files.readAllBytes(copy));
        try (BloomFilter restored = BloomFilter.open(copy, OpenMode.READ_ONLY)) {
            assertEquals(2, restored.count(7_000L));
            assertAllPresent(restored, 5_000, 5_000);
        }
    }

    @Test
    void aGrowingFileGrowsItsCopy() throws IOException {
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(live, GrowingSpec.of(1_000, 0.01))) {
            addRange(filter, 0, 2_000);
        }
        Checkpoint.write(live, copy);
        long before = Files.size(copy);
        try (GrowingBloomFilter filter = GrowingBloomFilter.open(live, OpenMode.READ_WRITE)) {
            addRange(filter, 2_000, 20_000);
        }
        Checkpoint.Result grown = Checkpoint.write(live, copy);
        assertTrue(Files.size(copy) > before, "the new segments were appended");
        assertTrue(grown.bytesWritten() < Files.size(live), "the first segments' unchanged pages were not");
        assertArrayEquals(Files.readAllBytes(live), Files.readAllBytes(copy));
        try (GrowingBloomFilter restored = GrowingBloomFilter.open(copy, OpenMode.READ_ONLY)) {
            assertAllPresent(restored, 0, 22_000);
        }
    }

    @Test
    void aWindowedFileRotatesInItsCopy() throws IOException {
        long t0 = 1_700_000_000_000L;
        WindowSpec spec = WindowSpec.of(8_000, 0.01, Duration.ofSeconds(4)).withEpochs(4);
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(live, spec, at(t0))) {
            addRange(filter, 0, 1_000);
        }
        Checkpoint.write(live, copy);
        try (WindowedBloomFilter filter = WindowedBloomFilter.open(live, OpenMode.READ_WRITE, at(t0 + 5_000))) {
            addRange(filter, 10_000, 1_000); // rotates: the slot of the first keys is cleared and reused
        }
        Checkpoint.write(live, copy);
        assertArrayEquals(Files.readAllBytes(live), Files.readAllBytes(copy));
        try (WindowedBloomFilter restored = WindowedBloomFilter.open(copy, OpenMode.READ_ONLY, at(t0 + 5_000))) {
            assertAllPresent(restored, 10_000, 1_000);
        }
    }

    @Test
    void refusesACopyOfAnotherFilterTheLiveFileItselfAndACopyOpenForWriting() throws IOException {
        Path other = dir.resolve("other.bloom");
        BloomFilter.create(live, STANDARD).close();
        BloomFilter.create(other, STANDARD).close(); // same shape, another identity
        byte[] otherBytes = Files.readAllBytes(other);
        IllegalArgumentException another = assertThrows(IllegalArgumentException.class, () -> Checkpoint.write(live, other));
        assertTrue(another.getMessage().contains("not a checkpoint of " + live), another.getMessage());
        assertArrayEquals(otherBytes, Files.readAllBytes(other), "left as it was");

        assertThrows(IllegalArgumentException.class, () -> Checkpoint.write(live, live));

        Checkpoint.write(live, copy);
        try (BloomFilter openCopy = BloomFilter.open(copy, OpenMode.READ_WRITE)) {
            assertFalse(openCopy.isSealed());
            IllegalArgumentException open = assertThrows(IllegalArgumentException.class, () -> Checkpoint.write(live, copy));
            assertTrue(open.getMessage().contains("open for writing (1 open writers)"), open.getMessage());
        }
        assertThrows(InvalidFilterFileException.class, () -> Checkpoint.write(dir, dir.resolve("x.bloom")));
        assertFalse(Files.exists(dir.resolve("x.bloom")));
    }

    /**
     * The crash: a checkpoint halted after its first run of changed pages leaves a copy that is
     * neither the old copy nor the live file, opens clean, is no longer sealed (the old
     * copy was), and holds every key of the checkpoint before; the next checkpoint completes it.
     */
    @Test
    void aCheckpointHaltedHalfWayLeavesACopyThatOpensCleanWithEveryEarlierKey() throws IOException {
        liveWith(STANDARD, 50_000, true);
        Checkpoint.write(live, copy);
        byte[] oldCopy = Files.readAllBytes(copy);
        try (BloomFilter filter = BloomFilter.open(live, OpenMode.READ_WRITE)) {
            addRange(filter, 1_000_000, 2_000);
        }
        assertEquals("halted", checkpointInAChild(live, copy, true));

        byte[] halted = Files.readAllBytes(copy);
        assertFalse(Arrays.equals(oldCopy, halted), "some changed pages were written");
        assertNotEquals(0, pagesDiffering(Files.readAllBytes(live), halted), "and not all of them");
        try (BloomFilter mixed = BloomFilter.open(copy, OpenMode.READ_ONLY)) {
            assertEquals(CellsCheck.NOT_SEALED, mixed.verify(), "unsealed before its cells changed");
            assertAllPresent(mixed, 0, 50_000);
        }
        assertTrue(checkpointInAChild(live, copy, false).startsWith("done"));
        assertArrayEquals(Files.readAllBytes(live), Files.readAllBytes(copy));
    }

    @Test
    void aGrowingFileCheckpointHaltedHalfWayOpensWithItsEarlierSegments() throws IOException {
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(live, GrowingSpec.of(1_000, 0.01))) {
            addRange(filter, 0, 3_000);
            Checkpoint.write(live, copy);
            addRange(filter, 3_000, 30_000);
        }
        assertEquals("halted", checkpointInAChild(live, copy, true));
        try (GrowingBloomFilter mixed = GrowingBloomFilter.open(copy, OpenMode.READ_ONLY)) {
            assertAllPresent(mixed, 0, 3_000);
        }
        assertTrue(checkpointInAChild(live, copy, false).startsWith("done"));
        try (GrowingBloomFilter complete = GrowingBloomFilter.open(copy, OpenMode.READ_ONLY)) {
            assertAllPresent(complete, 0, 33_000);
        }
    }

    /**
     * The promise while others add: a separate JVM adds keys in order and acknowledges each after its
     * add returned; every key acknowledged before a checkpoint began is in the copy after it.
     */
    @Test
    void aCheckpointHoldsEveryKeyAnotherProcessAddedBeforeItBegan() throws IOException {
        liveWith(STANDARD, 0, false);
        try (ChildJvm adder = ChildJvm.start(CrashingAdder.class, live.toString(), "0", "64")) {
            adder.expectLine("open", TIMEOUT);
            checkpointWhileAdding(adder, () -> BloomFilter.open(copy, OpenMode.READ_ONLY));
        }
    }

    /** The same for a growing file, which grows (and so its copy) while the checkpoints run. */
    @Test
    void aGrowingFileCheckpointHoldsEveryKeyAddedBeforeItBeganWhileItGrows() throws IOException {
        GrowingBloomFilter.create(live, GrowingSpec.of(1_000, 0.01)).close();
        try (ChildJvm adder = ChildJvm.start(SegmentedFilterWorker.class, "growing", live.toString())) {
            adder.expectLine("ready", TIMEOUT);
            adder.send("add-acknowledged 0 1000000");
            checkpointWhileAdding(adder, () -> GrowingBloomFilter.open(copy, OpenMode.READ_ONLY));
            try (GrowingBloomFilter grown = GrowingBloomFilter.open(copy, OpenMode.READ_ONLY)) {
                assertTrue(grown.segmentCount() > 3, "it grew: " + grown.segmentCount() + " segments");
            }
        }
    }

    /** An opener of the copy, for {@link #checkpointWhileAdding}. */
    private interface CopyOpener {
        MembershipFilter open() throws IOException;
    }

    /** Five checkpoints, each after 20,000 more acknowledgements, while {@code adder} keeps adding; then kills it. */
    private void checkpointWhileAdding(ChildJvm adder, CopyOpener openCopy) throws IOException {
        long acknowledged = -1;
        for (int round = 0; round < 5; round++) {
            for (int line = 0; line < 20_000; line++) {
                acknowledged = Long.parseLong(adder.readLine(TIMEOUT));
            }
            Checkpoint.write(live, copy);
            try (MembershipFilter checkpointed = openCopy.open()) {
                assertAllPresent(checkpointed, 0, acknowledged + 1);
            }
        }
        adder.killHard(TIMEOUT);
        assertEquals(99_999, acknowledged, "keys are acknowledged in order");
    }

    /** Runs a checkpoint in a separate JVM: "halted" if it stopped at its crash point, else its "done" line. */
    private static String checkpointInAChild(Path live, Path copy, boolean halt) throws IOException {
        List<String> options = halt ? List.of("-Dbloomstore.test.halt-at=checkpoint") : List.of();
        try (ChildJvm child = ChildJvm.start(options, CheckpointProcess.class, live.toString(), copy.toString())) {
            try {
                String line = child.readLine(TIMEOUT);
                child.awaitSuccess(TIMEOUT);
                return line;
            } catch (AssertionError ended) {
                if (halt && ended.getMessage().contains("ended before printing") && ended.getMessage().contains("exit status 86")) {
                    return "halted";
                }
                throw ended;
            }
        }
    }

    static Clock at(long millis) {
        return Clock.fixed(Instant.ofEpochMilli(millis), ZoneOffset.UTC);
    }

    static void addRange(MembershipFilter filter, long from, long count) {
        for (long key = from; key < from + count; key++) {
            filter.add(key);
        }
    }

    static void assertAllPresent(MembershipFilter filter, long from, long count) {
        for (long key = from; key < from + count; key++) {
            if (!filter.mightContain(key)) {
                fail("key " + key + " is missing");
            }
        }
    }

    /** A fixed filter's bytes with the open writers count a checkpoint's copy holds: 0. */
    private static byte[] withoutWriters(byte[] file) {
        ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).putInt(FilterFileDescriptor.OPEN_WRITERS_OFFSET, 0);
        return file;
    }

    private static long pagesDiffering(byte[] a, byte[] b) {
        long pages = 0;
        for (int page = 0; page < Math.max(a.length, b.length); page += PAGE) {
            if (page + PAGE > Math.min(a.length, b.length)
                    || Arrays.mismatch(a, page, page + PAGE, b, page, page + PAGE) >= 0) {
                pages++;
            }
        }
        return pages;
    }
}
