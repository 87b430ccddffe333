package io.bloomstore;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.internal.map.MapHeader;
import io.bloomstore.testing.ChildJvm;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Bloomier map on real mapped files: exact for its keys, absent at 2^−F for others, refusals, another process. */
class BloomierMapTest {
    @TempDir
    Path dir;

    /** The value of key i in the maps built here: any function of the key, all of R bits. */
    private static long valueOf(long key, int valueBits) {
        return (key * 0x9E3779B97F4A7C15L) >>> (64 - valueBits);
    }

    private Path buildLongs(String name, long pairs, int valueBits, int fingerprintBits) throws IOException {
        Path file = dir.resolve(name);
        try (BloomierMap.Builder builder = BloomierMap.builder(file, valueBits).fingerprintBits(fingerprintBits)) {
            for (long key = 0; key < pairs; key++) {
                builder.put(key, valueOf(key, valueBits));
            }
            assertEquals(pairs, builder.build());
        }
        return file;
    }

    @Test
    void everyKeyOfAMillionGetsItsValueAndOtherKeysReadAbsentAtTwoToTheMinusF() throws IOException {
        int valueBits = 10;
        int fingerprintBits = 8;
        long pairs = 1_000_000;
        Path file = buildLongs("million.map", pairs, valueBits, fingerprintBits);
        try (BloomierMap map = BloomierMap.open(file)) {
            assertEquals(pairs, map.shape().pairs());
            for (long key = 0; key < pairs; key++) {
                long value = map.get(key);
                if (value != valueOf(key, valueBits)) {
                    throw new AssertionError("key " + key + ": " + value + ", not " + valueOf(key, valueBits));
                }
            }
            long queries = 4_000_000;
            long wrong = 0;
            for (long key = pairs; key < pairs + queries; key++) {
                wrong += map.get(key) == BloomierMap.ABSENT ? 0 : 1;
            }
            double p = map.shape().absentKeyErrorRate();
            assertEquals(1.0 / 256, p);
            double expected = queries * p;
            double sd = Math.sqrt(queries * p * (1 - p));
            assertTrue(Math.abs(wrong - expected) < 5 * sd, wrong + " of " + queries + " absent keys read a value; expected "
                    + expected + " ± " + 5 * sd);
            // the fuse graph's size: about 1.13 slots a key at a million keys, (R + F) bits each
            assertTrue(map.shape().bitsPerKey() < 1.15 * (valueBits + fingerprintBits), "bits a key " + map.shape().bitsPerKey());
            map.verify();
        }
    }

    @Test
    void keysFromLinesAreTheSameKeysAsStrings() throws IOException {
        Path file = dir.resolve("lines.map");
        String lines = "alice\t1\r\nbob\t2\n\nkey\twith tab\t3\ncarol\t0";
        try (BloomierMap.Builder builder = BloomierMap.builder(file, 4).fpp(1e-3)) {
            builder.putLines(new ByteArrayInputStream(lines.getBytes(StandardCharsets.UTF_8)), "pairs", -1);
            assertEquals(4, builder.build());
        }
        try (BloomierMap map = BloomierMap.open(file)) {
            assertEquals(10, map.shape().fingerprintBits());
            assertEquals(1, map.get("alice"));
            assertEquals(2, map.get("bob".getBytes(StandardCharsets.UTF_8)));
            assertEquals(3, map.get("key\twith tab"));
            assertEquals(0, map.get("carol"));
        }
    }

