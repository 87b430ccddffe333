package io.bloomstore.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.bloomstore.OpenMode;
import io.bloomstore.BloomFilter;
import io.bloomstore.CreateOption;
import io.bloomstore.Merge;
import io.bloomstore.MergeOp;
import io.bloomstore.Pack;
import io.bloomstore.BloomSpec;
import io.bloomstore.testing.ChildJvm;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Destructive operations on a file that another process has mapped and is using: merge in place,
 * pack, merge into a new file over it, create with REPLACE_EXISTING (the CLI's {@code --force}) and
 * unpack over it. None may crash the other process (a truncated mapping would SIGBUS it).
 *
 * <p>What the other process sees differs by operation, and the test pins it down: an in-place merge
 * changes the very cells it maps, so it sees the merged keys at once; the replacing operations
 * publish a new file by rename, so it keeps working on the old file (the unlinked inode) and sees
 * none of the new one, while the path shows the new file.
 */
class DestructiveOperationsOnLiveFileTest {
    private static final BloomSpec SPEC = BloomSpec.forExpected(2_000_000, 0.001);
    private static final long CHILD_KEYS = 0;
    private static final long MERGED_KEYS = 1L << 40;
    private static final long REPLACEMENT_KEYS = 2L << 40;
    private static final long PACKED_KEYS = 3L << 40;
    private static final int KEYS_PER_FILE = 10_000;
    private static final Duration ANSWER = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void aProcessUsingTheFileSurvivesEveryDestructiveOperation() throws Exception {
        Path live = dir.resolve("live.bloom");
        BloomFilter.create(live, SPEC).close();
        Path merged = filterWithKeys("merged.bloom", MERGED_KEYS);
        Path replacement = filterWithKeys("replacement.bloom", REPLACEMENT_KEYS);
        byte[] pack = KnownKeyFilters.pack(filterWithKeys("packed.bloom", PACKED_KEYS));
        int operations = 0;
        try (ChildJvm user = ChildJvm.start(LiveFileUser.class, live.toString(), Long.toString(CHILD_KEYS))) {
            user.expectLine("ready", Children.TIMEOUT);

            // 1. Merge in place: word-by-word CAS into the cells the child maps; nothing of either side is lost.
            try (BloomFilter target = BloomFilter.open(live, OpenMode.READ_WRITE);
                    BloomFilter source = BloomFilter.open(merged, OpenMode.READ_ONLY)) {
                Merge.inPlace(target, source, MergeOp.OR, null);
            }
            operations++;
            long beforePack = ping(user);
            assertEquals("present", ask(user, "contains " + MERGED_KEYS), "the child shares the cells merged into");
            KnownKeyFilters.assertHolds(live, CHILD_KEYS, beforePack);
            KnownKeyFilters.assertHolds(live, MERGED_KEYS, KEYS_PER_FILE);

            // 2. Pack while the child adds: the pack restores to a filter holding every key added before it began.
            Path restored = dir.resolve("restored.bloom");
            Pack.unpack(new ByteArrayInputStream(KnownKeyFilters.pack(live)), "live pack", restored);
            operations++;
            KnownKeyFilters.assertHolds(restored, CHILD_KEYS, beforePack);

            // 3. Merge into a new file over the live one (the output replaces an input, by rename).
            Merge.toNewFile(live, List.of(live, replacement), MergeOp.OR, CreateOption.REPLACE_EXISTING);
            operations++;
            long beforeCreate = ping(user);
            assertEquals("absent", ask(user, "contains " + REPLACEMENT_KEYS), "the child keeps its old file");
            KnownKeyFilters.assertHolds(live, REPLACEMENT_KEYS, KEYS_PER_FILE);
            KnownKeyFilters.assertHolds(live, CHILD_KEYS, beforePack);

            // 4. Create with REPLACE_EXISTING (--force): a new, empty file at the path.
            try (BloomFilter fresh = BloomFilter.create(live, SPEC, CreateOption.REPLACE_EXISTING)) {
                fresh.add(-1L);
            }
            operations++;
            ping(user);
            assertEquals("absent", ask(user, "contains -1"), "the child does not see the new file");
            try (BloomFilter fresh = BloomFilter.open(live, OpenMode.READ_ONLY)) {
                assertFalse(fresh.mightContain(CHILD_KEYS), "the new file starts empty");
            }

            // 5. Unpack over it.
            Pack.unpack(new ByteArrayInputStream(pack), "pack", live, CreateOption.REPLACE_EXISTING);
            operations++;
            long beforeStop = ping(user);
            KnownKeyFilters.assertHolds(live, PACKED_KEYS, KEYS_PER_FILE);

            user.send("stop");
            String done = user.readLine(ANSWER);
            assertTrue(done.startsWith("done "), () -> done + "; " + user.stderr());
            user.awaitSuccess(ANSWER);
            long added = Long.parseLong(done.substring(5));
            assertTrue(added >= beforeStop, "the child kept adding until told to stop");
            System.out.printf("destructive operations on a live file: %d operations, 0 refused, 0 crashes;"
                    + " the other process added %d keys meanwhile and lost none (%d before the file was replaced)%n",
                    operations, added, beforeCreate);
        }
        assertEquals(List.of("live.bloom", "merged.bloom", "packed.bloom", "replacement.bloom",
                "restored.bloom"), Directories.names(dir), "no temporary file is left behind");
    }

    /** Asks the child to re-check all its keys; returns how many it has added. */
    private static long ping(ChildJvm user) {
        String answer = ask(user, "ping");
        if (!answer.startsWith("pong ")) {
            fail("the child answered '" + answer + "' to ping; " + user.stderr());
        }
        return Long.parseLong(answer.substring(5));
    }

    private static String ask(ChildJvm user, String command) {
        user.send(command);
        return user.readLine(ANSWER);
    }

    private Path filterWithKeys(String name, long first) throws Exception {
        return KnownKeyFilters.withKeys(dir.resolve(name), SPEC, first, KEYS_PER_FILE);
    }
}
