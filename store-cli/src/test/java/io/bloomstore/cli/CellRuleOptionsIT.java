package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * --stable and --values/--value-bits on dedup, build and size, through the real jar, checked as
 * create checks them; and estimate on these files (docs/CLI.md, "Stable and valued filters").
 */
class CellRuleOptionsIT {
    @TempDir
    Path dir;

    private Path lines(String name, int from, int to, boolean withValues) throws Exception {
        StringBuilder text = new StringBuilder();
        for (int i = from; i < to; i++) {
            text.append("key-").append(i).append(withValues ? "\t" + (i % 4) : "").append('\n');
        }
        return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
    }

    @Test
    void dedupCreatesAStableFileOnItsFirstRunAndReusesIt() throws Exception {
        lines("first.txt", 0, 1000, false);
        assertEquals(1000, run(dir, "dedup", "seen.bloom", "--stable", "--fpp", "0.01", "--expected", "100k",
                "--counter-bits", "2", "--from", "first.txt").assertOk().stdout().lines().count());
        String inspect = run(dir, "inspect", "seen.bloom").assertOk().stdout();
        assertTrue(inspect.contains("stable (Deng & Rafiei)"), inspect);
        // the second run with the same options uses the file: the lines seen are not printed again
        assertEquals("key-1000\n", run(dir, "key-5\nkey-1000\n".getBytes(StandardCharsets.UTF_8), "dedup", "seen.bloom",
                "--stable", "--fpp", "0.01", "--expected", "100k", "--counter-bits", "2", "--from", "-").assertOk().stdout());

        run(dir, "create", "plain.bloom", "--expected", "1000", "--fpp", "0.01").assertOk();
        String notStable = run(dir, "dedup", "plain.bloom", "--stable", "--fpp", "0.01", "--expected", "100k",
                "--from", "first.txt").assertError(2).err();
        assertTrue(notStable.contains("plain.bloom is not a stable filter, but --stable asks for one"), notStable);
        String valued = run(dir, "dedup", "v.bloom", "--values", "max", "--value-bits", "2", "--expected", "1000",
                "--fpp", "0.01", "--from", "first.txt").assertError(2).err();
        assertTrue(valued.contains("--values makes a valued filter; dedup adds keys without values"), valued);
        assertFalse(Files.exists(dir.resolve("v.bloom")));
        // an existing valued file is refused before any line is printed (the add would fail after it)
        run(dir, "create", "v.bloom", "--values", "max", "--value-bits", "2", "--expected", "1000", "--fpp", "0.01").assertOk();
        JarProcess.Result onValued = run(dir, "line\n".getBytes(StandardCharsets.UTF_8), "dedup", "v.bloom", "--from", "-");
        assertEquals(2, onValued.exit());
        assertEquals("", onValued.stdout());
        assertTrue(onValued.err().contains("v.bloom is a valued filter; dedup adds keys without values"), onValued.err());
        // the same refusals as create's
        String both = run(dir, "dedup", "x.bloom", "--stable", "--fpp", "0.01", "--expected", "10", "--size", "1M",
                "--from", "first.txt").assertError(2).err();
        assertTrue(both.contains("--stable needs either --expected N (the later keys a key survives on average) or "
                + "--size BYTES, not both"), both);
        assertFalse(Files.exists(dir.resolve("x.bloom")));
    }

