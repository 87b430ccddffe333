package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bloomstore.BloomFilter;
import io.bloomstore.OpenMode;
import io.bloomstore.internal.format.FilterFileDescriptor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Key files that are not nice text: binary bytes, lines of megabytes, NUL bytes, invalid UTF-8,
 * CRLF endings, no newline at the end. Keys are lines of bytes (FORMAT.md, the CLI help): a
 * trailing {@code \r} is dropped and empty lines are skipped, every other byte is part of the key.
 * So no line may crash a command, be skipped, be cut, or be decoded and re-encoded: every verb
 * must see exactly the keys below, and the Java API must find them by the same bytes.
 */
class BadKeysIT {
    /** The key reader's first buffer (KeyLineReader.DEFAULT_BUFFER): lines around it make it grow. */
    private static final int READ_BUFFER = 1 << 20;
    private static final String[] SIZE = {"--expected", "1000", "--fpp", "1e-9"};

    @TempDir
    Path dir;

    /** The keys the file holds, in order, as the contract reads them. */
    private final List<byte[]> keys = new ArrayList<>();
    /** Lines that must not have become keys: prefixes, decoded forms, the line with its \r. */
    private final List<byte[]> nearMisses = new ArrayList<>();
    private int skippedLines;

    @BeforeEach
    void writeKeyFile() throws IOException {
        Random random = new Random(0xBADC0DEL);
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        line(file, bytes("plain"), "\n");
        line(file, bytes(""), "\n");
        // 4 MiB of binary: the buffer grows twice; its first buffer-full must not be taken for the key
        byte[] huge = binary(random, 4 << 20);
        line(file, huge, "\n");
        nearMisses.add(Arrays.copyOf(huge, READ_BUFFER));
        // exactly one buffer with its \n just after, and one byte less with the \r of a CRLF on the edge
        line(file, binary(random, READ_BUFFER), "\n");
        line(file, binary(random, READ_BUFFER - 1), "\r\n");
        // NUL bytes are bytes, not terminators
        line(file, new byte[] {'a', 0, 'b', 0, 0}, "\n");
        line(file, new byte[] {0}, "\n");
        nearMisses.add(bytes("a"));
        // invalid UTF-8: a bad continuation, a byte never valid, an overlong '/', a surrogate, beyond U+10FFFF
        line(file, new byte[] {(byte) 0xC3, 0x28}, "\n");
        nearMisses.add(bytes("\uFFFD("));
        line(file, new byte[] {(byte) 0xFF}, "\n");
        nearMisses.add(bytes("\uFFFD"));
        line(file, new byte[] {(byte) 0xC0, (byte) 0xAF}, "\n");
        nearMisses.add(bytes("/"));
        line(file, new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, "\n");
        line(file, new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, "\n");
        line(file, bytes("café"), "\r\n");
        nearMisses.add(bytes("café\r"));
        // a line that is only "\r" is empty once the \r is dropped; only the last \r goes
        line(file, bytes(""), "\r\n");
        line(file, bytes(""), "\n");
        line(file, bytes("mid\rdle"), "\r\n");
        line(file, bytes("two-cr\r"), "\r\n");
        nearMisses.add(bytes("two-cr"));
        line(file, bytes(" "), "\n");
        line(file, bytes("\t"), "\n");
        line(file, bytes("key\twith tab"), "\n");
        // raw binary as the last line, without a newline at the end of the file
        line(file, binary(random, 300), "");
        Files.write(dir.resolve("keys.bin"), file.toByteArray());
        assertEquals(18, keys.size());
        assertEquals(3, skippedLines);
    }

    /** Appends a line; records its key (the bytes before the ending), or that it is skipped when empty. */
    private void line(ByteArrayOutputStream file, byte[] key, String ending) throws IOException {
        file.write(key);
        file.write(bytes(ending));
        if (key.length == 0) {
            skippedLines++;
        } else {
            keys.add(key);
        }
    }

