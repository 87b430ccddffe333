package io.bloomstore.reliability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.bloomstore.filter.BloomFilter;
import io.bloomstore.format.FilterFileDescriptor;
import io.bloomstore.format.InvalidFilterFileException;
import io.bloomstore.format.InvalidFilterFileException.Problem;
import io.bloomstore.ops.Merge;
import io.bloomstore.ops.MergeOp;
import io.bloomstore.ops.Pack;
import io.bloomstore.spec.BloomSpec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
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
 * Every refused create, merge, unpack and pack leaves the directory as it was: no new file, no
 * temporary file, and an existing file it would have replaced byte for byte unchanged. Each case
 * also checks the refusal names its problem.
 */
class FailedOperationsLeaveNothingBehindTest {
    private static final BloomSpec SPEC = BloomSpec.builder().cells(1 << 16).hashes(5).build();
    private static final BloomSpec OTHER_SEED = SPEC.toBuilder().seed(42).build();
    private static final byte[] SMALL_FILTER = smallFilterBytes();

    @TempDir
    Path dir;
    private Path existing;
    private byte[] existingBytes;

    @BeforeEach
    void createAnExistingFilter() throws IOException {
        existing = Filters.withKeys(dir.resolve("existing.bloom"), SPEC, 0, 500);
        existingBytes = Files.readAllBytes(existing);
    }

    // ---------------------------------------------------------------- create

    @Test
    void createOverAnExistingFileIsRefused() throws Exception {
        assertThrows(FileAlreadyExistsException.class, () -> BloomFilter.create(existing, SPEC));
        assertUnchanged();
    }

    @Test
    void createInAMissingDirectoryIsRefused() {
        assertThrows(NoSuchFileException.class, () -> BloomFilter.create(dir.resolve("no/such/dir.bloom"), SPEC));
        assertUnchangedDirectory();
    }

    // ---------------------------------------------------------------- merge

    @Test
    void mergeOfIncompatibleFiltersIsRefused() throws Exception {
        assertMergeRefused(Problem.INCOMPATIBLE, Filters.withKeys(dir.resolve("other.bloom"), OTHER_SEED, 0, 10));
    }

    @Test
    void mergeWithADamagedInputIsRefused() throws Exception {
        assertMergeRefused(Problem.HEADER_CHECKSUM, Files.write(dir.resolve("damaged.bloom"),
                flip(existingBytes, FilterFileDescriptor.CELLS_OFFSET)));
    }

