package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
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
    private long readLong(String name, long offset) throws Exception {
        try (RandomAccessFile file = new RandomAccessFile(dir.resolve(name).toFile(), "r")) {
            file.seek(offset);
            return Long.reverseBytes(file.readLong());
        }
    }

    private void writeLong(String name, long offset, long value) throws Exception {
        try (RandomAccessFile file = new RandomAccessFile(dir.resolve(name).toFile(), "rw")) {
            file.seek(offset);
            file.writeLong(Long.reverseBytes(value));
        }
    }

    /**
     * A growing file's segment count lowered by one hides the newest segment's keys, and a windowed
     * slot's epoch set to an older one or to CLEARING hides its slot's: verify said ok to both.
     */
    @Test
    void aLoweredSegmentCountAndSlotEpochsOutOfTheirRunAreDamage() throws Exception {
        Files.writeString(dir.resolve("many.txt"), LongStream.range(0, 20_000).mapToObj(Long::toString)
                .collect(Collectors.joining("\n", "", "\n")));
        run(dir, "create", "g.bloom", "--expected", "1000", "--fpp", "0.01", "--grow").assertOk();
        run(dir, "add", "g.bloom", "--from", "many.txt").assertOk();
        assertTrue(run(dir, "verify", "g.bloom").assertOk().stdout().startsWith("g.bloom: ok (container header and 5"));
        writeLong("g.bloom", 128, readLong("g.bloom", 128) - 1);
        String err = run(dir, "verify", "g.bloom").assertError(1).err();
        assertTrue(err.contains("segment 4 is prepared but not published (the segment count is 4), yet its count of"
                + " keys is "), err);

        run(dir, "create", "w.bloom", "--expected", "1000", "--fpp", "0.01", "--window", "1h", "--epochs", "4").assertOk();
        run(dir, "add", "w.bloom", "a", "b", "c").assertOk();
        run(dir, "verify", "w.bloom").assertOk();
        long current = readLong("w.bloom", 128);
        // the previous epoch's slot: the current one's is checked with the epoch word when the file is opened
        long slotEpoch = 256 + 32 * Math.floorMod(current - 1, 5) + 16;
        writeLong("w.bloom", slotEpoch, current - 6);
        err = run(dir, "verify", "w.bloom").assertError(1).err();
        assertTrue(err.contains("holds epoch " + (current - 6) + " where the current epoch " + current), err);
        writeLong("w.bloom", slotEpoch, Long.MIN_VALUE);
        err = run(dir, "verify", "w.bloom").assertError(1).err();
        assertTrue(err.contains("holds CLEARING (a slot being cleared) where the current epoch " + current), err);
    }
}
