package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.filesIn;
import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** checkpoint: a copy created whole, then brought up to date by its changed pages only; restore; refusals. */
class CheckpointIT {
    private static final Pattern CHANGED = Pattern.compile(
            "checkpointed live\\.bloom into copy\\.bloom: ([0-9,]+) of ([0-9,]+) pages changed, .* written in [0-9.]+ s\n");

    @TempDir
    Path dir;

    @Test
    void createsTheCopyThenWritesOnlyChangedPagesAndRestores() throws Exception {
        // blocked: one key changes one page, so a few keys change few of the 3,009 pages
        run(dir, "create", "live.bloom", "--expected", "10M", "--fpp", "0.01", "--layout", "blocked").assertOk();
        Files.writeString(dir.resolve("first.txt"), keys(0, 20_000));
        Files.writeString(dir.resolve("second.txt"), keys(1_000_000, 50));
        run(dir, "add", "live.bloom", "--from", "first.txt").assertOk();

        String created = run(dir, "checkpoint", "live.bloom", "copy.bloom").assertOk().stdout();
        assertTrue(created.startsWith("created copy.bloom from live.bloom (11.8 MiB) in "), created);

        run(dir, "add", "live.bloom", "--from", "second.txt").assertOk();
        String update = run(dir, "checkpoint", "live.bloom", "copy.bloom").assertOk().stdout();
        Matcher changed = CHANGED.matcher(update);
        assertTrue(changed.matches(), update);
        long pages = Long.parseLong(changed.group(1).replace(",", ""));
        assertTrue(pages >= 40 && pages <= 52, "50 keys, a page each, and the first page: " + update);
        assertArrayEquals(Files.readAllBytes(dir.resolve("live.bloom")), Files.readAllBytes(dir.resolve("copy.bloom")));

        JsonNode json = new ObjectMapper().readTree(run(dir, "checkpoint", "live.bloom", "copy.bloom", "--json")
                .assertOk().stdout());
        assertEquals(0, json.get("bytesWritten").asLong(), "nothing changed since");
        assertEquals(Files.size(dir.resolve("live.bloom")), json.get("fileLength").asLong());
        assertEquals(false, json.get("created").asBoolean());

        Files.delete(dir.resolve("live.bloom"));
        run(dir, "checkpoint", "copy.bloom", "live.bloom").assertOk();
        assertEquals(0, run(dir, "contains", "-q", "live.bloom", "--from", "first.txt").exit());
        assertEquals(0, run(dir, "contains", "-q", "live.bloom", "--from", "second.txt").exit());
        run(dir, "verify", "live.bloom").assertOk();
        assertEquals(List.of("copy.bloom", "first.txt", "live.bloom", "second.txt"), filesIn(dir));
    }

    @Test
    void aGrowingFileAndItsCopyGrowTogether() throws Exception {
        run(dir, "create", "live.bloom", "--expected", "1000", "--fpp", "0.01", "--grow").assertOk();
        run(dir, "checkpoint", "live.bloom", "copy.bloom").assertOk();
        Files.writeString(dir.resolve("keys.txt"), keys(0, 30_000));
        run(dir, "add", "live.bloom", "--from", "keys.txt").assertOk();
        run(dir, "checkpoint", "live.bloom", "copy.bloom").assertOk();
        assertArrayEquals(Files.readAllBytes(dir.resolve("live.bloom")), Files.readAllBytes(dir.resolve("copy.bloom")));
        assertEquals(0, run(dir, "contains", "-q", "copy.bloom", "--from", "keys.txt").exit());
    }

    @Test
    void refusesACopyOfAnotherFilterAndTheLiveFileItself() throws Exception {
        run(dir, "create", "live.bloom", "--expected", "1000", "--fpp", "0.01").assertOk();
        run(dir, "create", "other.bloom", "--expected", "1000", "--fpp", "0.01").assertOk();
        byte[] other = Files.readAllBytes(dir.resolve("other.bloom"));
        assertEquals("bloomstore: other.bloom is not a checkpoint of live.bloom (their headers differ): checkpoint to a "
                + "new path, or delete the copy first\n", run(dir, "checkpoint", "live.bloom", "other.bloom").assertError(2).err());
        assertArrayEquals(other, Files.readAllBytes(dir.resolve("other.bloom")));
        assertEquals("bloomstore: live.bloom is the live file itself: give the path of its copy\n",
                run(dir, "checkpoint", "live.bloom", "live.bloom").assertError(2).err());
        Files.writeString(dir.resolve("notes.txt"), "not a filter\n");
        String notAFilter = run(dir, "checkpoint", "notes.txt", "copy.bloom").assertError(2).err();
        assertTrue(notAFilter.startsWith("bloomstore: notes.txt: "), notAFilter);
        assertEquals(List.of("live.bloom", "notes.txt", "other.bloom"), filesIn(dir), "nothing left beside");
    }

