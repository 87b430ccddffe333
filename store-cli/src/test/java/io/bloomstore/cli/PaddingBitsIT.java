package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bits after the last cell (padding) are damage (issue 16): verify reports them, inspect does not
 * count them as set cells, and merge does not carry them into its output.
 */
class PaddingBitsIT {
    /** 1000 one-bit cells: cell 1000, the first padding bit, is bit 0 of byte 4096 + 125 (FORMAT.md). */
    private static final int FIRST_PADDING_BYTE = 4096 + 125;
    /** The last byte of the file: the cells fill one 4 KiB page. */
    private static final int LAST_BYTE = 8191;

    @TempDir
    Path dir;

    @BeforeEach
    void filtersWithKeys() throws IOException {
        for (String name : new String[] {"clean.bloom", "padded.bloom"}) {
            run(dir, "create", name, "--cells", "1000", "--hashes", "7").assertOk();
            run(dir, "add", name, "alice", "bob", "carol").assertOk();
        }
        run(dir, "create", "other.bloom", "--cells", "1000", "--hashes", "7").assertOk();
        run(dir, "add", "other.bloom", "dave").assertOk();
        setBits("padded.bloom", FIRST_PADDING_BYTE, 0x01);
        setBits("padded.bloom", LAST_BYTE, 0x80);
    }

    @Test
    void verifyReportsThemAsDamage() {
        run(dir, "verify", "clean.bloom").assertOk();
        String err = run(dir, "verify", "padded.bloom").assertError(1).err();
        assertTrue(err.startsWith("bloomstore: padded.bloom: cells are damaged: bits after the last of the 1000 cells"
                + " (padding, in the word at byte 4216)"), err);
    }

    @Test
    void inspectDoesNotCountThem() throws IOException {
        ObjectMapper json = new ObjectMapper();
        long clean = json.readTree(run(dir, "inspect", "clean.bloom", "--json").assertOk().out()).get("setCells").asLong();
        long padded = json.readTree(run(dir, "inspect", "padded.bloom", "--json").assertOk().out()).get("setCells").asLong();
        assertTrue(clean > 0);
        assertEquals(clean, padded);
    }

    @Test
    void mergeDoesNotCarryThemIntoItsOutput() throws IOException {
        run(dir, "merge", "union.bloom", "padded.bloom", "other.bloom", "--op", "or").assertOk();
        run(dir, "merge", "clean-union.bloom", "clean.bloom", "other.bloom", "--op", "or").assertOk();
        byte[] union = Files.readAllBytes(dir.resolve("union.bloom"));
        assertEquals(0, union[FIRST_PADDING_BYTE]);
        assertEquals(0, union[LAST_BYTE]);
        assertArrayEquals(cells(Files.readAllBytes(dir.resolve("clean-union.bloom"))), cells(union));
        run(dir, "verify", "union.bloom").assertOk();
        run(dir, "contains", "union.bloom", "alice", "bob", "carol", "dave").assertOk();
    }

    private static byte[] cells(byte[] file) {
        return Arrays.copyOfRange(file, 4096, file.length);
    }

    private void setBits(String name, long offset, int bits) throws IOException {
        try (RandomAccessFile file = new RandomAccessFile(dir.resolve(name).toFile(), "rw")) {
            file.seek(offset);
            int value = file.read();
            file.seek(offset);
            file.write(value | bits);
        }
    }
}
