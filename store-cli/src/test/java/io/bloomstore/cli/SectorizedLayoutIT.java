package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --layout sectorized} through the real jar: every verb that makes or reads a fixed, growing or windowed file. */
class SectorizedLayoutIT {
    private static final int KEYS = 20_000;

    @TempDir
    Path dir;

    @BeforeEach
    void writeKeys() throws Exception {
        StringBuilder first = new StringBuilder();
        StringBuilder second = new StringBuilder();
        for (int i = 0; i < KEYS; i++) {
            first.append("user-").append(i).append('\n');
            second.append("user-").append(i + KEYS / 2).append('\n');
        }
        Files.writeString(dir.resolve("a.txt"), first, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("b.txt"), second, StandardCharsets.UTF_8);
    }

    @Test
    void buildInspectVerifyMergeEstimateAndPack() throws Exception {
        String built = run(dir, "build", "a.bloom", "--from", "a.txt", "--fpp", "0.01", "--layout", "sectorized")
                .assertOk().stdout();
        assertTrue(built.contains("6 hashes, sectorized layout"), built);
        run(dir, "build", "b.bloom", "--from", "b.txt", "--fpp", "0.01", "--expected", "20000", "--layout", "sectorized")
                .assertOk();
        assertTrue(run(dir, "verify", "a.bloom").assertOk().stdout().startsWith("a.bloom: ok"));
        assertEquals(0, run(dir, "contains", "-q", "a.bloom", "user-0", "user-19999").exit());
        String json = run(dir, "inspect", "a.bloom", "--json").assertOk().stdout();
        assertTrue(json.contains("\"layout\" : \"sectorized\""), json);

        run(dir, "merge", "both.bloom", "a.bloom", "b.bloom").assertOk();
        assertEquals(0, run(dir, "contains", "-q", "both.bloom", "user-0", "user-29999").exit());
        String estimate = run(dir, "estimate", "a.bloom", "b.bloom", "--json").assertOk().stdout();
        assertTrue(estimate.contains("union"), estimate);

        run(dir, "create", "sectors.bloom", "--cells", "204800", "--hashes", "6", "--layout", "sectorized").assertOk();
        run(dir, "create", "blocked.bloom", "--cells", "204800", "--hashes", "6", "--layout", "blocked").assertOk();
        String refused = run(dir, "merge", "mixed.bloom", "sectors.bloom", "blocked.bloom").assertError(2).err();
        assertTrue(refused.contains("layout: sectorized vs blocked"), refused);

        run(dir, "pack", "a.bloom", "a.pack").assertOk();
        run(dir, "unpack", "a.pack", "copy.bloom").assertOk();
        assertEquals(0, run(dir, "contains", "-q", "copy.bloom", "user-0", "user-19999").exit());
    }

    @Test
    void countingCellsAreRefusedWithTheReason() {
        String err = run(dir, "create", "c.bloom", "--expected", "1000", "--fpp", "0.01", "--layout", "sectorized",
                "--counter-bits", "4").assertError(2).err();
        assertTrue(err.contains("1-bit cells only"), err);
    }

    @Test
    void dedupIntoGrowingAndWindowedFiles() throws Exception {
        String grown = run(dir, "dedup", "g.bloom", "--from", "a.txt", "--expected", "2000", "--fpp", "0.01",
                "--layout", "sectorized", "--grow").assertOk().stdout();
        // every line is new, and is printed unless a false positive (about 1%) drops it
        assertTrue(grown.lines().count() > KEYS * 0.985, grown.lines().count() + " lines printed");
        assertEquals("", run(dir, "dedup", "g.bloom", "--from", "a.txt").assertOk().stdout(), "and seen the second");
        assertTrue(run(dir, "inspect", "g.bloom").assertOk().stdout().contains("sectorized"));

        // 8 epochs: the window is sized so that one epoch takes all the lines
        run(dir, "dedup", "w.bloom", "--from", "a.txt", "--expected", "200000", "--fpp", "0.01", "--layout", "sectorized",
                "--window", "1h").assertOk();
        assertEquals("", run(dir, "dedup", "w.bloom", "--from", "a.txt").assertOk().stdout());
        assertTrue(run(dir, "inspect", "w.bloom").assertOk().stdout().contains("sectorized"));
    }
}
