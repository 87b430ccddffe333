package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.filesIn;
import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** merge and estimate on filters built apart: keys 0..5999 in A, 4000..9999 in B. */
class MergeEstimateIT {
    @TempDir
    Path dir;

    @BeforeEach
    void buildTwoOverlappingFilters() throws Exception {
        StringBuilder a = new StringBuilder();
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 10_000; i++) {
            if (i < 6_000) {
                a.append("k").append(i).append('\n');
            }
            if (i >= 4_000) {
                b.append("k").append(i).append('\n');
            }
        }
        Files.writeString(dir.resolve("a.txt"), a);
        Files.writeString(dir.resolve("b.txt"), b);
        run(dir, "build", "a.bloom", "--from", "a.txt", "--expected", "20000", "--fpp", "0.001").assertOk();
        run(dir, "build", "b.bloom", "--from", "b.txt", "--expected", "20000", "--fpp", "0.001").assertOk();
    }

    @Test
    void unionAndIntersection() throws Exception {
        String merged = run(dir, "merge", "union.bloom", "a.bloom", "b.bloom").assertOk().stdout();
        assertTrue(merged.startsWith("merged 2 filters (or) into union.bloom: "), merged);
        assertEquals(0, run(dir, "contains", "-q", "union.bloom", "k0", "k5000", "k9999").exit());
        run(dir, "merge", "both.bloom", "a.bloom", "b.bloom", "--op", "and").assertOk();
        assertEquals(0, run(dir, "contains", "-q", "both.bloom", "k4000", "k5999").exit());
        assertEquals(1, run(dir, "contains", "-q", "both.bloom", "k0").exit());
        assertEquals("union.bloom: ok (header, length, file identity, padding and cells checksum)\n", run(dir, "verify", "union.bloom").assertOk().stdout());

        JsonNode estimate = new ObjectMapper().readTree(run(dir, "estimate", "a.bloom", "b.bloom", "--json").assertOk().out());
        assertEquals(6_000, estimate.get("keysA").asDouble(), 150);
        assertEquals(10_000, estimate.get("union").asDouble(), 250);
        assertEquals(2_000, estimate.get("intersection").asDouble(), 250);
        assertEquals(0.2, estimate.get("jaccard").asDouble(), 0.03);
        String human = run(dir, "estimate", "a.bloom", "b.bloom").assertOk().stdout();
        assertTrue(human.startsWith("A             a.bloom: "), human);
        assertTrue(human.matches("(?s).*\njaccard       0\\.(19|20)\\d\\d\n"), human);
    }

    @Test
    void incompatibleInputsAreRefusedNamingTheFieldAndNothingIsWritten() throws Exception {
        run(dir, "build", "other.bloom", "--from", "a.txt", "--expected", "20000", "--fpp", "0.001", "--seed", "7").assertOk();
        String err = run(dir, "merge", "out.bloom", "a.bloom", "other.bloom").assertError(2).err();
        assertTrue(err.contains("seed"), err);
        run(dir, "create", "small.bloom", "--expected", "10", "--fpp", "0.1").assertOk();
        assertTrue(run(dir, "merge", "out.bloom", "a.bloom", "b.bloom", "small.bloom").assertError(2).err().contains("cells (m)"));
        assertTrue(run(dir, "estimate", "a.bloom", "small.bloom").assertError(2).err().contains("cells (m)"));
        run(dir, "merge", "out.bloom", "a.bloom").assertError(2);
        run(dir, "merge", "out.bloom", "a.bloom", "missing.bloom").assertError(2);
        run(dir, "merge", "a.bloom", "a.bloom", "b.bloom").assertError(2);
        assertEquals(List.of("a.bloom", "a.txt", "b.bloom", "b.txt", "other.bloom", "small.bloom"), filesIn(dir));
    }
}
