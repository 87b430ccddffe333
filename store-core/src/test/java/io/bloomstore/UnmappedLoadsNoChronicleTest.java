package io.bloomstore;

import static org.junit.jupiter.api.Assertions.*;

import io.bloomstore.testing.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The point of {@link io.bloomstore.tools.UnmappedQueries}: a process that opens a fixed filter that way and
 * queries it loads no class of Chronicle, whose start costs a short process more than the JVM's own
 * (docs/BENCHMARKS.md, "CLI start-up"). Checked in a process of its own, from the JVM's log of the
 * classes it loaded; the same process with the mapped {@link OpenMode#READ_ONLY} open shows that the log
 * would name them.
 */
class UnmappedLoadsNoChronicleTest {
    private static final String CHRONICLE = "net.openhft.chronicle.";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    /** The classes a process loaded to query key-1 and absent in {@code file} opened {@code how} (unmapped or mapped). */
    private String classesLoadedQuerying(Path file, String how) throws IOException {
        Path log = dir.resolve(how + ".classes");
        try (ChildJvm child = ChildJvm.start(List.of("-Xlog:class+load=info:file=" + log), UnmappedQueryProcess.class,
                file.toString(), how, "key-1", "absent")) {
            child.expectLine("key-1\ttrue", TIMEOUT);
            child.expectLine("absent\tfalse", TIMEOUT);
            child.awaitSuccess(TIMEOUT);
        }
        return Files.readString(log);
    }

    @Test
    void queriesWithoutMappingLoadNoChronicleClass() throws IOException {
        Path file = dir.resolve("f.bloom");
        try (BloomFilter filter = BloomFilter.create(file, BloomSpec.forExpected(1_000, 0.01))) {
            filter.add("key-1");
        }
        String unmapped = classesLoadedQuerying(file, "unmapped");
        assertTrue(unmapped.contains("io.bloomstore.UnmappedFilter ") && unmapped.contains(
                "io.bloomstore.internal.cells.PositionalCells "), "the log names the classes loaded");
        assertFalse(unmapped.contains(CHRONICLE), () -> "Chronicle classes loaded: " + unmapped.lines()
                .filter(line -> line.contains(CHRONICLE)).limit(5).toList());
        assertTrue(classesLoadedQuerying(file, "mapped").contains(CHRONICLE), "a mapped query loads them");
    }
}
