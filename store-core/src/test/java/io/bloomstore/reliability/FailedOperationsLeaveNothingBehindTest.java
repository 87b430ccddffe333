package io.bloomstore.reliability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.bloomstore.BloomFilter;
import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.Merge;
import io.bloomstore.MergeOp;
import io.bloomstore.Pack;
import io.bloomstore.BloomSpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Refused creates, merges and packs leave the directory as it was: no new file, no temporary file,
 * the existing filter byte for byte unchanged, and a refused pack writes not a byte. Each refusal
 * names its problem. These are the cases the format and ops tests leave out: FileCreationTest
 * covers create over an existing file and a failing content writer, MergeTest incompatible inputs
 * and an existing output, PackTest every damaged pack stream and an existing unpack target.
 */
class FailedOperationsLeaveNothingBehindTest {
    private static final BloomSpec SPEC = BloomSpec.builder().cells(1 << 16).hashes(5).build();

    @TempDir
    Path dir;
    private Path existing;
    private byte[] existingBytes;

    @BeforeEach
    void createAnExistingFilter() throws IOException {
        existing = KnownKeyFilters.withKeys(dir.resolve("existing.bloom"), SPEC, 0, 500);
        existingBytes = Files.readAllBytes(existing);
    }

    @Test
    void createInAMissingDirectoryIsRefused() throws Exception {
        assertThrows(NoSuchFileException.class, () -> BloomFilter.create(dir.resolve("no/such/dir.bloom"), SPEC));
        assertUnchanged();
    }

    @Test
    void mergeWithADamagedInputIsRefused() throws Exception {
        Path damaged = Files.write(dir.resolve("damaged.bloom"), flip(existingBytes, FilterFileDescriptor.CELL_COUNT_OFFSET));
        for (MergeOp op : MergeOp.values()) {
            InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class,
                    () -> Merge.toNewFile(dir.resolve("out.bloom"), List.of(existing, damaged), op));
            assertEquals(Problem.HEADER_CHECKSUM, e.problem(), e.getMessage());
        }
        Files.delete(damaged);
        assertUnchanged();
    }

    @Test
    void mergeWithAMissingInputIsRefused() throws Exception {
        assertThrows(NoSuchFileException.class, () -> Merge.toNewFile(dir.resolve("out.bloom"),
                List.of(existing, dir.resolve("missing.bloom")), MergeOp.OR));
        assertUnchanged();
    }

    /** Files pack refuses, each with the problem its refusal must name. */
    static Stream<Arguments> unpackableFiles() {
        return Stream.of(
                Arguments.of("truncated by a page", Problem.LENGTH_MISMATCH,
                        (UnaryOperator<byte[]>) bytes -> Arrays.copyOf(bytes, bytes.length - 4096)),
                Arguments.of("a text file", Problem.BAD_MAGIC,
                        (UnaryOperator<byte[]>) bytes -> "key\n".repeat(2000).getBytes(StandardCharsets.UTF_8)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unpackableFiles")
    void packOfAFileThatIsNotAGoodFilterIsRefusedBeforeWritingAnything(String what, Problem problem,
            UnaryOperator<byte[]> spoil) throws Exception {
        Path file = Files.write(dir.resolve("bad.bloom"), spoil.apply(existingBytes.clone()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class, () -> Pack.pack(file, out));
        assertEquals(problem, e.problem(), e.getMessage());
        assertEquals(0, out.size(), "not a byte of output");
        Files.delete(file);
        assertUnchanged();
    }

    @Test
    void packOfADirectoryIsRefusedBeforeWritingAnything() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class, () -> Pack.pack(dir, out));
        assertEquals(Problem.NOT_A_REGULAR_FILE, e.problem());
        assertEquals(0, out.size());
        assertUnchanged();
    }

    private static byte[] flip(byte[] bytes, int at) {
        byte[] copy = bytes.clone();
        copy[at] ^= 0x10;
        return copy;
    }

    private void assertUnchanged() throws IOException {
        assertEquals(List.of("existing.bloom"), Directories.names(dir), "no new file, no temporary file");
        assertArrayEquals(existingBytes, Files.readAllBytes(existing), "the existing filter is untouched");
    }
}