    /**
     * The arguments swapped: COPY LIVE, with LIVE newer, is refused (exit 2) before anything is
     * written, for a fixed and a growing file; --force writes the older file over it all the same.
     */
    @Test
    void aSwappedCheckpointIsRefusedUnlessForced() throws Exception {
        Files.writeString(dir.resolve("first.txt"), keys(0, 1_000));
        Files.writeString(dir.resolve("more.txt"), keys(1_000, 30_000));
        for (String kind : List.of("fixed", "growing")) {
            List<String> create = new java.util.ArrayList<>(List.of("create", "live.bloom", "--expected", "1000", "--fpp", "0.01"));
            if (kind.equals("growing")) {
                create.add("--grow");
            } else {
                create.set(3, "100000");
            }
            run(dir, create.toArray(String[]::new)).assertOk();
            run(dir, "add", "live.bloom", "--from", "first.txt").assertOk();
            run(dir, "checkpoint", "live.bloom", "copy.bloom").assertOk();
            run(dir, "add", "live.bloom", "--from", "more.txt").assertOk();
            byte[] live = Files.readAllBytes(dir.resolve("live.bloom"));

            String refused = run(dir, "checkpoint", "copy.bloom", "live.bloom").assertError(2).err();
            assertTrue(refused.startsWith("bloomstore: live.bloom is newer than copy.bloom ("), kind + ": " + refused);
            assertTrue(refused.endsWith("): a checkpoint never goes backwards, which would lose what was added to "
                    + "live.bloom since; nothing was written; if you mean to write the older copy.bloom over it, "
                    + "losing that, run the checkpoint again with --force\n"), kind + ": " + refused);
            assertArrayEquals(live, Files.readAllBytes(dir.resolve("live.bloom")), kind + ": nothing was written");
            assertEquals(0, run(dir, "contains", "-q", "live.bloom", "--from", "more.txt").exit());

            run(dir, "checkpoint", "copy.bloom", "live.bloom", "--force").assertOk();
            assertEquals(0, run(dir, "contains", "-q", "live.bloom", "--from", "first.txt").exit());
            assertEquals(1, run(dir, "contains", "-q", "live.bloom", "--from", "more.txt").exit(), kind + ": forced back");
            Files.delete(dir.resolve("live.bloom"));
            Files.delete(dir.resolve("copy.bloom"));
        }
    }

    /**
     * A growing file with a bit set after its first segment's last cell: verify refuses it (exit 1),
     * and pack and checkpoint refuse it in verify's words (exit 2), writing no pack and no copy.
     */
    @Test
    void aDamagedGrowingFileIsNeitherPackedNorCheckpointed() throws Exception {
        run(dir, "create", "live.bloom", "--expected", "1000", "--fpp", "0.01", "--grow").assertOk();
        Files.writeString(dir.resolve("keys.txt"), keys(0, 5_000));
        run(dir, "add", "live.bloom", "--from", "keys.txt").assertOk();
        byte[] file = Files.readAllBytes(dir.resolve("live.bloom"));
        java.nio.ByteBuffer table = java.nio.ByteBuffer.wrap(file).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        file[(int) (table.getLong(256) + table.getLong(256 + 8)) - 1] = (byte) 0x80; // segment 0's last byte: padding
        Files.write(dir.resolve("live.bloom"), file);

        String verify = run(dir, "verify", "live.bloom").assertError(1).err();
        assertTrue(verify.contains("segment 0: cells are damaged"), verify);
        assertEquals(verify, run(dir, "pack", "live.bloom", "live.pack").assertError(2).err());
        assertEquals(verify, run(dir, "checkpoint", "live.bloom", "copy.bloom").assertError(2).err());
        assertEquals(List.of("keys.txt", "live.bloom"), filesIn(dir), "no pack, no copy, no temporary");
    }

    private static String keys(long from, long count) {
        return LongStream.range(from, from + count).mapToObj(key -> "key-" + key)
                .collect(Collectors.joining("\n", "", "\n"));
    }
}
