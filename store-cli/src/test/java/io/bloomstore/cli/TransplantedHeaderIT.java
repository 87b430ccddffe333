package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A header moved onto another filter's cells (issue 16): two filters of the same shape, built from
 * different keys, and the header of one written over the other. Before the file identity, verify
 * said "ok" of the result while nearly every key of the header's filter was absent.
 */
class TransplantedHeaderIT {
    /** The immutable header; the rest of the first page is the state area and zeros. */
    private static final int HEADER = 128;
    private static final int HEADER_PAGE = 4096;

    @TempDir
    Path dir;

    @BeforeEach
    void twoFiltersOfOneShape() throws IOException {
        Files.writeString(dir.resolve("a.txt"), keys("a"));
        Files.writeString(dir.resolve("b.txt"), keys("b"));
        run(dir, "build", "a.bloom", "--from", "a.txt", "--expected", "1000", "--fpp", "0.01").assertOk();
        run(dir, "build", "b.bloom", "--from", "b.txt", "--expected", "1000", "--fpp", "0.01").assertOk();
    }

    private static String keys(String prefix) {
        return IntStream.range(0, 1000).mapToObj(i -> prefix + i + "\n").collect(Collectors.joining());
    }

    @Test
    void aHeaderOnAnotherSealedFiltersCellsFailsVerify() throws IOException {
        copyStart("a.bloom", "b.bloom", HEADER);
        String err = run(dir, "verify", "b.bloom").assertError(1).err();
        assertTrue(err.startsWith("bloomstore: b.bloom: header and cells do not belong together"), err);
    }

    @Test
    void aWholeHeaderPageOnAnotherSealedFiltersCellsFailsVerify() throws IOException {
        copyStart("a.bloom", "b.bloom", HEADER_PAGE);
        String err = run(dir, "verify", "b.bloom").assertError(1).err();
        assertTrue(err.contains("header and cells do not belong together"), err);
    }

    @Test
    void aHeaderOnAnUnsealedFilterFailsVerifyToo() throws IOException {
        run(dir, "add", "b.bloom", "one-more").assertOk();
        assertEquals("b.bloom: ok (not sealed: cells not checksummed, damage to them cannot be detected;"
                + " header, length, file identity and padding checked)\n", run(dir, "verify", "b.bloom").assertOk().stdout());
        copyStart("a.bloom", "b.bloom", HEADER);
        String err = run(dir, "verify", "b.bloom").assertError(1).err();
        assertTrue(err.startsWith("bloomstore: b.bloom: header and cells do not belong together"), err);
    }

    /** Writes the first {@code length} bytes of {@code from} over those of {@code onto}. */
    private void copyStart(String from, String onto, int length) throws IOException {
        byte[] start = new byte[length];
        try (RandomAccessFile source = new RandomAccessFile(dir.resolve(from).toFile(), "r")) {
            source.readFully(start);
        }
        try (RandomAccessFile target = new RandomAccessFile(dir.resolve(onto).toFile(), "rw")) {
            target.write(start);
        }
    }
}
