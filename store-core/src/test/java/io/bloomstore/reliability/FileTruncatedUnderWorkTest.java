package io.bloomstore.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.bloomstore.reliability.TruncatedFileWorker.Work;
import io.bloomstore.testing.ChildJvm;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A filter file truncated by another program under a process working on it: each write and each
 * pass over the cells must end with the mapping's fault, as soon as the JVM lets it. On JDK 17 a
 * write retried its compare-and-set forever at full CPU, and a pass returned a merge, a count or a
 * checksum computed from skipped loads ({@code internal.cells.MappingFaults} says why). In a
 * separate JVM ({@link TruncatedFileWorker}), which halts itself on work that spins.
 */
class FileTruncatedUnderWorkTest {
    /** For a write: its retry loop spun from the 13th to 17th round on (the child says why). */
    private static final int WRITE_ROUNDS = 40;
    /**
     * For a pass, which raises after each chunk, 0.03 to 0.6 s a round: before it did, 7 merges in
     * 10 returned as if nothing had happened.
     */
    private static final int PASS_ROUNDS = 10;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Work.class)
    void workOnATruncatedFileEndsWithTheMappingsFault(Work work) throws Exception {
        int rounds = work.pass ? PASS_ROUNDS : WRITE_ROUNDS;
        try (ChildJvm worker = ChildJvm.start(TruncatedFileWorker.class, dir.resolve("f.bloom").toString(), work.name(),
                Integer.toString(rounds))) {
            String line = worker.readLine(Children.TIMEOUT);
            assertEquals("ended: " + rounds + " of " + rounds + " rounds raised the fault", line, worker.stderr());
            worker.awaitSuccess(Children.TIMEOUT);
        }
    }
}
