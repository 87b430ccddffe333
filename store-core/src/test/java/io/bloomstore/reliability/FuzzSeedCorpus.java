package io.bloomstore.reliability;

import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.internal.format.FilterHeader;
import io.bloomstore.Pack;
import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Writes the committed seed corpora of {@link HeaderFuzzTest} and {@link PackFuzzTest}: valid
 * inputs of each kind plus a few damaged ones, each a step away from a different check. Run from
 * {@code store-core/} when the formats change:
 *
 * <pre>java -cp target/test-classes:target/classes:$(deps) io.bloomstore.reliability.FuzzSeedCorpus src/test/resources</pre>
 */
public final class FuzzSeedCorpus {
    private static final BloomSpec PLAIN = BloomSpec.builder().cells(1 << 16).hashes(5).build();
    private static final BloomSpec COUNTING_BLOCKED = BloomSpec.builder().cells(1 << 12).hashes(6).counterBits(8)
            .layout(Layout.BLOCKED).seed(7).build();
    private static final long CREATED = 1_700_000_000_000L;

    private FuzzSeedCorpus() {
    }

    public static void main(String[] args) throws IOException {
        Path resources = Path.of(args[0], "io", "bloomstore", "reliability");
        writeHeaderSeeds(resources.resolve("HeaderFuzzTestInputs").resolve("decodeAcceptsAConsistentHeaderOrRefusesWithAClearProblem"));
        writePackSeeds(resources.resolve("PackFuzzTestInputs").resolve("unpackRestoresAFilterOrRefusesAndLeavesNothing"));
    }

    private static void writeHeaderSeeds(Path dir) throws IOException {
        Files.createDirectories(dir);
        byte[] plain = FilterHeader.unbound(PLAIN, CREATED, false).encode();
        byte[] counting = FilterHeader.unbound(COUNTING_BLOCKED, CREATED, true).encode();
        long plainLength = FilterFileDescriptor.CELLS_START + PLAIN.cellBytes();
        int fromField = HeaderFuzzTest.HeaderFuzzInput.LENGTH_FROM_FIELD;
        int explicit = HeaderFuzzTest.HeaderFuzzInput.LENGTH_EXPLICIT;
        int resign = HeaderFuzzTest.HeaderFuzzInput.RESIGN;
        write(dir, "valid-plain", HeaderFuzzTest.HeaderFuzzInput.encode(fromField, 0, plain));
        write(dir, "valid-plain-explicit-length", HeaderFuzzTest.HeaderFuzzInput.encode(explicit, plainLength, plain));
        write(dir, "valid-counting-blocked-sparse", HeaderFuzzTest.HeaderFuzzInput.encode(fromField | resign, 0, counting));
        write(dir, "length-one-page-short", HeaderFuzzTest.HeaderFuzzInput.encode(explicit, plainLength - 4096, plain));
        write(dir, "truncated-header", HeaderFuzzTest.HeaderFuzzInput.encode(0, 0, Arrays.copyOf(plain, 64)));
        write(dir, "crc-mismatch", HeaderFuzzTest.HeaderFuzzInput.encode(fromField, 0, flip(plain, FilterFileDescriptor.SEED_OFFSET)));
        write(dir, "bad-magic", HeaderFuzzTest.HeaderFuzzInput.encode(fromField, 0, flip(plain, FilterFileDescriptor.MAGIC_OFFSET)));
        write(dir, "resigned-zero-hashes", HeaderFuzzTest.HeaderFuzzInput.encode(fromField | resign, 0,
                withInt(plain, FilterFileDescriptor.HASHES_OFFSET, 0)));
        write(dir, "resigned-version-2", HeaderFuzzTest.HeaderFuzzInput.encode(fromField | resign, 0,
                withShort(plain, FilterFileDescriptor.VERSION_OFFSET, 2)));
        write(dir, "resigned-huge-cells", HeaderFuzzTest.HeaderFuzzInput.encode(fromField | resign, 0,
                withLong(plain, FilterFileDescriptor.CELL_COUNT_OFFSET, BloomSpec.MAX_CELLS)));
    }

    private static void writePackSeeds(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path scratch = Files.createTempDirectory("seeds");
        Path filter = KnownKeyFilters.withKeys(scratch.resolve("small.bloom"), PLAIN, 0, 100);
        byte[] file = Files.readAllBytes(filter);
        byte[] pack = KnownKeyFilters.pack(filter);
        Files.delete(filter);
        Files.delete(scratch);
        write(dir, "valid-pack", PackFuzzTest.input(false, pack));
        write(dir, "pack-cut-in-half", PackFuzzTest.input(false, Arrays.copyOf(pack, pack.length / 2)));
        write(dir, "pack-cut-after-frame-header", PackFuzzTest.input(false, Arrays.copyOf(pack, 10)));
        write(dir, "pack-flipped-byte", PackFuzzTest.input(false, flip(pack, pack.length / 2)));
        write(dir, "framed-valid-content", PackFuzzTest.input(true, PackFrames.content(file)));
        write(dir, "framed-content-cut-short", PackFuzzTest.input(true, Arrays.copyOf(PackFrames.content(file), 24 + 4096 + 100)));
        write(dir, "framed-bad-magic", PackFuzzTest.input(true, PackFrames.content(1, Pack.PACK_VERSION, file.length, file)));
        write(dir, "framed-length-mismatch", PackFuzzTest.input(true,
                PackFrames.content(Pack.PACK_MAGIC, Pack.PACK_VERSION, file.length + 4096, file)));
    }

    private static void write(Path dir, String name, byte[] bytes) throws IOException {
        Files.write(dir.resolve(name), bytes);
    }

    private static byte[] flip(byte[] bytes, int at) {
        byte[] copy = bytes.clone();
        copy[at] ^= 0x10;
        return copy;
    }

    private static byte[] withInt(byte[] bytes, int at, int value) {
        byte[] copy = bytes.clone();
        ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN).putInt(at, value);
        return copy;
    }

    private static byte[] withShort(byte[] bytes, int at, int value) {
        byte[] copy = bytes.clone();
        ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN).putShort(at, (short) value);
        return copy;
    }

    private static byte[] withLong(byte[] bytes, int at, long value) {
        byte[] copy = bytes.clone();
        ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN).putLong(at, value);
        return copy;
    }
}
