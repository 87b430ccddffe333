package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** verify: exit 0 on an intact file, 1 on damage or a foreign file, 2 when there is no file to check. */
class VerifyIT {
    @TempDir
    Path dir;

    @BeforeEach
    void sealedFilter() throws Exception {
        Files.writeString(dir.resolve("keys.txt"), "a\nb\nc\n");
        run(dir, "build", "f.bloom", "--from", "keys.txt", "--expected", "1000", "--fpp", "0.01").assertOk();
    }

    private void flipByte(String name, long offset) throws Exception {
        try (RandomAccessFile file = new RandomAccessFile(dir.resolve(name).toFile(), "rw")) {
            file.seek(offset);
            int value = file.read();
            file.seek(offset);
            file.write(value ^ 0x01);
        }
    }

    @Test
    void damagedCellsOfASealedFilterAreFound() throws Exception {
        assertEquals("f.bloom: ok (header, length, file identity, padding and cells checksum)\n", run(dir, "verify", "f.bloom").assertOk().stdout());
        flipByte("f.bloom", 4096 + 100);
        String err = run(dir, "verify", "f.bloom").assertError(1).err();
        assertTrue(err.startsWith("bloomstore: f.bloom: cells are damaged"), err);
    }

    @Test
    void damagedHeaderWrongLengthAndForeignFilesAreDamage() throws Exception {
        Files.copy(dir.resolve("f.bloom"), dir.resolve("header.bloom"));
        flipByte("header.bloom", 30);
        assertTrue(run(dir, "verify", "header.bloom").assertError(1).err().contains("header is damaged"));

        Files.copy(dir.resolve("f.bloom"), dir.resolve("long.bloom"));
        Files.write(dir.resolve("long.bloom"), new byte[] {1}, java.nio.file.StandardOpenOption.APPEND);
        assertTrue(run(dir, "verify", "long.bloom").assertError(1).err().contains("truncated or appended to"));

        Files.write(dir.resolve("foreign.bloom"), new byte[8192]);
        assertTrue(run(dir, "verify", "foreign.bloom").assertError(1).err().contains("not a bloomstore filter"));
        // other commands refuse them as errors
        run(dir, "contains", "header.bloom", "a").assertError(2);
    }

    @Test
    void anUnsealedFilterIsCheckedAsFarAsPossibleAndAMissingOneIsAnError() {
        run(dir, "add", "f.bloom", "d").assertOk();
        String ok = run(dir, "verify", "f.bloom").assertOk().stdout();
        assertTrue(ok.startsWith("f.bloom: ok (not sealed: cells not checksummed, damage to them cannot be detected; header, length, file identity and padding checked)\n"), ok);
        run(dir, "verify", "missing.bloom").assertError(2);
    }
}
