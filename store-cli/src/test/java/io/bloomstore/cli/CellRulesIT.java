package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stable and valued filters through the real jar: create, dedup, add, contains, get, inspect,
 * verify, pack, unpack and merge, and the errors a user meets with them (docs/CLI.md, "Stable and
 * valued filters").
 */
class CellRulesIT {
    @TempDir
    Path dir;

    @Test
    void aClickStreamDeduplicatedByAStableFilter() throws Exception {
        String created = run(dir, "create", "clicks.bloom", "--stable", "--fpp", "0.01", "--expected", "20000",
                "--counter-bits", "2").assertOk().stdout();
        assertTrue(created.contains("stable") && created.contains("decrements per add"), created);
        StringBuilder stream = new StringBuilder();
        for (int i = 0; i < 200_000; i++) {
            stream.append("click-").append(i).append('\n');
        }
        Files.writeString(dir.resolve("clicks.txt"), stream, StandardCharsets.UTF_8);
        // ten lifetimes of distinct clicks: a fixed file whose false-positive rate stays near its stable point
        long printed = run(dir, "dedup", "clicks.bloom", "--from", "clicks.txt").assertOk().stdout().lines().count();
        assertTrue(printed > 200_000 * 0.98, printed + " of 200000 distinct clicks printed");
        // the last clicks are remembered: a repeat of them prints nothing
        assertEquals("", run(dir, "click-199999\nclick-199998\n".getBytes(StandardCharsets.UTF_8), "dedup", "clicks.bloom",
                "--from", "-").assertOk().stdout());
        assertEquals(0, run(dir, "contains", "-q", "clicks.bloom", "click-199990").exit());

        String json = run(dir, "inspect", "clicks.bloom", "--json").assertOk().stdout();
        assertTrue(json.contains("\"rule\" : \"stable\"") && json.contains("\"expectedLifetime\"")
                && json.contains("\"zeroFraction\""), json);
        String text = run(dir, "inspect", "clicks.bloom").assertOk().stdout();
        assertTrue(text.contains("stable point") && text.contains("expected lifetime"), text);
        assertTrue(run(dir, "verify", "clicks.bloom").assertOk().stdout().startsWith("clicks.bloom: ok"));

        run(dir, "pack", "clicks.bloom", "clicks.pack").assertOk();
        run(dir, "unpack", "clicks.pack", "copy.bloom").assertOk();
        assertEquals(0, run(dir, "contains", "-q", "copy.bloom", "click-199990").exit());

        String merge = run(dir, "merge", "both.bloom", "clicks.bloom", "copy.bloom").assertError(2).err();
        assertTrue(merge.contains("stable filters do not merge"), merge);
        String remove = run(dir, "remove", "clicks.bloom", "click-1").assertError(2).err();
        assertTrue(remove.contains("stable"), remove);

        run(dir, "create", "sized.bloom", "--stable", "--fpp", "0.001", "--size", "1M", "--counter-bits", "4").assertOk();
        long size = Files.size(dir.resolve("sized.bloom")); // 1M is 1,000,000: the file fits in it, to a page
        assertTrue(size <= 1_000_000 && size > 1_000_000 - 4096, size + " bytes");
    }

    @Test
    void aSpatialFilterOverThreeLabelledSets() throws Exception {
        run(dir, "create", "regions.bloom", "--values", "max", "--value-bits", "2", "--expected", "3000", "--fpp", "0.001")
                .assertOk();
        // sets in priority order: 1 = public, 2 = internal, 3 = restricted
        for (int label = 1; label <= 3; label++) {
            StringBuilder lines = new StringBuilder();
            for (int i = 0; i < 1000; i++) {
                lines.append("10.").append(label).append('.').append(i / 256).append('.').append(i % 256)
                        .append('\t').append(label).append('\n');
            }
            Files.writeString(dir.resolve("set" + label), lines, StandardCharsets.UTF_8);
            String added = run(dir, "add", "regions.bloom", "--from", "set" + label).assertOk().stdout();
            assertTrue(added.startsWith("added 1,000 pairs"), added);
        }
        JarProcess.Result got = run(dir, "get", "regions.bloom", "10.1.0.7", "10.3.3.231", "192.168.0.1");
        assertEquals(1, got.exit(), "one key is absent");
        assertEquals("10.1.0.7\t1\n10.3.3.231\t3\n192.168.0.1\tabsent\n", got.stdout());
        run(dir, "add", "regions.bloom", "10.1.0.7=2").assertOk();
        assertEquals("10.1.0.7\t2\n", run(dir, "get", "regions.bloom", "10.1.0.7").assertOk().stdout());

        String json = run(dir, "inspect", "regions.bloom", "--json").assertOk().stdout();
        assertTrue(json.contains("\"rule\" : \"max\"") && json.contains("\"errorPerValue\""), json);
        assertTrue(run(dir, "inspect", "regions.bloom").assertOk().stdout().contains("error per value"));

        run(dir, "create", "more.bloom", "--values", "max", "--value-bits", "2", "--expected", "3000", "--fpp", "0.001")
                .assertOk();
        run(dir, "add", "more.bloom", "10.1.0.7=3", "10.9.9.9=1").assertOk();
        run(dir, "merge", "joined.bloom", "regions.bloom", "more.bloom").assertOk();
        assertEquals("10.1.0.7\t3\n10.9.9.9\t1\n10.2.0.0\t2\n",
                run(dir, "get", "joined.bloom", "10.1.0.7", "10.9.9.9", "10.2.0.0").assertOk().stdout());
        assertTrue(run(dir, "verify", "joined.bloom").assertOk().stdout().contains("ok"));
    }

    @Test
    void mistakesAreRefusedWithWhatToDo() throws Exception {
        run(dir, "create", "hops.bloom", "--values", "min", "--value-bits", "4", "--expected", "100", "--fpp", "0.01")
                .assertOk();
        run(dir, "add", "hops.bloom", "peer=5", "peer=2", "peer=9").assertOk();
        assertEquals("peer\t2\n", run(dir, "get", "hops.bloom", "peer").assertOk().stdout());
        assertTrue(run(dir, "add", "hops.bloom", "peer=16").assertError(2).err().contains("wider than the file's 4 value bits"));
        assertTrue(run(dir, "add", "hops.bloom", "peer").assertError(2).err().contains("is not KEY=VALUE"));
        // a counting filter of the very shape of hops.bloom: only the cell rule differs
        run(dir, "create", "plain.bloom", "--expected", "100", "--fpp", "0.01", "--counter-bits", "8").assertOk();
        assertTrue(run(dir, "get", "plain.bloom", "a").assertError(2).err().contains("holds no values"));
        // a growing file too: StoredFile.open opens it as a filter, not as a version it cannot read
        run(dir, "create", "chain.bloom", "--expected", "100", "--fpp", "0.01", "--grow").assertOk();
        assertTrue(run(dir, "get", "chain.bloom", "a").assertError(2).err().contains("is a growing filter and holds no values"));
        assertTrue(run(dir, "create", "x.bloom", "--values", "max", "--expected", "10", "--fpp", "0.1").assertError(2).err()
                .contains("--value-bits"));
        assertTrue(run(dir, "create", "x.bloom", "--stable", "--fpp", "0.1").assertError(2).err().contains("--size"));
        assertTrue(run(dir, "create", "x.bloom", "--stable", "--fpp", "0.1", "--expected", "100", "--counter-bits", "8")
                .assertError(2).err().contains("1, 2 or 4 bits"));
        assertTrue(run(dir, "create", "x.bloom", "--values", "max", "--value-bits", "3", "--expected", "10", "--fpp", "0.1",
                "--grow").assertError(2).err().contains("drop --grow"));
        String mixed = run(dir, "merge", "y.bloom", "plain.bloom", "hops.bloom").assertError(2).err();
        assertTrue(mixed.contains("valued (min)"), mixed);
    }
}