    /** Merging {@code existing} with {@code second} into a new file is refused naming {@code problem}. */
    private void assertMergeRefused(Problem problem, Path second) throws IOException {
        for (MergeOp op : MergeOp.values()) {
            InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class,
                    () -> Merge.toNewFile(dir.resolve("out.bloom"), List.of(existing, second), op, false, null));
            assertEquals(problem, e.problem(), e.getMessage());
        }
        Files.delete(second);
        assertUnchanged();
    }

    @Test
    void mergeWithAMissingInputIsRefused() throws Exception {
        assertThrows(NoSuchFileException.class, () -> Merge.toNewFile(dir.resolve("out.bloom"),
                List.of(existing, dir.resolve("missing.bloom")), MergeOp.OR, false, null));
        assertUnchanged();
    }

    @Test
    void mergeOverAnExistingOutputWithoutReplaceIsRefused() throws Exception {
        Path input = Filters.withKeys(dir.resolve("input.bloom"), SPEC, 1000, 10);
        assertThrows(FileAlreadyExistsException.class,
                () -> Merge.toNewFile(existing, List.of(input, input), MergeOp.OR, false, null));
        Files.delete(input);
        assertUnchanged();
    }

    // ---------------------------------------------------------------- unpack

    /** Damaged or foreign packs, each with the problem its refusal must name. */
    static Stream<Arguments> damagedPacks() {
        return Stream.of(
                damaged("empty stream", Problem.BAD_PACK, pack -> new byte[0]),
                damaged("a filter file, not a pack", Problem.BAD_PACK, pack -> SMALL_FILTER),
                damaged("cut after the frame header", Problem.BAD_PACK, pack -> Arrays.copyOf(pack, 10)),
                damaged("cut in half", Problem.BAD_PACK, pack -> Arrays.copyOf(pack, pack.length / 2)),
                damaged("last byte missing", Problem.BAD_PACK, pack -> Arrays.copyOf(pack, pack.length - 1)),
                damaged("one byte flipped in a block", Problem.BAD_PACK, pack -> flip(pack, pack.length / 2)),
                damaged("wrong pack magic", Problem.BAD_PACK, pack -> PackFrames.frame(
                        PackFrames.content(0x1234, Pack.PACK_VERSION, SMALL_FILTER.length, SMALL_FILTER))),
                damaged("pack version 2", Problem.UNSUPPORTED_VERSION, pack -> PackFrames.frame(
                        PackFrames.content(Pack.PACK_MAGIC, 2, SMALL_FILTER.length, SMALL_FILTER))),
                damaged("damaged filter header inside", Problem.HEADER_CHECKSUM, pack -> PackFrames.frame(
                        PackFrames.content(flip(SMALL_FILTER, FilterFileDescriptor.SEED_OFFSET)))),
                damaged("announced length one page short", Problem.LENGTH_MISMATCH, pack -> PackFrames.frame(
                        PackFrames.content(Pack.PACK_MAGIC, Pack.PACK_VERSION, SMALL_FILTER.length - 4096, SMALL_FILTER))),
                damaged("cells cut short", Problem.BAD_PACK, pack -> PackFrames.frame(Arrays.copyOf(
                        PackFrames.content(SMALL_FILTER), 24 + SMALL_FILTER.length - 100))),
                damaged("data after the announced length", Problem.BAD_PACK, pack -> PackFrames.frame(
                        PackFrames.content(Pack.PACK_MAGIC, Pack.PACK_VERSION, SMALL_FILTER.length,
                                Arrays.copyOf(SMALL_FILTER, SMALL_FILTER.length + 1)))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("damagedPacks")
    void unpackOfADamagedPackIsRefused(String damage, Problem problem, UnaryOperator<byte[]> damageOf) throws Exception {
        byte[] input = damageOf.apply(Filters.pack(existing));
        InvalidFilterFileException fresh = assertThrows(InvalidFilterFileException.class,
                () -> Pack.unpack(new ByteArrayInputStream(input), "in.pack", dir.resolve("restored.bloom"), false, null));
        assertEquals(problem, fresh.problem(), fresh.getMessage());
        InvalidFilterFileException replacing = assertThrows(InvalidFilterFileException.class,
                () -> Pack.unpack(new ByteArrayInputStream(input), "in.pack", existing, true, null));
        assertEquals(problem, replacing.problem(), replacing.getMessage());
        assertUnchanged();
    }

    // ---------------------------------------------------------------- pack

    /** Files pack refuses, each with the problem its refusal must name. */
    static Stream<Arguments> unpackableFiles() {
        return Stream.of(
                damaged("damaged header", Problem.HEADER_CHECKSUM, bytes -> flip(bytes, FilterFileDescriptor.HASHES_OFFSET)),
                damaged("truncated", Problem.LENGTH_MISMATCH, bytes -> Arrays.copyOf(bytes, bytes.length - 4096)),
                damaged("not a filter", Problem.BAD_MAGIC, bytes -> "key\n".repeat(2000).getBytes()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unpackableFiles")
    void packOfAFileThatIsNotAGoodFilterIsRefusedBeforeWritingAnything(String damage, Problem problem,
            UnaryOperator<byte[]> damageOf) throws Exception {
        Path file = Files.write(dir.resolve("bad.bloom"), damageOf.apply(existingBytes.clone()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class, () -> Pack.pack(file, out, null));
        assertEquals(problem, e.problem(), e.getMessage());
        assertEquals(0, out.size(), "not a byte of output");
        Files.delete(file);
        assertUnchanged();
    }

    @Test
    void packOfADirectoryIsRefused() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class, () -> Pack.pack(dir, out, null));
        assertEquals(Problem.NOT_A_REGULAR_FILE, e.problem());
        assertEquals(0, out.size());
    }

    // ---------------------------------------------------------------- support

    private static Arguments damaged(String name, Problem problem, UnaryOperator<byte[]> damage) {
        return Arguments.of(name, problem, damage);
    }

    private static byte[] flip(byte[] bytes, int at) {
        byte[] copy = bytes.clone();
        copy[at] ^= 0x10;
        return copy;
    }

    /** A small valid filter's bytes, for packs built by hand. */
    private static byte[] smallFilterBytes() {
        try {
            Path file = Files.createTempFile("pack-input", ".bloom");
            Files.delete(file);
            Filters.withKeys(file, SPEC, 0, 10);
            byte[] bytes = Files.readAllBytes(file);
            Files.delete(file);
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void assertUnchanged() throws IOException {
        assertUnchangedDirectory();
        assertArrayEquals(existingBytes, Files.readAllBytes(existing), "the existing filter is untouched");
    }

    private void assertUnchangedDirectory() {
        try {
            assertEquals(List.of("existing.bloom"), Directories.names(dir), "no new file, no temporary file");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
