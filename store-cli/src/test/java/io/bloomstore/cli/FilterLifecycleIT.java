package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.filesIn;
import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** create, add, contains, count, remove and inspect through the real jar. */
class FilterLifecycleIT {
    @TempDir
    Path dir;

    @Test
    void createAddContainsInspect() throws Exception {
        String created = run(dir, "create", "users.bloom", "--expected", "1000", "--fpp", "0.01").assertOk().stdout();
        assertEquals("created users.bloom: 9,593 cells of 1 bit, 7 hashes, standard layout (8.0 KiB); allocated on disk\n", created);
        assertEquals("added 2 keys to users.bloom: 2 new, 0 possibly present already\n",
                run(dir, "add", "users.bloom", "alice", "bob").assertOk().stdout());
        Files.write(dir.resolve("more.txt"), "carol\r\n\ndave\n".getBytes(StandardCharsets.UTF_8));
        assertEquals("added 2 keys to users.bloom: 2 new, 0 possibly present already\n",
                run(dir, "add", "users.bloom", "--from", "more.txt", "--sync").assertOk().stdout());

        JarProcess.Result all = run(dir, "contains", "users.bloom", "alice", "dave");
        assertEquals(0, all.exit());
        assertEquals("alice\tpresent\ndave\tpresent\n", all.stdout());
        JarProcess.Result some = run(dir, "contains", "users.bloom", "alice", "mallory");
        assertEquals(1, some.exit());
        assertEquals("alice\tpresent\nmallory\tabsent\n", some.stdout());
        assertEquals("", some.err());

        byte[] stream = "alice\nzed\ncarol\r\nyan\n".getBytes(StandardCharsets.UTF_8);
        JarProcess.Result absent = run(dir, stream, "contains", "users.bloom", "--from", "-", "--print", "absent");
        assertEquals(1, absent.exit());
        assertEquals("zed\nyan\n", absent.stdout());
        assertEquals("alice\ncarol\n", run(dir, stream, "contains", "users.bloom", "--from", "-", "--print", "present").stdout());

        assertEquals("alice\t1\nmallory\t0\n", run(dir, "count", "users.bloom", "alice", "mallory").assertOk().stdout());

        String inspect = run(dir, "inspect", "users.bloom").assertOk().stdout();
        assertTrue(inspect.startsWith("file             users.bloom\n"), inspect);
        assertTrue(inspect.contains("\ninsertions       4 (adds that set a cell; approximate)\n"), inspect);
        assertTrue(inspect.contains("\nsized for        1,000 keys at 1% false positives\n"), inspect);
        assertEquals(List.of("more.txt", "users.bloom"), filesIn(dir));
    }

    @Test
    void countingFilterRemovesAndCounts() {
        run(dir, "create", "c.bloom", "--expected", "1000", "--fpp", "0.01", "--counter-bits", "4").assertOk();
        run(dir, "add", "c.bloom", "page", "page", "page", "other").assertOk();
        assertEquals("page\t3\nother\t1\n", run(dir, "count", "c.bloom", "page", "other").assertOk().stdout());
        assertEquals("removed 2 of 3 keys from c.bloom; 1 definitely absent, unchanged\n",
                run(dir, "remove", "c.bloom", "page", "other", "never").assertOk().stdout());
        assertEquals("page\t2\nother\t0\n", run(dir, "count", "c.bloom", "page", "other").assertOk().stdout());
        assertEquals(1, run(dir, "contains", "-q", "c.bloom", "other").exit());

        run(dir, "create", "plain.bloom", "--expected", "1000", "--fpp", "0.01").assertOk();
        String refused = run(dir, "remove", "plain.bloom", "x").assertError(2).err();
        assertTrue(refused.contains("--counter-bits"), refused);
    }

    @Test
    void refusedCreatesLeaveNothingAndForceReplaces() throws Exception {
        run(dir, "create", "f.bloom", "--expected", "100", "--fpp", "0.01").assertOk();
        byte[] before = Files.readAllBytes(dir.resolve("f.bloom"));
        assertEquals("bloomstore: f.bloom: already exists; replace it on purpose (--force)\n",
                run(dir, "create", "f.bloom", "--expected", "5000", "--fpp", "0.01").assertError(2).err());
        assertArrayEquals(before, Files.readAllBytes(dir.resolve("f.bloom")));
        run(dir, "create", "bad.bloom", "--expected", "-3", "--fpp", "0.01").assertError(2);
        run(dir, "create", "bad.bloom", "--cells", "10", "--hashes", "0").assertError(2);
        run(dir, "create", "huge.bloom", "--expected", "1T", "--fpp", "1e-9").assertError(2);
        assertEquals(List.of("f.bloom"), filesIn(dir));

        assertTrue(run(dir, "create", "f.bloom", "--expected", "5000", "--fpp", "0.01", "--force").assertOk().stdout()
                .contains("47,965 cells"));
        assertEquals(List.of("f.bloom"), filesIn(dir));
    }

    @Test
    void badFilesAndInputsAreOneLineErrors() throws Exception {
        Files.writeString(dir.resolve("notes.txt"), "not a filter, just some text that is long enough");
        assertEquals("bloomstore: missing.bloom: no such filter file; make one with 'bloomstore create' or 'bloomstore build'\n",
                run(dir, "contains", "missing.bloom", "k").assertError(2).err());
        assertTrue(run(dir, "contains", "notes.txt", "k").assertError(2).err().contains("too short to be a bloomstore filter"));
        run(dir, "create", "f.bloom", "--expected", "100", "--fpp", "0.01").assertOk();
        assertEquals("bloomstore: nope.txt: no such file\n", run(dir, "add", "f.bloom", "--from", "nope.txt").assertError(2).err());
        run(dir, "contains", "f.bloom").assertError(2);
        run(dir, "inspect", ".").assertError(2);
        run(dir, "frobnicate").assertError(2);
        assertEquals(List.of("f.bloom", "notes.txt"), filesIn(dir));
    }
}
