package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.filesIn;
import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** pack and unpack, to and from files and pipes; damaged packs leave nothing. */
class PackIT {
    @TempDir
    Path dir;

    @BeforeEach
    void filter() {
        run(dir, "create", "f.bloom", "--expected", "50000", "--fpp", "0.01").assertOk();
        run(dir, "add", "f.bloom", "alpha", "beta", "gamma").assertOk();
    }

    @Test
    void roundTripThroughFilesIsBitForBit() throws Exception {
        String packed = run(dir, "pack", "f.bloom", "f.pack").assertOk().stdout();
        assertTrue(packed.startsWith("packed f.bloom (64.0 KiB) into f.pack ("), packed);
        assertTrue(Files.size(dir.resolve("f.pack")) < Files.size(dir.resolve("f.bloom")) / 10);
        String unpacked = run(dir, "unpack", "f.pack", "g.bloom").assertOk().stdout();
        assertTrue(unpacked.startsWith("unpacked f.pack into g.bloom: "), unpacked);
        assertArrayEquals(Files.readAllBytes(dir.resolve("f.bloom")), Files.readAllBytes(dir.resolve("g.bloom")));
        run(dir, "unpack", "f.pack", "g.bloom").assertError(2);
        run(dir, "pack", "f.bloom", "f.pack").assertError(2);
        run(dir, "unpack", "f.pack", "g.bloom", "--force").assertOk();
        assertEquals(List.of("f.bloom", "f.pack", "g.bloom"), filesIn(dir));
    }

    @Test
    void roundTripThroughStdoutAndStdin() throws Exception {
        JarProcess.Result packed = run(dir, "pack", "f.bloom", "-");
        assertEquals(0, packed.exit(), packed.err());
        assertEquals("", packed.err());
        run(dir, packed.out(), "unpack", "-", "h.bloom").assertOk();
        assertArrayEquals(Files.readAllBytes(dir.resolve("f.bloom")), Files.readAllBytes(dir.resolve("h.bloom")));
        assertEquals(0, run(dir, "contains", "-q", "h.bloom", "alpha", "beta", "gamma").exit());
    }

    @Test
    void damagedPacksAreRefusedAndLeaveNoFile() throws Exception {
        byte[] pack = run(dir, "pack", "f.bloom", "-").out();
        byte[] truncated = Arrays.copyOf(pack, pack.length / 2);
        byte[] flipped = pack.clone();
        flipped[pack.length / 2] ^= 0x40;
        for (byte[] damaged : List.of(truncated, flipped, "not a pack at all".getBytes())) {
            String err = run(dir, damaged, "unpack", "-", "x.bloom").assertError(2).err();
            assertTrue(err.startsWith("bloomstore: stdin: "), err);
        }
        Files.write(dir.resolve("bad.pack"), truncated);
        run(dir, "unpack", "bad.pack", "x.bloom").assertError(2);
        run(dir, "unpack", "missing.pack", "x.bloom").assertError(2);
        run(dir, "pack", "missing.bloom", "x.pack").assertError(2);
        assertEquals(List.of("bad.pack", "f.bloom"), filesIn(dir));
    }
}
