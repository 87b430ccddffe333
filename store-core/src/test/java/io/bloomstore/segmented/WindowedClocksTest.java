package io.bloomstore.segmented;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.OpenMode;
import io.bloomstore.WindowSpec;
import io.bloomstore.WindowedBloomFilter;
import io.bloomstore.testing.ChildJvm;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A windowed file against wrong clocks and a damaged epoch word. The file follows one clock, its
 * first writer's, carried on by the system clock: another process whose clock runs far ahead is
 * refused before it rotates anything, one whose clock is behind a file rotated far ahead is
 * refused before it adds, one a little ahead neither rotates nor forgets early, and a file idle
 * for days still rotates forward for a clock that agrees with it. Clocks are test clocks set by
 * each process (the parent's, and children's in their own JVMs): nothing here waits on time.
 */
class WindowedClocksTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** ContainerDescriptor.COUNT_OFFSET: a windowed file's current epoch. */
    private static final int EPOCH_WORD = 128;
    private static final long T0 = 1_700_000_000_000L;
    private static final long E = 1000;
    private static final int L = 4;

    @TempDir
    Path dir;

    private Path createWithKeys(long clockMillis, int keys) throws IOException {
        Path file = dir.resolve("w.bloom");
        WindowSpec spec = WindowSpec.of(100_000, 0.01, Duration.ofMillis(L * E)).withEpochs(L);
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(file, spec, new TestClock(clockMillis))) {
            for (long key = 0; key < keys; key++) {
                filter.add(key);
            }
        }
        return file;
    }

    /**
     * The current-epoch word, which no checksum covers, damaged ahead of the slots: opening the
     * file, to query or to add, refuses it naming the word; a handle open when it is damaged
     * refuses the next add instead of waiting for a slot that never comes.
     */
    @ParameterizedTest
    @ValueSource(longs = {5, Long.MAX_VALUE})
    void anEpochWordDamagedAheadOfTheSlotsIsRefusedNotWaitedOn(long damage) throws Exception {
        Path file = createWithKeys(T0, 1000);
        long epoch = T0 / E;
        long damaged = damage == Long.MAX_VALUE ? damage : epoch + damage;
        writeWord(file, EPOCH_WORD, damaged);
        for (OpenMode mode : new OpenMode[] {OpenMode.READ_ONLY, OpenMode.READ_WRITE}) {
            InvalidFilterFileException refused = assertThrows(InvalidFilterFileException.class,
                    () -> WindowedBloomFilter.open(file, mode, new TestClock(T0)).close(), mode.toString());
            assertEquals(InvalidFilterFileException.Problem.BAD_FIELD, refused.problem());
            assertTrue(refused.getMessage().contains("current-epoch word (offset 128) holds epoch " + damaged)
                    && refused.getMessage().contains("restore the file"), refused.getMessage());
        }
        writeWord(file, EPOCH_WORD, epoch);
        try (WindowedBloomFilter filter = WindowedBloomFilter.open(file, OpenMode.READ_WRITE, new TestClock(T0))) {
            assertTrue(filter.mightContain(7L), "repaired by hand, it answers again");
            writeWord(file, EPOCH_WORD, damaged);
            IllegalStateException e = assertTimeoutPreemptively(TIMEOUT, () -> assertThrows(IllegalStateException.class,
                    () -> filter.add(1_000_000L)));
            assertTrue(e.getMessage().contains("current-epoch word (offset 128)"), e.getMessage());
        }
    }

    /**
     * A process whose clock is 2 hours (or a day) ahead of the one that wrote the file a moment
     * ago is refused, naming the skew, and clears nothing: every key is still found.
     */
    @ParameterizedTest
    @ValueSource(strings = {"PT2H", "P1D"})
    void aProcessWithAClockFarAheadIsRefusedAndClearsNothing(String skew) throws Exception {
        long created = System.currentTimeMillis();
        Path file = createWithKeys(T0, 1000);
        long ahead = Duration.parse(skew).toMillis();
        try (ChildJvm fast = ChildJvm.start(SegmentedFilterWorker.class, "windowed", file.toString(), Long.toString(T0 + ahead))) {
            fast.expectLine("ready", TIMEOUT);
            // The parent's clock stood still since the file was made, and the file's went on with the system
            // clock: this sets the child's the skew ahead of the file's (and 30 s more, for the child's own delay).
            fast.send("clock " + (T0 + ahead + System.currentTimeMillis() - created + 30_000));
            fast.expectLine("clock", TIMEOUT);
            fast.send("try-add 5000 1");
            String answer = fast.readLine(TIMEOUT);
            assertTrue(answer.startsWith("refused " + file + ": this process's clock reads ") && answer.matches(".*, PT"
                    + Duration.parse(skew).toHours() + "H(\\d+S)? ahead of the clock this windowed file follows.*"), answer);
            fast.awaitSuccess(TIMEOUT);
        }
        try (WindowedBloomFilter filter = WindowedBloomFilter.open(file, OpenMode.READ_ONLY, new TestClock(T0))) {
            assertEquals(T0 / E, filter.currentEpoch(), "not rotated");
            assertEquals("ok", SegmentedFilterWorker.firstMissing(filter, 0, 1000));
        }
    }

    /**
     * A file whose first writer's clock is a day ahead: a process whose clock is right is refused,
     * naming how far behind the file's clock it is, where it would otherwise add into the epoch of
     * a day later and keep every key a day past its window; and the first writer's own clock, set
     * back a day, is refused too, naming how far the file's current epoch is ahead of it.
     */
    @Test
    void aProcessWhoseClockIsFarBehindTheFilesIsRefused() throws Exception {
        long dayAhead = T0 + Duration.ofDays(1).toMillis();
        Path file = dir.resolve("ahead.bloom");
        TestClock clock = new TestClock(dayAhead);
        try (WindowedBloomFilter owner = WindowedBloomFilter.create(file, WindowSpec.of(100_000, 0.01,
                Duration.ofMillis(L * E)).withEpochs(L), clock)) {
            owner.add(1L);
            try (ChildJvm right = ChildJvm.start(SegmentedFilterWorker.class, "windowed", file.toString(), Long.toString(T0))) {
                right.expectLine("ready", TIMEOUT);
                right.send("try-add 5000 1");
                String answer = right.readLine(TIMEOUT);
                assertTrue(answer.startsWith("refused " + file + ": this process's clock reads ")
                        && answer.matches(".*, PT24H(\\d+S)? behind the clock this windowed file follows.*"), answer);
                right.awaitSuccess(TIMEOUT);
            }
            clock.set(T0);
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> owner.add(2L));
            assertTrue(refused.getMessage().contains("the file's current epoch is " + dayAhead / E)
                    && refused.getMessage().contains("reaches only in PT24H"), refused.getMessage());
        }
    }

    /**
     * Keys added at the very end of an epoch must be found for a whole window after it. A process
     * whose clock is half an hour ahead (less than an epoch of 1 h) and past the next epoch's start
     * neither rotates the ring, which would clear those keys' slot, nor judges that slot expired:
     * it adds into the file's current epoch, and it and the file's own clock find every key.
     */
    @Test
    void aClockALittleAheadNeitherRotatesNorForgetsEarly() throws Exception {
        long e = Duration.ofHours(1).toMillis();
        long x = T0 / e + 10;
        Path file = dir.resolve("hours.bloom");
        TestClock clock = new TestClock(x * e - e - 1); // the last millisecond of epoch x - 2 (L = 2)
        WindowSpec spec = WindowSpec.of(10_000, 0.01, Duration.ofMillis(2 * e)).withEpochs(2);
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(file, spec, clock)) {
            for (long key = 0; key < 1000; key++) {
                filter.add(key);
            }
            clock.set(x * e + e - Duration.ofMinutes(30).toMillis()); // needed until x * e + e - 1
            filter.add(-1L);
            assertEquals(x, filter.currentEpoch());
        }
        long fast = x * e + e + 1000; // 30 min ahead: past the start of epoch x + 1
        try (ChildJvm ahead = ChildJvm.start(SegmentedFilterWorker.class, "windowed", file.toString(), Long.toString(fast))) {
            ahead.expectLine("ready", TIMEOUT);
            ahead.send("check 0 1000");
            ahead.expectLine("ok", TIMEOUT);
            ahead.send("try-add 5000 1");
            ahead.expectLine("added " + x, TIMEOUT);
            ahead.send("check 0 1000");
            ahead.expectLine("ok", TIMEOUT);
            ahead.awaitSuccess(TIMEOUT);
        }
        try (WindowedBloomFilter filter = WindowedBloomFilter.open(file, OpenMode.READ_ONLY, clock)) {
            assertEquals("ok", SegmentedFilterWorker.firstMissing(filter, 0, 1000), "the file's clock finds them too");
        }
    }

    /**
     * The other way round: a process whose clock is half an hour behind the file's, still in epoch
     * x when the file's is in x + 1 and nobody has rotated yet, adds into the epoch of the file's
     * clock (rotating to it), not of its own: in slot x its key would be cleared when the file's
     * clock reaches x + L + 1, half an hour short of a window after the add.
     */
    @Test
    void aClockALittleBehindAddsIntoTheFilesEpochNotItsOwn() throws Exception {
        long e = Duration.ofHours(1).toMillis();
        long x = T0 / e + 10;
        Path file = dir.resolve("behind.bloom");
        TestClock clock = new TestClock(x * e + 1000);
        WindowSpec spec = WindowSpec.of(10_000, 0.01, Duration.ofMillis(2 * e)).withEpochs(2);
        WindowedBloomFilter.create(file, spec, clock).close();
        long addedAt = x * e + e + Duration.ofMinutes(10).toMillis(); // by the file's clock: 10 min into x + 1
        SegmentedFilterWorker.setFileClock(file, addedAt);
        try (ChildJvm slow = ChildJvm.start(SegmentedFilterWorker.class, "windowed", file.toString(),
                Long.toString(addedAt - Duration.ofMinutes(30).toMillis()))) {
            slow.expectLine("ready", TIMEOUT);
            slow.send("try-add 0 1000");
            slow.expectLine("added " + (x + 1), TIMEOUT);
            slow.awaitSuccess(TIMEOUT);
        }
        clock.set(addedAt + 2 * e - Duration.ofMinutes(5).toMillis()); // inside the window of every key added
        try (WindowedBloomFilter filter = WindowedBloomFilter.open(file, OpenMode.READ_ONLY, clock)) {
            assertEquals("ok", SegmentedFilterWorker.firstMissing(filter, 0, 1000));
        }
    }

    /**
     * A file nobody used for three days, whose clock (its first writer's, carried on by the system
     * clock) reads three days later now: another process whose clock agrees rotates it forward at
     * its first add, and the old keys are gone. The three days are the system clock's, written
     * into the file's clock word as if they had passed.
     */
    @Test
    void aFileIdleForDaysRotatesForwardForAClockThatAgrees() throws Exception {
        Path file = createWithKeys(T0, 1000);
        long later = T0 + Duration.ofDays(3).toMillis();
        long planted = System.currentTimeMillis();
        SegmentedFilterWorker.setFileClock(file, later);
        long rotated;
        try (ChildJvm next = ChildJvm.start(SegmentedFilterWorker.class, "windowed", file.toString(), Long.toString(later))) {
            next.expectLine("ready", TIMEOUT);
            next.send("try-add 5000 1");
            String answer = next.readLine(TIMEOUT);
            assertTrue(answer.startsWith("added "), answer);
            rotated = Long.parseLong(answer.substring("added ".length()));
            next.awaitSuccess(TIMEOUT);
        }
        // the file's clock went on while the child started: its epoch is that of three days later, or a little after
        long bound = (later + System.currentTimeMillis() - planted) / E;
        assertTrue(rotated >= later / E && rotated <= bound, rotated + " in [" + later / E + ", " + bound + "]");
        try (WindowedBloomFilter filter = WindowedBloomFilter.open(file, OpenMode.READ_ONLY, new TestClock(rotated * E))) {
            assertTrue(filter.mightContain(5000L));
            int found = 0;
            for (long key = 0; key < 1000; key++) {
                found += filter.mightContain(key) ? 1 : 0;
            }
            assertTrue(found < 50, found + " of 1000 keys three days old still found");
        }
    }

    /**
     * A file written before the clock words were used has both at 0 (they were reserved): it opens
     * and answers read-only, unclaimed, by the reader's clock; its next read-write open claims it,
     * storing its stamp and its clock's offset from the system clock; and from then on another
     * process a day ahead of that clock is refused.
     */
    @Test
    void aFileWrittenBeforeTheClockWordsIsClaimedByItsNextWriter() throws Exception {
        Path file = createWithKeys(T0, 1000);
        writeWord(file, 176, 0);
        writeWord(file, 184, 0); // as every file was before
        try (WindowedBloomFilter reader = WindowedBloomFilter.open(file, OpenMode.READ_ONLY, new TestClock(T0))) {
            assertEquals("ok", SegmentedFilterWorker.firstMissing(reader, 0, 1000));
        }
        assertEquals(0, readWord(file, 184), "a reader claims nothing");
        long claimed = System.currentTimeMillis();
        try (WindowedBloomFilter writer = WindowedBloomFilter.open(file, OpenMode.READ_WRITE, new TestClock(T0))) {
            assertTrue(writer.add(5000L));
        }
        assertTrue(readWord(file, 184) != 0, "claimed by the writer");
        long offset = readWord(file, 176);
        assertTrue(offset <= T0 - claimed && offset >= T0 - System.currentTimeMillis(), offset + ": its clock's offset");
        try (ChildJvm fast = ChildJvm.start(SegmentedFilterWorker.class, "windowed", file.toString(),
                Long.toString(T0 + Duration.ofDays(1).toMillis()))) {
            fast.expectLine("ready", TIMEOUT);
            fast.send("try-add 6000 1");
            String answer = fast.readLine(TIMEOUT);
            assertTrue(answer.startsWith("refused ") && answer.contains(" ahead of the clock this windowed file follows"), answer);
            fast.awaitSuccess(TIMEOUT);
        }
    }

    private static long readWord(Path file, long offset) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer word = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
            channel.read(word, offset);
            return word.getLong(0);
        }
    }

    private static void writeWord(Path file, long offset, long value) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, value), offset);
        }
    }
}