    @Test
    void buildMakesStableAndValuedFilesSealed() throws Exception {
        lines("keys.txt", 0, 5000, false);
        String stable = run(dir, "build", "stable.bloom", "--stable", "--fpp", "0.01", "--expected", "100k", "--from",
                "keys.txt").assertOk().stdout();
        assertTrue(stable.startsWith("built stable.bloom from 5,000 keys (5,000 read absent before): stable, ")
                && stable.contains("decrements per add") && stable.strip().endsWith("; sealed"), stable);
        assertEquals(0, run(dir, "contains", "-q", "stable.bloom", "key-4999").exit());
        assertTrue(run(dir, "verify", "stable.bloom").assertOk().stdout().contains("cells checksum"));
        assertTrue(run(dir, "build", "stable.bloom", "--stable", "--fpp", "0.01", "--expected", "100k", "--from",
                "keys.txt").assertError(2).err().contains("already exists"));

        lines("pairs.tsv", 0, 3000, true);
        String valued = run(dir, "build", "labels.bloom", "--values", "max", "--value-bits", "2", "--expected", "3000",
                "--fpp", "0.001", "--from", "pairs.tsv").assertOk().stdout();
        assertTrue(valued.startsWith("built labels.bloom from 3,000 pairs (3,000 changed a cell): valued (max), values "
                + "of 2 bits, "), valued);
        JarProcess.Result got = run(dir, "get", "labels.bloom", "key-5", "key-2998", "never");
        assertEquals(1, got.exit(), "one key is absent");
        assertEquals("key-5\t1\nkey-2998\t2\nnever\tabsent\n", got.stdout());
        assertTrue(run(dir, "verify", "labels.bloom").assertOk().stdout().contains("cells checksum"));

        // a bad line leaves no file, and no temporary beside it
        Files.writeString(dir.resolve("bad.tsv"), "a\t1\nb\n", StandardCharsets.UTF_8);
        String bad = run(dir, "build", "bad.bloom", "--values", "min", "--value-bits", "2", "--expected", "10",
                "--fpp", "0.01", "--from", "bad.tsv").assertError(2).err();
        assertTrue(bad.contains("pair 2 of bad.tsv ('b') is not KEY<TAB>VALUE"), bad);
        try (var files = Files.list(dir)) {
            assertEquals(0, files.filter(f -> f.getFileName().toString().contains("bad.bloom")).count());
        }
        // create's checks, and those of --map
        assertTrue(run(dir, "build", "x.bloom", "--values", "max", "--expected", "10", "--fpp", "0.01", "--from",
                "pairs.tsv").assertError(2).err().contains("--values needs --value-bits W: the bits of a value, 1 to 31"));
        assertTrue(run(dir, "build", "x.bloom", "--values", "max", "--value-bits", "2", "--fpp", "0.01", "--from",
                "pairs.tsv").assertError(2).err().contains("--values needs --expected N"));
        assertTrue(run(dir, "build", "x.map", "--map", "--stable", "--value-bits", "2", "--from", "pairs.tsv")
                .assertError(2).err().contains("build --map makes a Bloomier map; --stable, --values and --size make filters"));
        assertTrue(run(dir, "build", "x.map", "--map", "--value-bits", "2", "--from", "pairs.tsv").assertOk().stdout()
                .contains("Bloomier map"), "--value-bits still serves --map");
    }

    /**
     * A valued build killed with SIGKILL while it reads leaves no FILE, and the next build beside
     * FILE sweeps the temporary it left (the library's build path, as a plain build's).
     */
    @Test
    void aKilledBuildLeavesNoFileAndItsTemporaryIsSweptByTheNext() throws Exception {
        Process build = JarProcess.start(dir, "build", "killed.bloom", "--values", "max", "--value-bits", "2",
                "--expected", "1000", "--fpp", "0.01", "--from", "-");
        try {
            JarProcess.readAll(build.getInputStream());
            JarProcess.readAll(build.getErrorStream());
            build.getOutputStream().write("a\t1\n".getBytes(StandardCharsets.UTF_8));
            build.getOutputStream().flush(); // stdin stays open: the build waits for more pairs
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(120);
            while (temporaries("killed.bloom") == 0) {
                assertTrue(build.isAlive() && System.nanoTime() < deadline, "the build made its temporary");
                Thread.sleep(50);
            }
            build.destroyForcibly();
            assertTrue(build.waitFor(60, java.util.concurrent.TimeUnit.SECONDS));
        } finally {
            build.destroyForcibly();
        }
        assertFalse(Files.exists(dir.resolve("killed.bloom")), "nothing published");
        assertEquals(1, temporaries("killed.bloom"), "kill -9 runs no clean-up");

        lines("pairs.tsv", 0, 10, true);
        run(dir, "build", "killed.bloom", "--values", "max", "--value-bits", "2", "--expected", "1000", "--fpp", "0.01",
                "--from", "pairs.tsv").assertOk();
        assertEquals(0, temporaries("killed.bloom"), "the next build swept the orphan");
    }

