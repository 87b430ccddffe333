package io.bloomstore;

import static io.bloomstore.CheckpointTest.addRange;
import static io.bloomstore.CheckpointTest.assertAllPresent;
import static io.bloomstore.CheckpointTest.at;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.reliability.CrashingAdder;
import io.bloomstore.segmented.SegmentedFilterWorker;
import io.bloomstore.testing.ChildJvm;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A checkpoint never goes backwards: a copy older than its target (the arguments swapped, an old
 * copy restored over the live file) is refused before anything is written, for every kind of file,
 * idle or with another JVM adding to the target; forward checkpoints, the cases where cells
 * legitimately fall (removes, AND merges, rotations), restores into an absent or empty path and
 * {@code force} still go through.
 */
class CheckpointDirectionTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final long T0 = 1_700_000_000_000L;
    private static final BloomSpec PLAIN = BloomSpec.builder().expectedKeys(200_000).fpp(0.01).build();
    private static final BloomSpec COUNTING = BloomSpec.builder().expectedKeys(200_000).fpp(0.01).counterBits(4).build();

    @TempDir
    Path dir;

    private Path live;
    private Path copy;

    @BeforeEach
    void paths() {
        live = dir.resolve("live.bloom");
        copy = dir.resolve("copy.bloom");
    }

    /** An opener of a file of one kind, read-write or read-only. */
    private interface Opener {
        MembershipFilter open(Path file, OpenMode mode) throws IOException;
    }

    @Test
    void aSwappedCheckpointOfAnIdlePlainFilterIsRefusedAndForceWritesItAllTheSame() throws IOException {
        BloomFilter.create(live, PLAIN).close();
        swappedAfterMoreKeys((file, mode) -> BloomFilter.open(file, mode), "cells set that " + copy + " lacks");
    }

    @Test
    void aSwappedCheckpointOfAnIdleCountingFilterIsRefused() throws IOException {
        BloomFilter.create(live, COUNTING).close();
        swappedAfterMoreKeys((file, mode) -> BloomFilter.open(file, mode), "counters above " + copy + "'s");
    }

    @Test
    void aSwappedCheckpointOfAnIdleGrowingFileIsRefused() throws IOException {
        GrowingBloomFilter.create(live, GrowingSpec.of(1_000, 0.01)).close();
        // 30,000 keys past the first 1,000: more segments
        swappedAfterMoreKeys((file, mode) -> GrowingBloomFilter.open(file, mode), "segments, " + copy + " only");
    }

    @Test
    void aSwappedCheckpointOfAnIdleGrowingFileInOneSegmentIsRefusedByItsCells() throws IOException {
        GrowingBloomFilter.create(live, GrowingSpec.of(1_000_000, 0.01)).close();
        swappedAfterMoreKeys((file, mode) -> GrowingBloomFilter.open(file, mode), "cells set that " + copy + " lacks");
    }

    @Test
    void aSwappedCheckpointOfAnIdleWindowedFileIsRefusedInTheSameEpochAndAfterARotation() throws IOException {
        WindowSpec spec = WindowSpec.of(200_000, 0.01, Duration.ofSeconds(4)).withEpochs(4);
        WindowedBloomFilter.create(live, spec, at(T0)).close();
        swappedAfterMoreKeys((file, mode) -> WindowedBloomFilter.open(file, mode, at(T0)), "cells set that " + copy + " lacks");

        Files.delete(copy);
        Checkpoint.write(live, copy);
        try (MembershipFilter filter = WindowedBloomFilter.open(live, OpenMode.READ_WRITE, at(T0 + 1_000))) {
            filter.add("after a rotation");
        }
        byte[] before = Files.readAllBytes(live);
        Checkpoint.BackwardsException refused = assertThrows(Checkpoint.BackwardsException.class,
                () -> Checkpoint.write(copy, live));
        assertTrue(refused.getMessage().contains("it is at epoch"), refused.getMessage());
        assertArrayEquals(before, Files.readAllBytes(live), "nothing was written");
    }

    /**
     * Keys 0..10,000 in the live file, checkpointed to the copy, then 30,000 more in the live file:
     * the checkpoint the other way is refused with {@code why} and leaves the live file byte for byte;
     * a forward checkpoint goes through; with {@code force} the copy's older state is written over.
     */
    private void swappedAfterMoreKeys(Opener opener, String why) throws IOException {
        try (MembershipFilter filter = opener.open(live, OpenMode.READ_WRITE)) {
            addRange(filter, 0, 10_000);
        }
        Checkpoint.write(live, copy);
        try (MembershipFilter filter = opener.open(live, OpenMode.READ_WRITE)) {
            addRange(filter, 10_000, 30_000);
        }
        byte[] before = Files.readAllBytes(live);
        Checkpoint.BackwardsException refused = assertThrows(Checkpoint.BackwardsException.class,
                () -> Checkpoint.write(copy, live));
        assertTrue(refused.getMessage().startsWith(live + " is newer than " + copy + " ("), refused.getMessage());
        assertTrue(refused.getMessage().contains(why), refused.getMessage());
        assertTrue(refused.getMessage().contains("nothing was written; to write the older file over it anyway, "
                + "checkpoint with force"), refused.getMessage());
        assertArrayEquals(before, Files.readAllBytes(live), "nothing was written");
        try (MembershipFilter filter = opener.open(live, OpenMode.READ_ONLY)) {
            assertAllPresent(filter, 0, 40_000);
        }

        Checkpoint.write(live, copy); // forward: the copy catches up
        Path older = dir.resolve("older.bloom");
        Files.copy(live, older);
        try (MembershipFilter filter = opener.open(live, OpenMode.READ_WRITE)) {
            addRange(filter, 40_000, 1_000);
        }
        assertTrue(Checkpoint.write(older, live, Checkpoint.Option.OLDER_OVER_NEWER).pagesWritten() > 0, "force writes the older file over");
        try (MembershipFilter filter = opener.open(live, OpenMode.READ_ONLY)) {
            assertAllPresent(filter, 0, 40_000);
            assertFalse(allPresent(filter, 40_000, 1_000), "the keys added since are gone, as force asked");
        }
        Files.delete(older);
    }

    @Test
    void removesAndAndMergesLowerCellsForwardButASwappedCheckpointAfterThemIsRefused() throws IOException {
        checkpointThenRemove(10_000, 5_000);
        assertEquals(5_000, lowerings(live), "each remove counted");
        byte[] before = Files.readAllBytes(live);
        Checkpoint.BackwardsException refused = assertThrows(Checkpoint.BackwardsException.class,
                () -> Checkpoint.write(copy, live));
        assertTrue(refused.getMessage().contains("lowered (by a remove or an AND merge) 5000 times, " + copy
                + "'s only 0 times"), refused.getMessage());
        assertArrayEquals(before, Files.readAllBytes(live));
        assertTrue(Checkpoint.write(live, copy).pagesWritten() > 0, "the removes reach the copy");
        assertArrayEquals(Files.readAllBytes(live), Files.readAllBytes(copy));

        Path other = dir.resolve("other.bloom");
        BloomFilter.create(other, PLAIN).close();
        BloomFilter.create(dir.resolve("plain.bloom"), PLAIN).close();
        try (BloomFilter plain = BloomFilter.open(dir.resolve("plain.bloom"), OpenMode.READ_WRITE)) {
            addRange(plain, 0, 10_000);
        }
        Checkpoint.write(dir.resolve("plain.bloom"), copy.resolveSibling("plain-copy.bloom"));
        try (BloomFilter plain = BloomFilter.open(dir.resolve("plain.bloom"), OpenMode.READ_WRITE);
                BloomFilter empty = BloomFilter.open(other, OpenMode.READ_ONLY)) {
            Merge.inPlace(plain, empty, MergeOp.AND, null); // clears every bit
        }
        assertTrue(lowerings(dir.resolve("plain.bloom")) > 0, "an AND merge counts as a lowering");
        Checkpoint.write(dir.resolve("plain.bloom"), copy.resolveSibling("plain-copy.bloom"));
        try (BloomFilter cleared = BloomFilter.open(copy.resolveSibling("plain-copy.bloom"), OpenMode.READ_ONLY)) {
            assertFalse(cleared.mightContain(1L), "the AND reached the copy");
        }
    }

    /**
     * Files written before the count of lowerings existed hold 0 there, as a new file does: they are
     * read and checkpointed as before; a remove made by such a release is not counted, so a forward
     * checkpoint after it is refused as backwards (its counters fell), and force writes it.
     */
    @Test
    void aFileWhoseRemovesWereNotCountedIsRefusedForwardUntilForced() throws IOException {
        checkpointThenRemove(1_000, 1);
        setLowerings(live, 0); // as a release before the count leaves it
        assertThrows(Checkpoint.BackwardsException.class, () -> Checkpoint.write(live, copy));
        Checkpoint.write(live, copy, Checkpoint.Option.OLDER_OVER_NEWER);
        try (BloomFilter restored = BloomFilter.open(copy, OpenMode.READ_ONLY)) {
            assertEquals(0, restored.count(0L));
        }
    }

    /** A counting filter with keys {@code [0, keys)}, checkpointed, then keys {@code [0, removed)} removed from it. */
    private void checkpointThenRemove(long keys, long removed) throws IOException {
        try (BloomFilter filter = BloomFilter.create(live, COUNTING)) {
            addRange(filter, 0, keys);
        }
        Checkpoint.write(live, copy);
        try (BloomFilter filter = BloomFilter.open(live, OpenMode.READ_WRITE)) {
            for (long key = 0; key < removed; key++) {
                filter.remove(key);
            }
        }
    }

    @Test
    void restoringIntoAnEmptyFileWritesItWhole() throws IOException {
        try (BloomFilter filter = BloomFilter.create(live, PLAIN)) {
            addRange(filter, 0, 1_000);
        }
        Checkpoint.write(live, copy);
        Files.write(live, new byte[0]); // as a boot script's touch leaves it
        assertTrue(Checkpoint.write(copy, live).created());
        try (BloomFilter restored = BloomFilter.open(live, OpenMode.READ_ONLY)) {
            assertAllPresent(restored, 0, 1_000);
        }
    }

    /**
     * A growing file another JVM keeps adding to: checkpointed, then the checkpoint swapped while the
     * adder runs is refused, and every key the adder acknowledged is still in the live file.
     */
    @Test
    void aSwappedCheckpointOfAGrowingFileBeingAddedToIsRefused() throws IOException {
        GrowingBloomFilter.create(live, GrowingSpec.of(10_000, 0.01)).close();
        try (ChildJvm adder = ChildJvm.start(SegmentedFilterWorker.class, "growing", live.toString())) {
            adder.expectLine("ready", TIMEOUT);
            adder.send("add-acknowledged 0 1000000");
            swappedWhileAdding(adder, (file, mode) -> GrowingBloomFilter.open(file, mode));
        }
    }

    /**
     * The same with a windowed file. The adder owns the file's clock, standing at T0; this process
     * reads the file by the owner's clock carried on by the system clock, so the window is hours
     * long: the keys acknowledged at T0 stay live however long a loaded machine takes over this.
     */
    @Test
    void aSwappedCheckpointOfAWindowedFileBeingAddedToIsRefused() throws IOException {
        WindowedBloomFilter.create(live, WindowSpec.of(500_000, 0.01, Duration.ofHours(4)).withEpochs(4), at(T0)).close();
        try (ChildJvm adder = ChildJvm.start(SegmentedFilterWorker.class, "windowed", live.toString(), Long.toString(T0))) {
            adder.expectLine("ready", TIMEOUT);
            adder.send("add-acknowledged 0 1000000");
            swappedWhileAdding(adder, (file, mode) -> WindowedBloomFilter.open(file, mode, at(T0)));
        }
    }

    /** A fixed filter open for writing elsewhere is refused as a target whatever force says: a writer has it mapped. */
    @Test
    void aSwappedCheckpointOfAFixedFilterBeingAddedToIsRefused() throws IOException {
        BloomFilter.create(live, PLAIN).close();
        try (ChildJvm adder = ChildJvm.start(CrashingAdder.class, live.toString(), "0", "1")) {
            adder.expectLine("open", TIMEOUT);
            swappedWhileAdding(adder, (file, mode) -> BloomFilter.open(file, mode));
        }
    }

    /** Waits for 20,000 acknowledged keys, checkpoints, waits for 20,000 more, then checks the swapped checkpoint is refused. */
    private void swappedWhileAdding(ChildJvm adder, Opener opener) throws IOException {
        awaitAcknowledged(adder, 20_000);
        Checkpoint.write(live, copy);
        long acknowledged = awaitAcknowledged(adder, 20_000);
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Checkpoint.write(copy, live));
        assertTrue(refused instanceof Checkpoint.BackwardsException || refused.getMessage().contains("is open for writing"),
                refused.getMessage());
        acknowledged = Math.max(acknowledged, awaitAcknowledged(adder, 1_000));
        adder.killHard(TIMEOUT);
        try (MembershipFilter filter = opener.open(live, OpenMode.READ_ONLY)) {
            assertAllPresent(filter, 0, acknowledged + 1);
        }
    }

    private static long awaitAcknowledged(ChildJvm adder, int lines) {
        long last = -1;
        for (int line = 0; line < lines; line++) {
            last = Long.parseLong(adder.readLine(TIMEOUT));
        }
        return last;
    }

    private static long lowerings(Path file) throws IOException {
        return ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN)
                .getLong(FilterFileDescriptor.LOWERINGS_OFFSET);
    }

    private static void setLowerings(Path file, long value) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, value),
                    FilterFileDescriptor.LOWERINGS_OFFSET);
        }
    }

    private static boolean allPresent(MembershipFilter filter, long from, long count) {
        for (long key = from; key < from + count; key++) {
            if (!filter.mightContain(key)) {
                return false;
            }
        }
        return true;
    }
}