    @Test
    void aKeyWithTwoValuesIsAnErrorNamingBothLinesAndTheSamePairTwiceIsStoredOnce() throws IOException {
        Path file = dir.resolve("dup.map");
        try (BloomierMap.Builder builder = BloomierMap.builder(file, 8)) {
            builder.putLines(new ByteArrayInputStream("a\t1\nb\t2\na\t1\nc\t3\nb\t5\n".getBytes(StandardCharsets.UTF_8)), "pairs", -1);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, builder::build);
            assertEquals("pairs line 5: its key was given another value at line 2 (5, not 2); a map holds one value a key: remove one "
                    + "of the two lines", e.getMessage());
        }
        assertFalse(Files.exists(file));
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "temporaries left behind");
        }
        try (BloomierMap.Builder builder = BloomierMap.builder(file, 8)) {
            builder.put("a", 1).put("b", 2).put("a", 1);
            assertEquals(2, builder.build());
        }
        try (BloomierMap map = BloomierMap.open(file)) {
            assertEquals(2, map.shape().pairs());
            assertEquals(1, map.get("a"));
        }
    }

    @Test
    void badLinesAreRefusedNamingTheLine() throws IOException {
        Path file = dir.resolve("bad.map");
        for (String[] bad : new String[][] {
            {"a\t1\nnotab\n", "pairs line 2: no TAB; each line is KEY<TAB>VALUE"},
            {"\t1\n", "pairs line 1: empty key before the TAB"},
            {"a\t256\n", "pairs line 1: value \"256\" is not a whole number from 0 to 255 (8 value bits); give more --value-bits or fix the line"},
            {"a\t-1\n", "pairs line 1: value \"-1\" is not a whole number from 0 to 255 (8 value bits); give more --value-bits or fix the line"},
        }) {
            try (BloomierMap.Builder builder = BloomierMap.builder(file, 8)) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> builder.putLines(
                        new ByteArrayInputStream(bad[0].getBytes(StandardCharsets.UTF_8)), "pairs", -1));
                assertEquals(bad[1], e.getMessage());
            }
        }
    }

    @Test
    void aDamagedMapIsRefusedAndAFilterIsNotAMap() throws IOException {
        Path file = buildLongs("damaged.map", 10_000, 6, 8);
        byte[] intact = Files.readAllBytes(file);

        flip(file, MapHeader.TABLE_START + 100);
        try (BloomierMap map = BloomierMap.open(file)) { // the header is intact: open checks only it
            assertEquals(Problem.CELLS_CHECKSUM, assertThrows(InvalidFilterFileException.class, map::verify).problem());
        }
        InvalidFilterFileException packed = assertThrows(InvalidFilterFileException.class,
                () -> Pack.pack(file, new ByteArrayOutputStream()));
        assertEquals(Problem.CELLS_CHECKSUM, packed.problem());

        Files.write(file, intact);
        flip(file, MapHeader.PAIRS_OFFSET);
        assertEquals(Problem.HEADER_CHECKSUM, assertThrows(InvalidFilterFileException.class, () -> BloomierMap.open(file)).problem());

        Files.write(file, intact);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(intact.length - 4096);
        }
        assertEquals(Problem.LENGTH_MISMATCH, assertThrows(InvalidFilterFileException.class, () -> BloomierMap.open(file)).problem());

        Files.write(file, intact);
        InvalidFilterFileException asFilter = assertThrows(InvalidFilterFileException.class,
                () -> MembershipFilter.open(file, OpenMode.READ_ONLY, java.time.Clock.systemUTC()));
        assertEquals(file + ": is a Bloomier map (format version 5), not a filter: read it with 'bloomstore get' (BloomierMap in Java)",
                asFilter.getMessage());

        Path filter = dir.resolve("plain.bloom");
        BloomFilter.create(filter, BloomSpec.forExpected(100, 0.01)).close();
        InvalidFilterFileException asMap = assertThrows(InvalidFilterFileException.class, () -> BloomierMap.open(filter));
        assertEquals(Problem.UNSUPPORTED_VERSION, asMap.problem());
        try (StoredFile a = StoredFile.open(filter); StoredFile b = StoredFile.open(file)) {
            assertEquals(FilterKind.FIXED, a.kind());
            assertEquals(FilterKind.MAP, b.kind());
        }
    }

    @Test
    void aReaderThatPredatesMapsRefusesOneAndCheckpointRefusesIt() throws IOException {
        Path file = buildLongs("old-reader.map", 100, 4, 8);
        byte[] bytes = Files.readAllBytes(file);
        // the fixed filters' header check, unchanged since version 1: what a reader before maps runs on any file
        InvalidFilterFileException old = assertThrows(InvalidFilterFileException.class,
                () -> io.bloomstore.internal.format.FilterHeader.decode(file, bytes, bytes.length));
        assertEquals(Problem.UNSUPPORTED_VERSION, old.problem());
        assertEquals(file + ": format version 5 is not supported (this bloomstore reads versions 1, 3 and 4); use the bloomstore "
                + "release that wrote it", old.getMessage());
        IllegalArgumentException copy = assertThrows(IllegalArgumentException.class,
                () -> Checkpoint.write(file, dir.resolve("copy.map")));
        assertTrue(copy.getMessage().contains("is a Bloomier map, which never changes once built"), copy.getMessage());
    }

    private static void flip(Path file, long offset) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            channel.read(b, offset);
            b.put(0, (byte) (b.get(0) ^ 0x10));
            channel.write(b.rewind(), offset);
        }
    }

    @Test
    void packAndUnpackRestoreTheMapBitForBit() throws IOException {
        Path file = buildLongs("packed.map", 50_000, 12, 10);
        ByteArrayOutputStream pack = new ByteArrayOutputStream();
        assertEquals(Files.size(file), Pack.pack(file, pack));
        Path restored = dir.resolve("restored.map");
        FilterFileSummary summary = Pack.unpack(new ByteArrayInputStream(pack.toByteArray()), "pack", restored);
        assertEquals(FilterKind.MAP, summary.kind());
        assertArrayEquals(Files.readAllBytes(file), Files.readAllBytes(restored));
        try (BloomierMap map = BloomierMap.open(restored)) {
            map.verify();
            assertEquals(valueOf(49_999, 12), map.get(49_999L));
        }
    }

    @Test
    void anEmptyMapReadsAbsent() throws IOException {
        Path file = dir.resolve("empty.map");
        try (BloomierMap.Builder builder = BloomierMap.builder(file, 3).fingerprintBits(20)) {
            assertEquals(0, builder.build());
        }
        try (BloomierMap map = BloomierMap.open(file)) {
            map.verify();
            assertEquals(BloomierMap.ABSENT, map.get("anything"));
        }
    }

    @Test
    void anotherProcessReadsTheMap() throws IOException {
        Path file = buildLongs("shared.map", 100_000, 16, 12);
        try (ChildJvm child = ChildJvm.start(MapReaderProcess.class, file.toString())) {
            for (long key : new long[] {0, 1, 99_999, 31_337}) {
                child.send(Long.toString(key));
                child.expectLine(key + "\t" + valueOf(key, 16), Duration.ofSeconds(120));
            }
            child.send("100000");
            child.expectLine("100000\tabsent", Duration.ofSeconds(120));
            child.send("");
            child.awaitSuccess(Duration.ofSeconds(120));
        }
    }

    /** A second JVM: opens the map, answers long keys from stdin as KEY TAB VALUE (or absent) until an empty line. */
    public static final class MapReaderProcess {
        public static void main(String[] args) throws IOException {
            try (BloomierMap map = BloomierMap.open(Path.of(args[0]));
                    java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null && !line.isEmpty(); ) {
                    long value = map.get(Long.parseLong(line));
                    System.out.println(line + "\t" + (value == BloomierMap.ABSENT ? "absent" : Long.toString(value)));
                    System.out.flush();
                }
            }
        }
    }
}
