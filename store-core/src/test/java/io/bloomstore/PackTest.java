package io.bloomstore;

import io.bloomstore.reliability.PackFrames;

import static io.bloomstore.internal.format.FilterFixtures.assertNoTemporaryFiles;
import static io.bloomstore.internal.format.FilterFixtures.filterWithKeys;
import static org.junit.jupiter.api.Assertions.*;

import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.internal.format.FilterFixtures;
import io.bloomstore.InvalidFilterFileException.Problem;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import net.jpountz.lz4.LZ4FrameInputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PackTest {
    private static final BloomSpec COUNTING = BloomSpec.builder().expectedKeys(50_000).fpp(0.01).counterBits(4)
            .layout(Layout.BLOCKED).build();

    @TempDir
    Path dir;

    private Path original;
    private byte[] originalBytes;
    private byte[] packed;

    @BeforeEach
    void packAFilter() throws IOException {
        original = filterWithKeys(dir.resolve("original.bloom"), COUNTING, LongStream.range(0, 20_000));
        try (BloomFilter filter = BloomFilter.open(original, OpenMode.READ_WRITE)) {
            filter.seal(); // so the state area holds something to carry over
        }
        originalBytes = Files.readAllBytes(original);
        packed = pack(original);
    }

    private static byte[] pack(Path file) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(Files.size(file), Pack.pack(file, out));
        return out.toByteArray();
    }

    private Path unpack(byte[] stream, Path target, boolean replace) throws IOException {
        Pack.unpack(new ByteArrayInputStream(stream), "test.pack", target,
                replace ? new CreateOption[] {CreateOption.REPLACE_EXISTING} : new CreateOption[0]);
        return target;
    }

    @Test
    void roundTripThroughStreamsRestoresTheFileBitForBit() throws Exception {
        Path restored = unpack(packed, dir.resolve("restored.bloom"), false);
        assertArrayEquals(originalBytes, Files.readAllBytes(restored));
        try (BloomFilter filter = BloomFilter.open(restored, OpenMode.READ_ONLY)) {
            assertTrue(filter.isSealed(), "the state area travels too");
            assertEquals(CellsCheck.INTACT, filter.verify());
            assertTrue(filter.count(3L) >= 1, "and the counters");
        }
        assertTrue(packed.length < originalBytes.length, "compressed: " + packed.length + " of " + originalBytes.length);
        assertNoTemporaryFiles(dir);
    }

    @Test
    void roundTripThroughFilesWithProgress() throws Exception {
        Path packFile = dir.resolve("filter.pack");
        List<Long> packProgress = new ArrayList<>();
        try (OutputStream out = Files.newOutputStream(packFile)) {
            Pack.pack(original, out, packProgress::add);
        }
        List<Long> unpackProgress = new ArrayList<>();
        Path restored = dir.resolve("restored.bloom");
        try (InputStream in = Files.newInputStream(packFile)) {
            assertEquals(COUNTING, Pack.unpack(in, packFile.toString(), restored, unpackProgress::add)
                    .info().orElseThrow().spec());
        }
        assertArrayEquals(originalBytes, Files.readAllBytes(restored));
        assertEquals(originalBytes.length, packProgress.get(packProgress.size() - 1));
        assertEquals(originalBytes.length, unpackProgress.get(unpackProgress.size() - 1));
    }

    /** FORMAT.md's pack stream: one LZ4 frame holding magic, version, reserved, length, then the file. */
    @Test
    void streamIsAnLz4FrameOfPreambleAndFile() throws Exception {
        assertArrayEquals(new byte[] {0x04, 0x22, 0x4d, 0x18}, Arrays.copyOf(packed, 4), "LZ4 frame magic");
        byte[] content;
        try (InputStream in = new LZ4FrameInputStream(new ByteArrayInputStream(packed))) {
            content = in.readAllBytes();
        }
        ByteBuffer preamble = ByteBuffer.wrap(content).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals("BLMSPACK", new String(content, 0, 8, StandardCharsets.US_ASCII));
        assertEquals(Pack.PACK_MAGIC, preamble.getLong(0));
        assertEquals(Pack.PACK_VERSION, preamble.getInt(8));
        assertEquals(0, preamble.getInt(12));
        assertEquals(originalBytes.length, preamble.getLong(16));
        assertArrayEquals(originalBytes, Arrays.copyOfRange(content, 24, content.length));
    }

    /** A damage to the stream and the problem unpacking it must report. */
    record Damage(String name, UnaryOperator<byte[]> spoil, Problem problem) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Damage> damages() {
        return Stream.of(
                new Damage("empty", p -> new byte[0], Problem.BAD_PACK),
                new Damage("cut inside the frame header", p -> Arrays.copyOf(p, 5), Problem.BAD_PACK),
                new Damage("cut after the first block's size", p -> Arrays.copyOf(p, 23), Problem.BAD_PACK),
                new Damage("cut in the middle", p -> Arrays.copyOf(p, p.length / 2), Problem.BAD_PACK),
                new Damage("last byte missing", p -> Arrays.copyOf(p, p.length - 1), Problem.BAD_PACK),
                new Damage("end mark and checksum missing", p -> Arrays.copyOf(p, p.length - 8), Problem.BAD_PACK),
                new Damage("a byte flipped in the middle", p -> flip(p, p.length / 2), Problem.BAD_PACK),
                new Damage("a byte flipped in the content checksum", p -> flip(p, p.length - 2), Problem.BAD_PACK),
                new Damage("garbage after the frame", p -> Arrays.copyOf(p, p.length + 10), Problem.BAD_PACK),
                new Damage("a second pack after the first", p -> concat(p, p), Problem.BAD_PACK),
                new Damage("not LZ4: random bytes", p -> random(p.length), Problem.BAD_PACK),
                new Damage("not LZ4: text", p -> "hello\n".repeat(500).getBytes(StandardCharsets.UTF_8), Problem.BAD_PACK),
                new Damage("not LZ4: a raw filter file", p -> Arrays.copyOfRange(unframed(p), 24, unframed(p).length),
                        Problem.BAD_PACK),
                new Damage("LZ4, but not a pack", p -> frame(content(p, c -> c.putLong(0, 0x1234))), Problem.BAD_PACK),
                new Damage("a newer pack version", p -> frame(content(p, c -> c.putInt(8, 2))), Problem.UNSUPPORTED_VERSION),
                new Damage("a damaged filter header inside", p -> frame(content(p, c -> c.put(24 + 100, (byte) 1))),
                        Problem.HEADER_CHECKSUM),
                new Damage("announces more bytes than the header describes",
                        p -> frame(content(p, c -> c.putLong(16, c.getLong(16) + 4096))), Problem.LENGTH_MISMATCH),
                new Damage("the file cut short inside the frame",
                        p -> frame(Arrays.copyOf(unframed(p), unframed(p).length - 4096)), Problem.BAD_PACK),
                new Damage("data after the file inside the frame",
                        p -> frame(Arrays.copyOf(unframed(p), unframed(p).length + 1)), Problem.BAD_PACK));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("damages")
    void damagedStreamIsRefusedAndLeavesNoFile(Damage damage) throws Exception {
        assertRefused(damage.spoil().apply(packed), damage.problem());
    }

    /** Every byte of a pack, flipped: the frame's checksums must catch each one. */
    @Test
    void everyFlippedByteIsCaught() throws Exception {
        byte[] small = pack(filterWithKeys(dir.resolve("small.bloom"), FilterFixtures.SMALL, LongStream.range(0, 20)));
        for (int i = 0; i < small.length; i++) {
            assertRefused(flip(small, i), null);
        }
    }

    /**
     * Unpacking must refuse with {@code expected} (or, when null, with some {@link InvalidFilterFileException}),
     * leave no file at a new target, leave an existing target as it was, and leave no temporary file.
     */
    private void assertRefused(byte[] stream, Problem expected) throws IOException {
        Path target = dir.resolve("restored.bloom");
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class, () -> unpack(stream, target, false));
        if (expected != null) {
            assertEquals(expected, e.problem(), e.getMessage());
        }
        assertTrue(e.getMessage().startsWith("test.pack"), "names the source: " + e.getMessage());
        assertFalse(Files.exists(target));

        Path existing = Files.write(dir.resolve("existing.bloom"), new byte[] {42});
        assertThrows(InvalidFilterFileException.class, () -> unpack(stream, existing, true));
        assertArrayEquals(new byte[] {42}, Files.readAllBytes(existing), "a failed unpack does not replace");
        Files.delete(existing);
        assertNoTemporaryFiles(dir);
    }

    @Test
    void existingTargetIsKeptUnlessReplacing() throws Exception {
        Path target = Files.write(dir.resolve("target.bloom"), new byte[] {7});
        assertThrows(FileAlreadyExistsException.class, () -> unpack(packed, target, false));
        assertArrayEquals(new byte[] {7}, Files.readAllBytes(target));
        unpack(packed, target, true);
        assertArrayEquals(originalBytes, Files.readAllBytes(target));
    }

    @Test
    void packingADamagedFileIsRefused() throws Exception {
        byte[] damaged = originalBytes.clone();
        damaged[FilterFileDescriptor.SEED_OFFSET] ^= 1;
        Path file = Files.write(dir.resolve("damaged.bloom"), damaged);
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class,
                () -> Pack.pack(file, new ByteArrayOutputStream()));
        assertEquals(Problem.HEADER_CHECKSUM, e.problem());
    }

    // ------------------------------------------------------------------ stream surgery

    private static byte[] flip(byte[] bytes, int at) {
        byte[] copy = bytes.clone();
        copy[at] ^= 0x10;
        return copy;
    }

    private static byte[] random(int length) {
        byte[] bytes = new byte[length];
        new Random(length).nextBytes(bytes);
        return bytes;
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    private static byte[] unframed(byte[] pack) {
        return content(pack, c -> { });
    }

    /** The decompressed content of a pack, edited: for well-framed packs with wrong insides. */
    private static byte[] content(byte[] pack, java.util.function.Consumer<ByteBuffer> edit) {
        try (InputStream in = new LZ4FrameInputStream(new ByteArrayInputStream(pack))) {
            byte[] content = in.readAllBytes();
            edit.accept(ByteBuffer.wrap(content).order(ByteOrder.LITTLE_ENDIAN));
            return content;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static byte[] frame(byte[] content) {
        return PackFrames.frame(content);
    }
}