    /** The hidden temporaries beside {@code name}: {@code .NAME.PID.RANDOM.PURPOSE.tmp}. */
    private long temporaries(String name) throws Exception {
        try (var files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).filter(f -> f.startsWith("." + name + ".") && f.endsWith(".tmp"))
                    .count();
        }
    }

    @Test
    void sizeTellsAStableOrValuedFileBeforeItIsMade() throws Exception {
        String text = run(dir, "size", "--stable", "--fpp", "0.01", "--expected", "1M", "--counter-bits", "2")
                .assertOk().stdout();
        assertTrue(text.contains("stable: fixed space") && text.contains("at the stable point")
                && text.contains("expected lifetime"), text);
        String json = run(dir, "size", "--stable", "--fpp", "0.01", "--expected", "1M", "--counter-bits", "2", "--json")
                .assertOk().stdout();
        run(dir, "create", "made.bloom", "--stable", "--fpp", "0.01", "--expected", "1M", "--counter-bits", "2").assertOk();
        assertTrue(json.contains("\"kind\" : \"stable\"") && json.contains("\"fileBytes\" : "
                + Files.size(dir.resolve("made.bloom")) + ","), json);

        String valued = run(dir, "size", "--values", "min", "--value-bits", "3", "--expected", "100k", "--fpp", "0.001",
                "--json").assertOk().stdout();
        run(dir, "create", "made-v.bloom", "--values", "min", "--value-bits", "3", "--expected", "100k", "--fpp", "0.001")
                .assertOk();
        assertTrue(valued.contains("\"kind\" : \"valued\"") && valued.contains("\"rule\" : \"min\"")
                && valued.contains("\"fileBytes\" : " + Files.size(dir.resolve("made-v.bloom")) + ","), valued);

        assertTrue(run(dir, "size", "--stable", "--values", "max", "--fpp", "0.01", "--expected", "10").assertError(2).err()
                .contains("--stable and --values exclude each other"));
        assertTrue(run(dir, "size", "--values", "max", "--value-bits", "40", "--fpp", "0.01", "--expected", "10")
                .assertError(2).err().contains("--value-bits must be 1 to 31, not 40"));
    }

    /**
     * A valued file's non-empty cells count its keys as a plain filter's bits do: 2,000 and 2,000
     * keys overlapping in 1,000 read as such; a stable file is refused, saying why.
     */
    @Test
    void estimateReadsValuedFilesAndRefusesStableOnes() throws Exception {
        lines("a.tsv", 0, 2000, true);
        lines("b.tsv", 1000, 3000, true);
        for (String name : new String[] {"a", "b"}) {
            run(dir, "build", name + ".bloom", "--values", "max", "--value-bits", "2", "--expected", "10k", "--fpp", "0.01",
                    "--from", name + ".tsv").assertOk();
        }
        String json = run(dir, "estimate", "a.bloom", "b.bloom", "--json").assertOk().stdout();
        assertEquals(2000, number(json, "keysA"), 60);
        assertEquals(3000, number(json, "union"), 90);
        assertEquals(1000, number(json, "intersection"), 90);

        lines("keys.txt", 0, 2000, false);
        for (String name : new String[] {"s1", "s2"}) {
            run(dir, "build", name + ".bloom", "--stable", "--fpp", "0.01", "--expected", "10k", "--from", "keys.txt")
                    .assertOk();
        }
        String refused = run(dir, "estimate", "s1.bloom", "s2.bloom").assertError(2).err();
        assertTrue(refused.contains("s1.bloom: is a stable filter, whose cells do not count its keys"), refused);
        assertEquals(1, refused.strip().lines().count(), refused);
    }

    private static double number(String json, String field) {
        String from = json.substring(json.indexOf("\"" + field + "\" : ") + field.length() + 5);
        return Double.parseDouble(from.substring(0, from.indexOf(',')).strip());
    }
}
