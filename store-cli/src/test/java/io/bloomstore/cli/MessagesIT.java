package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the jar says in the cases a new user met and misread (issue 17, "Messages"). */
class MessagesIT {
    @TempDir
    Path dir;

    /** An error that names a seed shows it as inspect does, so the two can be compared by eye. */
    @Test
    void seedsReadTheSameInErrorsAndInInspect() {
        run(dir, "create", "a.bloom", "--cells", "4096", "--hashes", "3").assertOk();
        run(dir, "create", "b.bloom", "--cells", "4096", "--hashes", "3", "--seed", "7").assertOk();
        String shownA = seedLine(run(dir, "inspect", "a.bloom").assertOk().stdout());
        String shownB = seedLine(run(dir, "inspect", "b.bloom").assertOk().stdout());
        assertEquals("xxh3-64, seed 0x0000000000000007", shownB);
        String err = run(dir, "merge", "c.bloom", "a.bloom", "b.bloom").assertError(ExitCode.ERROR).err();
        assertTrue(err.contains("seed: " + shownA.substring("xxh3-64, seed ".length()) + " vs 0x0000000000000007"), err);
    }

    private static String seedLine(String inspect) {
        return inspect.lines().filter(line -> line.startsWith("hash ")).findFirst().orElseThrow()
                .substring("hash".length()).trim();
    }

    /** Two full filters: their union, intersection and Jaccard index are unknown, which JSON says with null. */
    @Test
    void estimateJsonSaysNullForWhatIsUnknown() throws Exception {
        StringBuilder keys = new StringBuilder();
        for (int i = 0; i < 2_000; i++) {
            keys.append("key-").append(i).append('\n');
        }
        Files.writeString(dir.resolve("keys.txt"), keys);
        for (String full : List.of("a.bloom", "b.bloom")) {
            run(dir, "create", full, "--cells", "64", "--hashes", "1").assertOk();
            run(dir, "add", full, "--from", "keys.txt").assertOk();
        }
        String json = run(dir, "estimate", "a.bloom", "b.bloom", "--json").assertOk().stdout();
        JsonNode estimate = new ObjectMapper().readTree(json);
        for (String unknown : List.of("keysA", "keysB", "union", "intersection", "jaccard")) {
            assertTrue(estimate.get(unknown).isNull(), unknown + " in " + json);
        }
        String text = run(dir, "estimate", "a.bloom", "b.bloom").assertOk().stdout();
        assertTrue(text.contains("jaccard       unknown (a filter is full)"), text);
    }

    /** build's count of new keys says what it counts, lest repeats and false positives be taken for duplicates. */
    @Test
    void buildSaysWhatItsNewKeysCount() throws Exception {
        Files.writeString(dir.resolve("keys.txt"), "a\nb\na\nc\n");
        String built = run(dir, "build", "f.bloom", "--from", "keys.txt", "--fpp", "0.01").assertOk().stdout();
        assertTrue(built.startsWith("built f.bloom from 4 keys (3 set a new cell; 1 found all theirs set: "
                + "repeated lines or false positives): "), built);
    }

    /** A filter made by create was never sealed: inspect says why it has no checksum, truly; verify, that it has none. */
    @Test
    void aFreshFilterIsNotSaidToHaveBeenOpenedForWriting() {
        run(dir, "create", "f.bloom", "--expected", "1", "--fpp", "0.01").assertOk();
        String inspect = run(dir, "inspect", "f.bloom").assertOk().stdout();
        assertTrue(inspect.contains("\nsealed           no: no checksum of its cells is recorded ('build' and 'merge' "
                + "seal a filter; 'create' leaves it unsealed, and opening it for writing unseals it)\n"), inspect);
        assertTrue(inspect.contains("\nsized for        1 key at 1% false positives\n"), inspect);
        String verify = run(dir, "verify", "f.bloom").assertOk().stdout();
        assertTrue(verify.startsWith("f.bloom: ok (not sealed: cells not checksummed"), verify);
    }

    /** verify --help: 1 when damaged, 2 when it cannot be read at all; a directory is the latter. */
    @Test
    void verifyOfADirectoryExits2() throws Exception {
        Files.createDirectory(dir.resolve("adir"));
        String err = run(dir, "verify", "adir").assertError(ExitCode.ERROR).err();
        assertTrue(err.contains("adir: is a directory, not a filter file"), err);
    }

    /** An empty key file is refused (most often a mistake upstream) unless --expected sizes the filter. */
    @Test
    void buildFromNoKeysNeedsExpected() throws Exception {
        Files.writeString(dir.resolve("empty.txt"), "\n\n");
        String err = run(dir, "build", "f.bloom", "--from", "empty.txt", "--fpp", "0.01").assertError(ExitCode.ERROR).err();
        assertTrue(err.contains("empty.txt has no keys (no non-empty lines) to size the filter by; give --expected N"), err);
        String fromStdin = run(dir, new byte[0], "build", "f.bloom", "--from", "-", "--fpp", "0.01")
                .assertError(ExitCode.ERROR).err();
        assertTrue(fromStdin.contains("stdin has no keys"), fromStdin);
        assertEquals(List.of("empty.txt"), JarProcess.filesIn(dir), "no filter, no temporary");

        String built = run(dir, "build", "f.bloom", "--from", "empty.txt", "--expected", "1k", "--fpp", "0.01")
                .assertOk().stdout();
        assertTrue(built.startsWith("built f.bloom from 0 keys (0 set a new cell): "), built);
        assertTrue(run(dir, "inspect", "f.bloom").assertOk().stdout().contains("\nsized for        1,000 keys at 1%"));
    }
}
