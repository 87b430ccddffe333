package io.bloomstore.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.bloomstore.OpenMode;
import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.testing.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dedup index's promise under kill -9: every key whose {@code add} returned before the crash is
 * in the file afterwards, and the file opens clean, however often the writer is killed.
 *
 * <p>Each round starts a {@link CrashingAdder} JVM on the same file, reads the keys it acknowledges
 * and SIGKILLs it at a moment drawn from a seeded random source; then the parent reopens the file and
 * checks every key acknowledged in every round so far. (The child goes on adding and acknowledging
 * until the kill lands; the few keys it acknowledged after the parent's last read are not checked,
 * since {@link ChildJvm} gives no way to read a dead child's last lines.)
 * {@code -Dbloomstore.crash.rounds=N} and {@code -Dbloomstore.crash.seed=S} set the number of rounds
 * and the seed for a long run.
 */
class CrashRecoveryTest {
    private static final int ROUNDS = Integer.getInteger("bloomstore.crash.rounds", 12);
    private static final long SEED = Long.getLong("bloomstore.crash.seed", 0x6b696c6c39L);
    /** The most keys a child acknowledges before it is killed; the kill lands anywhere up to there. */
    private static final int MAX_ACKS_BEFORE_KILL = 40_000;
    /** Keys of round r are r * KEY_RANGE + 0, 1, 2, ...: disjoint, so each round's set is known exactly. */
    private static final long KEY_RANGE = 1L << 32;

    @TempDir
    Path dir;

    @Test
    void everyAcknowledgedKeySurvivesRepeatedKill9() throws Exception {
        Path file = dir.resolve("dedup.bloom");
        BloomFilter.create(file, BloomSpec.forExpected((long) ROUNDS * MAX_ACKS_BEFORE_KILL * 2, 0.01)).close();
        Random random = new Random(SEED);
        List<Long> acknowledgedPerRound = new ArrayList<>();
        long totalAcknowledged = 0;
        for (int round = 0; round < ROUNDS; round++) {
            int batch = random.nextBoolean() ? 1 : 64;
            // One round in eight kills the writer right after it opened, before any add.
            int killAfter = random.nextInt(8) == 0 ? 0 : 1 + random.nextInt(MAX_ACKS_BEFORE_KILL);
            long first = round * KEY_RANGE;
            try (ChildJvm adder = ChildJvm.start(CrashingAdder.class, file.toString(), Long.toString(first),
                    Integer.toString(batch))) {
                adder.expectLine("open", Children.TIMEOUT);
                readAcknowledgements(adder, first, killAfter);
                adder.killHard(Children.TIMEOUT);
            }
            acknowledgedPerRound.add((long) killAfter);
            totalAcknowledged += killAfter;
            assertOpensCleanWithEveryAcknowledgedKey(file, acknowledgedPerRound);
        }
        assertEquals(List.of(file.getFileName().toString()), Directories.names(dir),
                "nothing but the filter is left beside it");
        System.out.printf("crash recovery: %d kill -9 rounds survived, %d acknowledged keys all present (seed %d)%n",
                ROUNDS, totalAcknowledged, SEED);
    }

    /** Reads {@code count} acknowledged keys, checking they come in order. */
    private static void readAcknowledgements(ChildJvm adder, long first, long count) {
        for (long seen = 0; seen < count; seen++) {
            long key = Long.parseLong(adder.readLine(Children.TIMEOUT));
            if (key != first + seen) {
                fail("acknowledgements come in key order: " + key + " after " + (first + seen - 1));
            }
        }
    }

    private static void assertOpensCleanWithEveryAcknowledgedKey(Path file, List<Long> acknowledgedPerRound)
            throws Exception {
        int kills = acknowledgedPerRound.size();
        // open() checks magic, version, CRC32C, every field and the file length: "opens clean".
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            for (int round = 0; round < kills; round++) {
                long first = round * KEY_RANGE;
                for (long key = first; key < first + acknowledgedPerRound.get(round); key++) {
                    if (!filter.mightContain(key)) {
                        fail("acknowledged key " + key + " of round " + round + " is missing after " + kills + " kills");
                    }
                }
            }
            // Each killed writer incremented the advisory writer count and never decremented it.
            assertEquals(kills, filter.shape().openWriters(), "the writer count is stale by exactly the crashed writers");
        }
    }

    /**
     * SIGTERM or {@code System.exit} just as a create begins: other threads run on while the
     * shutdown hooks do, so a temporary made after bloomstore's hook has swept would outlive the
     * process (the test below caught one such SIGTERM once). Once the hook has begun, making a
     * temporary is refused, and every temporary made before it is deleted.
     */
    @Test
    void noTemporaryIsMadeOnceTheShutdownHookHasBegun() throws Exception {
        Path file = dir.resolve("target.bloom");
        try (ChildJvm child = ChildJvm.start(TemporariesDuringShutdown.class, file.toString())) {
            child.expectLine("refused", Children.TIMEOUT);
            child.awaitSuccess(Children.TIMEOUT);
        }
        assertEquals(List.of(), Directories.names(dir), "a temporary outlived the process");
    }

    /**
     * A create killed part-way never publishes a half-written filter: afterwards the target either
     * does not exist or opens clean. Nor does it leave its temporary file for long: SIGTERM runs
     * the shutdown hook that deletes it; after kill -9 the next create beside the same target
     * deletes it, its process being gone.
     */
    @Test
    void killDuringCreateNeverPublishesAHalfWrittenFilterNorLeavesATemporary() throws Exception {
        Path file = dir.resolve("big.bloom");
        long cells = 1L << 31; // 256 MiB of cells: long enough to write and force that a kill lands inside
        Random random = new Random(SEED);
        int rounds = 8;
        int published = 0;
        Set<String> orphans = new HashSet<>();
        for (int round = 0; round < rounds; round++) {
            boolean hard = round % 2 == 0;
            try (ChildJvm creator = ChildJvm.start(FilterCreator.class, file.toString(), Long.toString(cells))) {
                creator.expectLine("creating", Children.TIMEOUT);
                // Not synchronization: the kill moment, one random point in each quarter of the first
                // 320 ms (writing and forcing 256 MiB takes a few hundred ms here).
                Thread.sleep(round / 2 * 80L + random.nextInt(80));
                if (hard) {
                    creator.killHard(Children.TIMEOUT);
                } else {
                    creator.terminate(Children.TIMEOUT);
                }
            }
            if (Files.exists(file)) {
                try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_ONLY)) {
                    assertEquals(cells, filter.spec().cells());
                }
                published++;
                Files.delete(file);
            }
            for (String name : Directories.names(dir)) {
                assertTrue(name.startsWith("." + file.getFileName() + ".") && name.endsWith(".tmp"),
                        "only a hidden temporary file may be left: " + name);
                // (a SIGTERM landing before its create began may leave an earlier kill -9's orphan)
                assertTrue(hard || orphans.contains(name), "SIGTERM left " + name + ": the shutdown hook should have deleted it");
                orphans.add(name);
            }
        }
        // The next create beside the target deletes what the killed creators left.
        BloomFilter.create(file, BloomSpec.builder().cells(1 << 12).hashes(3).build()).close();
        assertEquals(List.of(file.getFileName().toString()), Directories.names(dir));
        assertNotEquals(rounds, published, "at least one kill landed inside the create");
        System.out.printf("kill during create: %d rounds (SIGKILL and SIGTERM alternately), %d completed before the kill,"
                + " %d temporaries left by kill -9 and deleted by the next create, none by SIGTERM,"
                + " none left a half-written filter%n", rounds, published, orphans.size());
    }
}
