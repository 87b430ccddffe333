package io.bloomstore.internal.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.bloomstore.BloomFilter;
import io.bloomstore.CreateOption;
import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.params.provider.Arguments;

/** Real filter files for tests, and the few byte-level manipulations the damage tests need. */
public final class FilterFixtures {
    /** A small plain filter: two header-sized pages in all. */
    public static final BloomSpec SMALL = BloomSpec.builder().cells(1000).hashes(7).build();

    private FilterFixtures() {
    }

    /** Creates {@code file} with {@code spec}, adds the long keys, closes it, and returns the path. */
    public static Path filterWithKeys(Path file, BloomSpec spec, LongStream keys) throws IOException {
        try (BloomFilter filter = BloomFilter.create(file, spec, CreateOption.REPLACE_EXISTING)) {
            keys.forEach(filter::add);
        }
        return file;
    }

    /** The bytes of a valid filter file holding a few keys. */
    public static byte[] validFilterBytes(Path dir, BloomSpec spec) throws IOException {
        Path file = filterWithKeys(dir.resolve("valid-template.bloom"), spec, LongStream.range(0, 10));
        byte[] bytes = Files.readAllBytes(file);
        Files.delete(file);
        return bytes;
    }

    /** A copy of {@code file} with its header edited and its CRC32C recomputed: a well-formed forgery. */
    public static byte[] forgeHeader(byte[] file, Consumer<ByteBuffer> edit) {
        byte[] copy = file.clone();
        ByteBuffer header = ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN);
        edit.accept(header);
        CRC32C crc = new CRC32C();
        crc.update(copy, 0, FilterFileDescriptor.HEADER_CRC_OFFSET);
        header.putInt(FilterFileDescriptor.HEADER_CRC_OFFSET, (int) crc.getValue());
        return copy;
    }

    /**
     * Pairs of shapes differing in exactly one of the fields that decide where keys land, with the
     * word the field goes by in messages: (field, first, second).
     */
    public static Stream<Arguments> shapesDifferingInOneField() {
        BloomSpec base = BloomSpec.builder().cells(8192).hashes(5).build();
        return Stream.of(
                Arguments.of("cells", base, base.toBuilder().cells(16384).build()),
                Arguments.of("hashes", base, base.toBuilder().hashes(4).build()),
                Arguments.of("counter bits", base, base.toBuilder().counterBits(2).build()),
                Arguments.of("layout", base, base.toBuilder().layout(Layout.BLOCKED).build()),
                Arguments.of("seed", base, base.toBuilder().seed(1).build()));
    }

    /** Files in {@code dir} that look like the temporary files of an atomic create. */
    public static List<Path> temporaryFiles(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".tmp")).collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Fails if an atomic create left a temporary file in {@code dir}. */
    public static void assertNoTemporaryFiles(Path dir) {
        assertEquals(List.of(), temporaryFiles(dir), "temporary files left in " + dir);
    }

    /** The first {@code count} cell words of a filter file, as its bytes hold them (little-endian, from the cells' start). */
    public static long[] cellWords(Path file, int count) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        long[] words = new long[count];
        for (int i = 0; i < count; i++) {
            words[i] = bytes.getLong(FilterFileDescriptor.CELLS_START + 8 * i);
        }
        return words;
    }
}
