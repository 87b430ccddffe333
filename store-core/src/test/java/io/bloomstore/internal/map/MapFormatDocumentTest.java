package io.bloomstore.internal.map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.BloomierMap;
import io.bloomstore.KeyHasher;
import io.bloomstore.HashAlgorithm;
import io.bloomstore.BloomSpec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/FORMAT.md, "Bloomier maps: format version 5", against the code: the header table's offsets
 * against {@link MapHeader}'s constants, and the test vector (header bytes, table bytes, and each
 * step of the lookup of three keys of the map and one not in it) recomputed from a real build.
 */
class MapFormatDocumentTest {
    private static final Path FORMAT = Path.of(System.getProperty("user.dir")).getParent().resolve("docs/FORMAT.md");
    private static final long CREATED = 1_700_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void headerTableOffsetsAreTheConstants() throws Exception {
        String section = section("<!-- map-format-test:header-fields -->");
        Matcher row = Pattern.compile("(?m)^\\| (\\d+) \\| (\\d+) \\| \\w+ \\| [^|]+ \\| `(\\w+)` \\|").matcher(section);
        int rows = 0;
        while (row.find()) {
            assertEquals(Integer.parseInt(row.group(1)), MapHeader.class.getField(row.group(3)).getInt(null), row.group(3));
            rows++;
        }
        assertEquals(20, rows);
        Matcher version = Pattern.compile("(?m)^\\| 8 \\| 2 \\| u16 \\| format version \\| `VERSION_OFFSET` \\| `(\\d+)` \\|").matcher(section);
        assertTrue(version.find(), "the header table's format version row");
        assertEquals(MapHeader.FORMAT_VERSION, Integer.parseInt(version.group(1)), "the format version the header table gives");
        Matcher validation = Pattern.compile("(?m)^\\| 4 \\| the u16 at 8 is `(\\d+)`").matcher(section(
                "## Opening a Bloomier map: validation order"));
        assertTrue(validation.find(), "step 4 of opening a map");
        assertEquals(MapHeader.FORMAT_VERSION, Integer.parseInt(validation.group(1)), "the version step 4 of opening a map accepts");
    }

    @Test
    void theVectorIsWhatABuildWrites() throws IOException {
        Path file = dir.resolve("vector.map");
        try (BloomierMap.Builder builder = BloomierMap.builder(file, 4).fingerprintBits(8)) {
            builder.put("alice", 1).put("bob", 2).put("carol", 3).build();
        }
        byte[] bytes = Files.readAllBytes(file);
        MapHeader built = MapHeader.decode(file, bytes, bytes.length);
        MapHeader header = new MapHeader(built.valueBits(), built.fingerprintBits(), built.segmentLength(),
                built.segmentCount(), built.pairs(), built.keySeed(), built.constructionSeed(), built.attempts(), CREATED,
                built.tableChecksum());
        StringBuilder vector = new StringBuilder("header (128 bytes):\n");
        hex(vector, header.encode(), 0, MapHeader.HEADER_LENGTH);
        int packed = (int) ((header.slots() * header.slotBits() + 7) / 8);
        vector.append("table, bytes 4096 to ").append(4096 + packed - 1).append(" (then zero to ")
                .append(header.fileLength()).append("):\n");
        hex(vector, Arrays.copyOfRange(bytes, 4096, 4096 + packed), 0, packed);
        vector.append("key      k                   h                   s0 s1 s2 fp  x     value\n");
        KeyHasher hasher = new KeyHasher(HashAlgorithm.XXH3_64, BloomSpec.DEFAULT_SEED);
        ByteBuffer table = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        try (BloomierMap map = BloomierMap.open(file)) {
            for (String key : new String[] {"alice", "bob", "carol", "dave"}) {
                long k = hasher.hash(key);
                long h = FuseGraph.graphHash(k, header.constructionSeed());
                long s0 = FuseGraph.slot0(h, (long) header.segmentCount() * header.segmentLength());
                long s1 = FuseGraph.slot1(h, s0, header.segmentLength());
                long s2 = FuseGraph.slot2(h, s0, header.segmentLength());
                long x = slot(table, s0) ^ slot(table, s1) ^ slot(table, s2);
                long fp = FuseGraph.fingerprint(k, 8);
                long value = map.get(key);
                assertEquals(x >>> 4 == fp ? x & 15 : BloomierMap.ABSENT, value, key);
                vector.append(String.format("%-8s 0x%016x  0x%016x  %-2d %-2d %-2d %-3s %-5s %s%n", "\"" + key + "\"", k, h, s0,
                        s1, s2, String.format("%02x", fp), String.format("%03x", x), value < 0 ? "absent" : Long.toString(value)));
            }
        }
        String expected = vector.toString();
        String section = section("<!-- map-format-test:vector -->");
        assertTrue(section.contains("```\n" + expected + "```"), "docs/FORMAT.md's map vector differs; the build gives:\n" + expected);
    }

    private static long slot(ByteBuffer file, long index) {
        long bit = index * 12;
        return (file.getLong((int) (4096 + (bit >>> 3))) >>> (bit & 7)) & 0xFFF;
    }

    private static void hex(StringBuilder out, byte[] bytes, int from, int to) {
        for (int line = from; line < to; line += 16) {
            out.append(String.format("%04x ", line - from));
            for (int i = line; i < Math.min(to, line + 16); i++) {
                out.append(String.format(" %02x", bytes[i]));
            }
            out.append('\n');
        }
    }

    private static String section(String marker) throws IOException {
        String doc = Files.readString(FORMAT);
        int at = doc.indexOf(marker);
        assertTrue(at >= 0, marker + " missing from " + FORMAT);
        int end = doc.indexOf("\n#", at);
        return doc.substring(at, end < 0 ? doc.length() : end);
    }
}
