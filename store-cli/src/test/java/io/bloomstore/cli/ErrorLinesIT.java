package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jpountz.lz4.LZ4FrameOutputStream;
import net.jpountz.xxhash.XXHashFactory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The error lines a user reads say what went wrong with which of the user's files, in words: never
 * a hidden temporary's name, never a bare system message with no file, never a library's internal
 * text or "(null)".
 */
class ErrorLinesIT {
    /** LZ4 frame magic, then FLG (version 01, independent blocks, no checksums) and BD (4 MiB blocks). */
    private static final byte[] FRAME_START = {0x04, 0x22, 0x4D, 0x18, 0x60, 0x70};

    @TempDir
    Path dir;

    @BeforeEach
    void filter() {
        run(dir, "create", "f.bloom", "--expected", "1000", "--fpp", "0.01").assertOk();
    }

    private static void assertNoHiddenName(String err) {
        assertFalse(err.matches("(?s).*/?\\.[^/ ]+\\.\\d+\\.[0-9a-z]+\\.[a-z]+\\.tmp.*"), "names a temporary: " + err);
    }

    @Test
    void aDirectoryGivenAsKeysOrAPackIsCalledADirectory() throws Exception {
        Files.createDirectory(dir.resolve("adir"));
        for (String verb : List.of("add", "contains", "remove")) {
            String err = run(dir, verb, "f.bloom", "--from", "adir").assertError(2).err();
            assertTrue(err.startsWith("bloomstore: adir: is a directory; --from takes a file of keys"), err);
        }
        String build = run(dir, "build", "b.bloom", "--from", "adir", "--fpp", "0.01").assertError(2).err();
        assertTrue(build.startsWith("bloomstore: adir: is a directory"), build);
        String unpack = run(dir, "unpack", "adir", "u.bloom").assertError(2).err();
        assertEquals("bloomstore: adir: is a directory, not a pack; give the file that 'pack' wrote\n", unpack);
        assertEquals(List.of("adir", "f.bloom"), JarProcess.filesIn(dir));
    }

    @Test
    void aDirectoryThatRefusesNewFilesIsReportedForTheUsersFile() throws Exception {
        Path locked = Files.createDirectory(dir.resolve("locked"));
        // root ignores permission bits; an immutable directory refuses root too
        JarProcess.Result immutable = JarProcess.run(new ProcessBuilder("chattr", "+i", locked.toString()), dir, new byte[0]);
        assumeTrue(immutable.exit() == 0, () -> "cannot make a directory immutable here: " + immutable.err());
        try {
            Files.writeString(dir.resolve("keys.txt"), "a\nb\n");
            for (String[] args : List.of(new String[] {"create", "locked/n.bloom", "--expected", "10", "--fpp", "0.1"},
                    new String[] {"build", "locked/b.bloom", "--from", "keys.txt", "--fpp", "0.1"},
                    new String[] {"pack", "f.bloom", "locked/f.pack"},
                    new String[] {"merge", "locked/m.bloom", "f.bloom", "f.bloom", "--op", "or"})) {
                String err = run(dir, args).assertError(2).err();
                assertTrue(err.startsWith("bloomstore: " + args[args[0].equals("pack") ? 2 : 1] + ": "), err);
                assertTrue(err.contains("cannot create a file in "), err);
                assertNoHiddenName(err);
            }
        } finally {
            JarProcess.run(new ProcessBuilder("chattr", "-i", locked.toString()), dir, new byte[0]);
        }
    }

    @Test
    void aFullDiskNamesTheFileBeingWrittenOrStdout() throws Exception {
        Files.writeString(dir.resolve("keys.txt"), KeyLines.numbered("key-", 0, 300_000));
        try (SmallFileSystem small = SmallFileSystem.mount(dir, "small", "1m")) {
            String build = run(dir, "build", "small/b.bloom", "--from", "keys.txt", "--fpp", "1e-6").assertError(2).err();
            assertTrue(build.matches("bloomstore: \\S*small/b\\.bloom: needs .*\n"), build);
            assertNoHiddenName(build);

            ProcessBuilder toFullDisk = new ProcessBuilder("bash", "-c",
                    JarProcess.shellCommand("contains", "f.bloom", "--from", "keys.txt") + " > small/answers.txt");
            String err = JarProcess.run(toFullDisk, dir, new byte[0]).err();
            assertTrue(err.startsWith("bloomstore: cannot write to stdout ("
                    + small.root().resolve("answers.txt").toRealPath() + "): No space left on device"), err);
        }
    }

    /** An LZ4 frame (no checksums) holding {@code block} as its one block, compressed if {@code compressed}. */
    private static byte[] frame(byte[] block, boolean compressed) {
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        frame.writeBytes(FRAME_START);
        int headerChecksum = XXHashFactory.fastestInstance().hash32().hash(FRAME_START, 4, 2, 0) >>> 8 & 0xFF;
        frame.write(headerChecksum);
        ByteBuffer size = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
        size.putInt(compressed ? block.length : block.length | 0x8000_0000);
        frame.writeBytes(size.array());
        frame.writeBytes(block);
        frame.writeBytes(new byte[4]); // end mark
        return frame.toByteArray();
    }

    @Test
    void aDamagedPackIsDescribedInWords() throws Exception {
        // a well-formed frame whose content, 10 bytes, ends inside the 24-byte preamble
        ByteArrayOutputStream shortPack = new ByteArrayOutputStream();
        try (LZ4FrameOutputStream lz4 = new LZ4FrameOutputStream(shortPack)) {
            lz4.write(new byte[10]);
        }
        Files.write(dir.resolve("short.pack"), shortPack.toByteArray());
        assertEquals("bloomstore: short.pack: damaged or truncated pack (its content ends after 10 bytes, inside its "
                + "headers); nothing was written\n", run(dir, "unpack", "short.pack", "s.bloom").assertError(2).err());

        // a block that says it is larger than the frame's 4 MiB blocks
        byte[] oversized = frame(new byte[16], true);
        ByteBuffer.wrap(oversized, FRAME_START.length + 1, 4).order(ByteOrder.LITTLE_ENDIAN).putInt(15 << 20);
        Files.write(dir.resolve("oversized.pack"), oversized);
        assertEquals("bloomstore: oversized.pack: damaged or truncated pack (a compressed block says it holds 15728640 "
                + "bytes, more than the 4194304 its frame allows); nothing was written\n",
                run(dir, "unpack", "oversized.pack", "o.bloom").assertError(2).err());

        // a compressed block whose one match points before the start of the output
        byte[] malformed = {0x10, 'A', (byte) 0xFF, (byte) 0xFF, 0x00};
        Files.write(dir.resolve("malformed.pack"), frame(malformed, true));
        assertEquals("bloomstore: malformed.pack: damaged or truncated pack (a compressed block does not decompress "
                + "(malformed at its byte 1)); nothing was written\n", run(dir, "unpack", "malformed.pack", "m.bloom")
                .assertError(2).err());
        assertEquals(List.of("f.bloom", "malformed.pack", "oversized.pack", "short.pack"), JarProcess.filesIn(dir));
    }
}
