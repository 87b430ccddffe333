package io.bloomstore;

import static io.bloomstore.internal.format.FilterFixtures.filterWithKeys;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.InvalidFilterFileException.Problem;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import net.jpountz.lz4.LZ4FrameOutputStream.BLOCKSIZE;
import net.jpountz.lz4.LZ4FrameOutputStream.FLG.Bits;
import net.jpountz.xxhash.XXHashFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/FORMAT.md, "Pack stream": what an unpacker must accept of the LZ4 frame (any block size,
 * each checksum and the content size present or not) and what it refuses (linked blocks). The
 * frames are made by re-framing the content of a real pack.
 */
class PackFrameVariantsTest {
    @TempDir
    static Path dir;

    private static byte[] fileBytes;
    private static byte[] content;

    @BeforeAll
    static void packAFilter() throws IOException {
        // 600 KiB of cells: several blocks of every size below 4 MiB
        Path file = filterWithKeys(dir.resolve("f.bloom"), BloomSpec.forExpected(500_000, 0.01), LongStream.range(0, 100_000));
        fileBytes = Files.readAllBytes(file);
        ByteArrayOutputStream packed = new ByteArrayOutputStream();
        Pack.pack(file, packed);
        try (LZ4FrameInputStream in = new LZ4FrameInputStream(new ByteArrayInputStream(packed.toByteArray()))) {
            content = in.readAllBytes();
        }
    }

    static Stream<Arguments> acceptedFrames() {
        List<Arguments> frames = new ArrayList<>();
        for (BLOCKSIZE size : BLOCKSIZE.values()) {
            frames.add(Arguments.of(size, new Bits[] {Bits.BLOCK_INDEPENDENCE}));
            frames.add(Arguments.of(size, new Bits[] {Bits.BLOCK_INDEPENDENCE, Bits.BLOCK_CHECKSUM}));
            frames.add(Arguments.of(size, new Bits[] {Bits.BLOCK_INDEPENDENCE, Bits.CONTENT_CHECKSUM}));
            frames.add(Arguments.of(size, new Bits[] {Bits.BLOCK_INDEPENDENCE, Bits.CONTENT_SIZE}));
        }
        return frames.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("acceptedFrames")
    void anyBlockSizeWithOrWithoutEachChecksumAndTheContentSizeUnpacksBitForBit(BLOCKSIZE size, Bits[] bits)
            throws IOException {
        Path target = dir.resolve("restored-" + size + "-" + bits.length + "-" + bits[bits.length - 1] + ".bloom");
        Pack.unpack(new ByteArrayInputStream(frame(size, bits)), "variant", target);
        assertArrayEquals(fileBytes, Files.readAllBytes(target));
    }

    @ParameterizedTest
    @MethodSource("linkedFrames")
    void linkedBlocksAreRefusedAsABadPackAndNothingIsWritten(BLOCKSIZE size) throws IOException {
        Path target = dir.resolve("linked-" + size + ".bloom");
        InvalidFilterFileException refused = assertThrows(InvalidFilterFileException.class, () -> Pack.unpack(new ByteArrayInputStream(linked(frame(size, Bits.BLOCK_INDEPENDENCE, Bits.BLOCK_CHECKSUM))), "linked",
                target));
        assertEquals(Problem.BAD_PACK, refused.problem());
        assertTrue(refused.getMessage().contains("unsupported frame descriptor"), refused.getMessage());
        assertFalse(Files.exists(target));
    }

    static Stream<BLOCKSIZE> linkedFrames() {
        return Stream.of(BLOCKSIZE.SIZE_64KB, BLOCKSIZE.SIZE_256KB);
    }

    /**
     * The same frame with the block-independence bit (bit 5 of FLG, byte 4) cleared and the
     * descriptor's checksum byte (byte 6: the second byte of XXH32 of FLG and BD, seed 0) redone:
     * what {@code lz4 -BD} writes. lz4-java cannot write such a frame itself.
     */
    private static byte[] linked(byte[] frame) {
        frame[4] &= ~(1 << 5);
        frame[6] = (byte) (XXHashFactory.fastestInstance().hash32().hash(frame, 4, 2, 0) >>> 8);
        return frame;
    }

    private static byte[] frame(BLOCKSIZE size, Bits... bits) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        boolean withSize = List.of(bits).contains(Bits.CONTENT_SIZE);
        try (LZ4FrameOutputStream lz4 = withSize
                ? new LZ4FrameOutputStream(out, size, content.length, bits)
                : new LZ4FrameOutputStream(out, size, bits)) {
            lz4.write(content);
        }
        return out.toByteArray();
    }
}
