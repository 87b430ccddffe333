package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.filesIn;
import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code build --map}, {@code get}, and inspect, verify, pack and unpack of a Bloomier map, through the real jar. */
class BloomierMapIT {
    private static final int PAIRS = 20_000;

    @TempDir
    Path dir;

    @BeforeEach
    void writePairs() throws Exception {
        StringBuilder pairs = new StringBuilder();
        for (int i = 0; i < PAIRS; i++) {
            pairs.append("user-").append(i).append('\t').append(i % 16).append('\n');
        }
        Files.writeString(dir.resolve("shards.tsv"), pairs, StandardCharsets.UTF_8);
    }

    @Test
    void buildGetInspectVerifyPackUnpack() throws Exception {
        String built = run(dir, "build", "shards.map", "--map", "--from", "shards.tsv", "--value-bits", "4", "--fpp", "1e-3")
                .assertOk().stdout();
        assertTrue(built.startsWith("built shards.map from 20,000 pairs: Bloomier map, 4 value bits + 10 fingerprint bits a slot"),
                built);
        JarProcess.Result got = run(dir, "get", "shards.map", "user-0", "user-17", "user-19999", "nobody");
        assertEquals(1, got.exit(), "one key is absent: " + got.err());
        assertEquals("user-0\t0\nuser-17\t1\nuser-19999\t15\nnobody\tabsent\n", got.stdout());
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < PAIRS; i += 997) {
            expected.append("user-").append(i).append('\t').append(i % 16).append('\n');
        }
        Files.writeString(dir.resolve("some.txt"), expected.toString().replaceAll("\t[0-9]+", ""));
        assertEquals(expected.toString(), run(dir, "get", "shards.map", "--from", "some.txt").assertOk().stdout());

        String text = run(dir, "inspect", "shards.map").assertOk().stdout();
        assertTrue(text.contains("pairs           20,000"), text);
        String json = run(dir, "inspect", "shards.map", "--json").assertOk().stdout();
        assertTrue(json.contains("\"pairs\" : 20000") && json.contains("\"valueBits\" : 4")
                && json.contains("\"fingerprintBits\" : 10") && json.contains("\"absentKeyErrorRate\" : 9.765625E-4"), json);
        assertEquals("shards.map: ok (Bloomier map of 20,000 pairs: header, length and table checksum)\n",
                run(dir, "verify", "shards.map").assertOk().stdout());

        run(dir, "pack", "shards.map", "shards.pack").assertOk();
        String unpacked = run(dir, "unpack", "shards.pack", "copy.map").assertOk().stdout();
        assertTrue(unpacked.startsWith("unpacked shards.pack into copy.map: Bloomier map"), unpacked);
        assertArrayEquals(Files.readAllBytes(dir.resolve("shards.map")), Files.readAllBytes(dir.resolve("copy.map")));

        String asFilter = run(dir, "contains", "shards.map", "user-0").assertError(2).err();
        assertEquals("bloomstore: shards.map: is a Bloomier map (format version 5), not a filter: read it with 'bloomstore get'"
                + " (BloomierMap in Java)\n", asFilter);
        String exists = run(dir, "build", "shards.map", "--map", "--from", "shards.tsv", "--value-bits", "4").assertError(2).err();
        assertTrue(exists.contains("shards.map"), exists);
        assertEquals(List.of("copy.map", "shards.map", "shards.pack", "shards.tsv", "some.txt"), filesIn(dir));
    }

    @Test
    void aKeyWithTwoValuesIsRefusedNamingTheLinesAndLeavesNothing() throws Exception {
        byte[] input = "a\t1\nb\t2\n\na\t1\nb\t3\n".getBytes(StandardCharsets.UTF_8);
        String err = run(dir, input, "build", "dup.map", "--map", "--from", "-", "--value-bits", "2").assertError(2).err();
        assertEquals("bloomstore: stdin line 5: its key was given another value at line 2 (3, not 2); a map holds one value a key:"
                + " remove one of the two lines\n", err);
        assertEquals(List.of("shards.tsv"), filesIn(dir));
        String noBits = run(dir, "build", "x.map", "--map", "--from", "shards.tsv").assertError(2).err();
        assertTrue(noBits.contains("--value-bits"), noBits);
    }

    @Test
    void aDamagedTableFailsVerify() throws Exception {
        run(dir, "build", "shards.map", "--map", "--from", "shards.tsv", "--value-bits", "4").assertOk();
        try (FileChannel channel = FileChannel.open(dir.resolve("shards.map"), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            channel.read(b, 5000);
            b.put(0, (byte) (b.get(0) ^ 1));
            channel.write(b.rewind(), 5000);
        }
        String err = run(dir, "verify", "shards.map").assertError(1).err();
        assertTrue(err.contains("table is damaged"), err);
        assertEquals(err, run(dir, "pack", "shards.map", "shards.pack").assertError(2).err()); // as for a damaged filter
        assertEquals(List.of("shards.map", "shards.tsv"), filesIn(dir));
    }
}