    /** Random bytes without \n (which would end the line), not ending in \r (which would be dropped). */
    private static byte[] binary(Random random, int length) {
        byte[] b = new byte[length];
        random.nextBytes(b);
        for (int i = 0; i < length; i++) {
            if (b[i] == '\n') {
                b[i] = 0;
            }
        }
        if (b[length - 1] == '\r') {
            b[length - 1] = 0;
        }
        return b;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** What the jar prints for the keys, each followed by {@code suffix}. */
    private byte[] each(String suffix) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] key : keys) {
            out.write(key);
            out.write(bytes(suffix));
        }
        return out.toByteArray();
    }

    private String describe(byte[] key) {
        return key.length > 32 ? key.length + " bytes starting " + HexFormat.of().formatHex(key, 0, 16)
                : HexFormat.of().formatHex(key);
    }

    @Test
    void everyLineIsAKeyOfItsExactBytesForEveryVerb() throws Exception {
        int n = keys.size();
        String built = run(dir, concat(new String[] {"build", "b.bloom", "--from", "keys.bin"}, SIZE)).assertOk().stdout();
        assertTrue(built.startsWith("built b.bloom from " + n + " keys (" + n + " set a new cell)"), built);

        // create + add reads the same keys as build, into the same cells
        run(dir, concat(new String[] {"create", "a.bloom"}, SIZE)).assertOk();
        assertEquals("added " + n + " keys to a.bloom: " + n + " new, 0 possibly present already\n",
                run(dir, "add", "a.bloom", "--from", "keys.bin").assertOk().stdout());
        assertArrayEquals(cells("b.bloom"), cells("a.bloom"), "add --from and build --from set the same cells");

        // contains echoes each key as it read it: the output is the keys, byte for byte, in order
        assertArrayEquals(each("\tpresent\n"), run(dir, "contains", "b.bloom", "--from", "keys.bin").assertOk().out());
        byte[] file = Files.readAllBytes(dir.resolve("keys.bin"));
        assertArrayEquals(each("\tpresent\n"), run(dir, file, "contains", "a.bloom", "--from", "-").assertOk().out(),
                "stdin reads the same keys");
        assertArrayEquals(new byte[0], run(dir, "contains", "b.bloom", "--from", "keys.bin", "--print", "absent")
                .assertOk().out());
        assertArrayEquals(each("\n"), run(dir, "contains", "b.bloom", "--from", "keys.bin", "--print", "present")
                .assertOk().out());
        assertArrayEquals(each("\t1\n"), run(dir, "count", "b.bloom", "--from", "keys.bin").assertOk().out());

        // dedup: everything is new to a fresh filter, printed once; nothing is new the second time
        assertArrayEquals(each("\n"), run(dir, concat(new String[] {"dedup", "d.bloom", "--from", "keys.bin"}, SIZE))
                .assertOk().out());
        assertArrayEquals(new byte[0], run(dir, "dedup", "d.bloom", "--from", "keys.bin").assertOk().out());
        assertArrayEquals(new byte[0], run(dir, "dedup", "b.bloom", "--from", "keys.bin").assertOk().out());
        assertArrayEquals(cells("b.bloom"), cells("d.bloom"), "dedup set the same cells");

        // the insertion count saw every key (the filters are far from full: no key hid behind another's cells)
        for (String filter : List.of("a.bloom", "b.bloom", "d.bloom")) {
            JsonNode report = new ObjectMapper().readTree(run(dir, "inspect", filter, "--json").assertOk().stdout());
            assertEquals(n, report.get("approximateInsertions").asLong(), filter + ": " + report);
        }

        // The Java API, given the exact line bytes, agrees: it finds every key, and the same keys
        // added through BloomFilter.add(byte[]) set exactly the cells the CLI set.
        try (BloomFilter filter = BloomFilter.open(dir.resolve("b.bloom"), OpenMode.READ_ONLY)) {
            for (byte[] key : keys) {
                assertTrue(filter.mightContain(key), "the API finds " + describe(key));
            }
            for (byte[] miss : nearMisses) {
                assertFalse(filter.mightContain(miss), "a mangled form was stored: " + describe(miss));
            }
            try (BloomFilter java = BloomFilter.create(dir.resolve("java.bloom"), filter.spec())) {
                for (byte[] key : keys) {
                    assertTrue(java.add(key), "new in the Java-built filter: " + describe(key));
                }
            }
        }
        assertArrayEquals(cells("b.bloom"), cells("java.bloom"), "the CLI and the Java API set the same cells");
    }

    @Test
    void aKeyFileWithOnlyEmptyLinesHasNoKeysAndSaysSo() throws Exception {
        // the one skip the contract allows, visible in the count rather than silent
        Files.write(dir.resolve("empty-lines.txt"), bytes("\n\r\n\n"));
        run(dir, concat(new String[] {"create", "e.bloom"}, SIZE)).assertOk();
        assertEquals("added 0 keys to e.bloom: 0 new, 0 possibly present already\n",
                run(dir, "add", "e.bloom", "--from", "empty-lines.txt").assertOk().stdout());
        assertEquals("", run(dir, "contains", "e.bloom", "--from", "empty-lines.txt").assertOk().stdout());
    }

    /** The cell region of a filter file: what keys decide (the header holds a creation time). */
    private byte[] cells(String name) throws IOException {
        byte[] file = Files.readAllBytes(dir.resolve(name));
        return Arrays.copyOfRange(file, FilterFileDescriptor.CELLS_START, file.length);
    }

    private static String[] concat(String[] first, String[] second) {
        String[] all = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }
}
