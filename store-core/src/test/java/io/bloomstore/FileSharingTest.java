package io.bloomstore;

import static io.bloomstore.FilterAssertions.assertEveryKeyPresent;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.testing.ChildJvm;
import io.bloomstore.testing.ProcSelf;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The filter is its file: closing unmaps it, other handles and other processes see every add at
 * once, sync reaches the storage, and a reopened (or crashed and reopened) filter keeps every key
 * whose add returned.
 */
class FileSharingTest {
    private static final Duration CHILD_TIMEOUT = Duration.ofSeconds(60);
    private static final BloomSpec SPEC = BloomSpec.forExpected(200_000, 0.01);

    @TempDir
    Path dir;

    /**
     * Checked right after close, and over many handles: an unmap deferred to some background
     * thread would be seen at least once.
     */
    @ParameterizedTest
    @EnumSource(value = OpenMode.class, names = {"READ_ONLY", "READ_WRITE"}) // the modes a BloomFilter maps in
    void closeUnmapsTheFileAtOnce(OpenMode mode) throws Exception {
        Path file = dir.resolve("unmap.bloom");
        BloomFilter.create(file, SPEC).close();
        assertEquals(List.of(), ProcSelf.mappingsOf(file), "the handle create returned was closed");
        for (int handle = 0; handle < 20; handle++) {
            BloomFilter filter = BloomFilter.open(file, mode);
            assertFalse(ProcSelf.mappingsOf(file).isEmpty(), "an open filter is mapped");
            filter.close();
            assertEquals(List.of(), ProcSelf.mappingsOf(file), "handle " + handle + ": close must unmap the file");
            // A closed handle refuses work instead of touching unmapped memory (which would crash the JVM).
            assertThrows(IllegalStateException.class, () -> filter.mightContain(1L));
            filter.close(); // idempotent
        }
    }

    @Test
    void handlesOfOneProcessSeeEachOthersAddsAtOnce() throws Exception {
        Path file = dir.resolve("handles.bloom");
        try (BloomFilter writer = BloomFilter.create(file, SPEC);
                BloomFilter otherWriter = BloomFilter.open(file, OpenMode.READ_WRITE);
                BloomFilter reader = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            for (long key = 0; key < 10_000; key++) {
                BloomFilter adder = key % 2 == 0 ? writer : otherWriter;
                BloomFilter other = key % 2 == 0 ? otherWriter : writer;
                assertTrue(adder.add(key), "key " + key + " is new");
                assertTrue(other.mightContain(key), "the other writer sees key " + key + " at once");
                assertTrue(reader.mightContain(key), "the read-only handle sees key " + key + " at once");
            }
            assertEquals(2, reader.openWriters());
        }
    }

    /** A ping-pong: each side adds a key and at once asks the other whether it sees it. No sync. */
    @Test
    void anotherProcessSeesAddsAtOnce() throws Exception {
        Path file = dir.resolve("shared.bloom");
        try (BloomFilter filter = BloomFilter.create(file, SPEC);
                ChildJvm child = ChildJvm.start(FilterWorkerProcess.class, file.toString())) {
            child.expectLine("ready", CHILD_TIMEOUT);
            for (long key = 0; key < 500; key += 2) {
                assertTrue(filter.add(key));
                child.send("contains " + key);
                child.expectLine("true", CHILD_TIMEOUT);
                child.send("add " + (key + 1));
                child.expectLine("true", CHILD_TIMEOUT);
                assertTrue(filter.mightContain(key + 1), "this process sees the child's key " + (key + 1) + " at once");
            }
            child.awaitSuccess(CHILD_TIMEOUT);
        }
    }

    /**
     * sync must write every page dirtied since the last sync, every time: the mapping's dirty pages
     * (/proc/self/smaps) are cleaned by a real msync. The second round matters: a sync that only
     * ever writes what it has not written before leaves later adds unsynced.
     */
    @Test
    void everySyncWritesTheDirtyPagesToTheFile() throws Exception {
        Path file = dir.resolve("sync.bloom");
        try (BloomFilter filter = BloomFilter.create(file, SPEC)) {
            for (int round = 1; round <= 3; round++) {
                for (long key = round * 100_000L; key < round * 100_000L + 20_000; key++) {
                    filter.add(key);
                }
                assertTrue(ProcSelf.dirtyKilobytesOf(file) > 0, "round " + round + ": adds dirty the mapping");
                filter.sync();
                assertEquals(0, ProcSelf.dirtyKilobytesOf(file),
                        "round " + round + ": kilobytes of the mapping still dirty after sync");
            }
        }
    }

    /** The restart case of a dedup index: openOrCreate, add, close, and again, keeping every key. */
    @Test
    void openOrCreateAfterCloseKeepsEveryKey() throws Exception {
        Path file = dir.resolve("restart.bloom");
        int keysPerRun = 20_000;
        for (int run = 0; run < 3; run++) {
            try (BloomFilter filter = BloomFilter.openOrCreate(file, SPEC)) {
                assertEveryKeyPresent(filter, 0, (long) run * keysPerRun);
                for (long key = 0; key < (long) run * keysPerRun; key++) {
                    assertFalse(filter.add(key), "key " + key + " was added before the restart: not new");
                }
                for (long key = (long) run * keysPerRun; key < (run + 1L) * keysPerRun; key++) {
                    filter.add(key);
                }
            }
        }
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertEveryKeyPresent(filter, 0, 3L * keysPerRun);
            assertEquals(0, filter.openWriters(), "every writer closed");
        }
    }

    /**
     * kill -9 in the middle of adding: every key whose add had returned (the child acknowledged it
     * before it was killed) is in the file, with no sync and no close.
     */
    @Test
    void keysAcknowledgedBeforeKillMinusNineSurvive() throws Exception {
        Path file = dir.resolve("crash.bloom");
        BloomFilter.create(file, SPEC).close();
        long acknowledged;
        try (ChildJvm child = ChildJvm.start(FilterWorkerProcess.class, file.toString())) {
            child.expectLine("ready", CHILD_TIMEOUT);
            child.send("add-acknowledged 0 100000000 1000");
            String line;
            do {
                line = child.readLine(CHILD_TIMEOUT);
            } while (Long.parseLong(line.substring("acknowledged ".length())) < 50_000);
            child.killHard(CHILD_TIMEOUT);
            acknowledged = Long.parseLong(line.substring("acknowledged ".length()));
        }
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertEveryKeyPresent(filter, 0, acknowledged);
        }
    }
}
