package io.bloomstore.internal.format;

import io.bloomstore.InvalidFilterFileException;
import static io.bloomstore.internal.format.FilterFileDescriptor.*;
import static io.bloomstore.internal.format.FilterFixtures.forgeHeader;
import static org.junit.jupiter.api.Assertions.*;

import io.bloomstore.OpenMode;
import io.bloomstore.BloomFilter;
import io.bloomstore.MembershipFilter;
import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.BloomSpec;
import io.bloomstore.testing.ReadOnlyFile;
import io.bloomstore.tools.UnmappedQueries;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Damaged and foreign files through {@link BloomFilter#open}: each must fail with the specific
 * {@link Problem} FORMAT.md's validation order gives, with a message naming the path, and leave the
 * file as it was. Never a crash, never a filter that answers.
 */
class DamagedFileTest {
    private static byte[] valid;

    @TempDir
    static Path templates;

    @TempDir
    Path dir;

    @BeforeAll
    static void makeTemplate() throws IOException {
        valid = FilterFixtures.validFilterBytes(templates, FilterFixtures.SMALL);
        assertEquals(CELLS_START + FilterFixtures.SMALL.cellBytes(), valid.length);
    }

    /** A way to spoil a valid file, what opening it must report, and a word the message must hold. */
    record Damage(String name, UnaryOperator<byte[]> spoil, Problem problem, String messageWord) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Damage> damages() {
        List<Damage> cases = new ArrayList<>();
        // Too short: empty, one byte, and cut at every field boundary of the header.
        IntStream.concat(IntStream.of(0, 1), headerFieldOffsets()).distinct().forEach(length -> cases.add(
                new Damage("cut to " + length + " bytes", b -> Arrays.copyOf(b, length), Problem.TOO_SHORT, "at least 8192")));
        // Long enough for a header, but not for the cells it describes; or longer.
        for (int length : new int[] {HEADER_LENGTH, STATE_OFFSET + STATE_LENGTH, CELLS_START, CELLS_START + 8}) {
            cases.add(new Damage("cut to " + length + " bytes", b -> Arrays.copyOf(b, length), Problem.LENGTH_MISMATCH, "truncated"));
        }
        cases.add(new Damage("last cell byte cut off", b -> Arrays.copyOf(b, b.length - 1), Problem.LENGTH_MISMATCH, "truncated"));
        cases.add(new Damage("one byte appended", b -> Arrays.copyOf(b, b.length + 1), Problem.LENGTH_MISMATCH, "appended"));
        cases.add(new Damage("a page appended", b -> Arrays.copyOf(b, b.length + 4096), Problem.LENGTH_MISMATCH, "appended"));
        // Foreign files.
        cases.add(new Damage("wrong magic", b -> edit(b, h -> h.put(7, (byte) 'X')), Problem.BAD_MAGIC, "magic"));
        cases.add(new Damage("all zeros", b -> new byte[b.length], Problem.BAD_MAGIC, "magic"));
        cases.add(new Damage("random garbage", b -> garbage(b.length), Problem.BAD_MAGIC, "magic"));
        cases.add(new Damage("short garbage", b -> garbage(100), Problem.TOO_SHORT, "at least 8192"));
        cases.add(new Damage("a text file", b -> "key-1\nkey-2\n".repeat(1000).getBytes(StandardCharsets.UTF_8),
                Problem.BAD_MAGIC, "magic"));
        cases.add(new Damage("a PNG", b -> Arrays.copyOf(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}, 8192),
                Problem.BAD_MAGIC, "magic"));
        // Newer (or nonsense) versions are refused before the checksum is even looked at.
        for (int version : new int[] {0, 2, 0xFFFF}) {
            cases.add(new Damage("version " + version, b -> edit(b, h -> h.putShort(VERSION_OFFSET, (short) version)),
                    Problem.UNSUPPORTED_VERSION, "version " + version));
            cases.add(new Damage("version " + version + " with a valid CRC",
                    b -> forgeHeader(b, h -> h.putShort(VERSION_OFFSET, (short) version)), Problem.UNSUPPORTED_VERSION,
                    "version " + version));
        }
        // Well-formed headers (valid CRC) holding values out of range: what a buggy writer makes.
        forgedField(cases, "header length 64", h -> h.putShort(HEADER_LENGTH_OFFSET, (short) 64), "header length");
        // A layout id this reader does not know is refused, not misread: the rule by which a reader
        // from before the sectorized layout (id 2) refused its files, which this case held with id 2, and
        // with id 3 until the sbbf layout took it.
        forgedField(cases, "layout 6", h -> h.put(LAYOUT_OFFSET, (byte) 6), "unknown layout id 6");
        // The sectorized layout's own constraints: whole 512-bit lines (this file has m = 1000),
        // and 1-bit cells.
        forgedField(cases, "layout 2 on 1000 cells", h -> h.put(LAYOUT_OFFSET, (byte) 2), "sectorized");
        forgedField(cases, "layout 2 with 4-bit cells", h -> {
            h.put(LAYOUT_OFFSET, (byte) 2);
            h.put(COUNTER_BITS_OFFSET, (byte) 4);
            h.putLong(CELL_COUNT_OFFSET, 1024);
        }, "1-bit");
        forgedField(cases, "hash algorithm 0", h -> h.put(HASH_ALGORITHM_OFFSET, (byte) 0), "hash algorithm id 0");
        // an id this reader does not know (3 and 4 are the imported layouts' since, 2 the sbbf layout's)
        forgedField(cases, "hash algorithm 5", h -> h.put(HASH_ALGORITHM_OFFSET, (byte) 5), "hash algorithm id 5");
        // XXH64 (id 2) is the sbbf layout's only, and the sbbf layout has Parquet's shape only.
        forgedField(cases, "hash algorithm 2 on a standard layout", h -> h.put(HASH_ALGORITHM_OFFSET, (byte) 2), "XXH64");
        forgedField(cases, "sbbf with no Parquet type", h -> sbbf(h).put(LAYOUT_PARAMETER_OFFSET, (byte) 0),
                "Parquet physical type id 0");
        forgedField(cases, "sbbf with 7 hashes", h -> sbbf(h).putInt(HASHES_OFFSET, 7), "k = 7");
        forgedField(cases, "sbbf with the XXH3 hash", h -> sbbf(h).put(HASH_ALGORITHM_OFFSET, (byte) 1), "XXH3_64 seed");
        for (int w : new int[] {0, 3, 64, 255}) {
            forgedField(cases, "counter bits " + w, h -> h.put(COUNTER_BITS_OFFSET, (byte) w), "counter bits");
        }
        for (int k : new int[] {0, 65, -1}) {
            forgedField(cases, "hashes " + k, h -> h.putInt(HASHES_OFFSET, k), "hashes");
        }
        for (long m : new long[] {0, -1, BloomSpec.MAX_CELLS + 1}) {
            forgedField(cases, "cells " + m, h -> h.putLong(CELL_COUNT_OFFSET, m), "cells");
        }
        forgedField(cases, "blocked with m not whole blocks", h -> h.put(LAYOUT_OFFSET, (byte) 1), "whole blocks");
        forgedField(cases, "expected keys -5", h -> h.putLong(EXPECTED_KEYS_OFFSET, -5), "expected keys");
        for (double p : new double[] {1.0, 1.5, -0.25, Double.NaN, Double.POSITIVE_INFINITY}) {
            forgedField(cases, "fpp " + p, h -> h.putDouble(TARGET_FPP_OFFSET, p), "false-positive rate");
        }
        forgedField(cases, "cells offset 8192", h -> h.putLong(CELLS_START_OFFSET, 8192), "cells offset");
        forgedField(cases, "cells length one page more", h -> h.putLong(CELLS_LENGTH_OFFSET, 8192), "cells length");
        forgedField(cases, "unknown flag", h -> h.putInt(FLAGS_OFFSET, 2), "flags");
        // A header that describes an enormous filter must be refused by length, never mapped.
        cases.add(new Damage("header claims 2^56 cells", b -> forgeHeader(b, h -> {
            h.putLong(CELL_COUNT_OFFSET, BloomSpec.MAX_CELLS);
            h.putLong(CELLS_LENGTH_OFFSET, BloomSpec.MAX_CELLS / 8);
        }), Problem.LENGTH_MISMATCH, "bytes"));
        return cases.stream();
    }

    /** The header edited to a valid sbbf filter's shape (INT64 keys, 1024 cells, the file's cell length), for one field to spoil. */
    private static ByteBuffer sbbf(ByteBuffer h) {
        return h.put(LAYOUT_OFFSET, (byte) 3).put(LAYOUT_PARAMETER_OFFSET, (byte) 2).put(HASH_ALGORITHM_OFFSET, (byte) 2)
                .putLong(SEED_OFFSET, 0).putInt(HASHES_OFFSET, 8).putLong(CELL_COUNT_OFFSET, 1024);
    }

    private static void forgedField(List<Damage> cases, String name, Consumer<ByteBuffer> edit, String messageWord) {
        cases.add(new Damage(name, b -> forgeHeader(b, edit), Problem.BAD_FIELD, messageWord));
    }

    private static IntStream headerFieldOffsets() {
        return IntStream.of(VERSION_OFFSET, HEADER_LENGTH_OFFSET, LAYOUT_OFFSET, HASH_ALGORITHM_OFFSET,
                COUNTER_BITS_OFFSET, RESERVED_BYTE_OFFSET, HASHES_OFFSET, FLAGS_OFFSET, CELL_COUNT_OFFSET, SEED_OFFSET,
                EXPECTED_KEYS_OFFSET, TARGET_FPP_OFFSET, CREATED_MILLIS_OFFSET, CELLS_START_OFFSET,
                CELLS_LENGTH_OFFSET, RESERVED_OFFSET, HEADER_CRC_OFFSET, HEADER_LENGTH - 1);
    }

    /** A copy edited without fixing the CRC: damage, as a disk or a stray write would do it. */
    private static byte[] edit(byte[] file, Consumer<ByteBuffer> change) {
        byte[] copy = file.clone();
        change.accept(ByteBuffer.wrap(copy).order(java.nio.ByteOrder.LITTLE_ENDIAN));
        return copy;
    }

    private static byte[] garbage(int length) {
        byte[] bytes = new byte[length];
        new Random(length).nextBytes(bytes);
        return bytes;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("damages")
    void damagedFileIsRefusedWithItsProblem(Damage damage) throws IOException {
        assertRefused(damage.spoil().apply(valid), damage.problem(), damage.messageWord());
    }

    /**
     * Every header byte, flipped three ways. The magic and version fail first, by name; every
     * other byte, reserved ones and the CRC itself included, fails the checksum.
     */
    static Stream<Arguments> flippedHeaderBytes() {
        return IntStream.range(0, HEADER_LENGTH).boxed().flatMap(offset -> Stream.of(0x01, 0x80, 0xFF)
                .map(mask -> Arguments.of(offset, mask)));
    }

    @ParameterizedTest(name = "byte {0} ^ {1}")
    @MethodSource("flippedHeaderBytes")
    void flippedHeaderByteIsRefused(int offset, int mask) throws IOException {
        byte[] damaged = valid.clone();
        damaged[offset] ^= (byte) mask;
        Problem expected = offset < VERSION_OFFSET ? Problem.BAD_MAGIC
                : offset < HEADER_LENGTH_OFFSET ? Problem.UNSUPPORTED_VERSION
                : Problem.HEADER_CHECKSUM;
        assertRefused(damaged, expected, expected == Problem.HEADER_CHECKSUM ? "damaged" : "");
    }

    /** FORMAT.md's order: with two things wrong, the earlier check is the one reported. */
    static Stream<Arguments> twoProblemsAtOnce() {
        return Stream.of(
                Arguments.of("short and not a filter", (UnaryOperator<byte[]>) b -> garbage(64), Problem.TOO_SHORT),
                Arguments.of("bad magic and bad version",
                        (UnaryOperator<byte[]>) b -> edit(b, h -> h.put(0, (byte) 0).putShort(VERSION_OFFSET, (short) 9)),
                        Problem.BAD_MAGIC),
                Arguments.of("bad version and bad CRC",
                        (UnaryOperator<byte[]>) b -> edit(b, h -> h.putShort(VERSION_OFFSET, (short) 9).put(100, (byte) 1)),
                        Problem.UNSUPPORTED_VERSION),
                Arguments.of("bad CRC and bad length",
                        (UnaryOperator<byte[]>) b -> Arrays.copyOf(edit(b, h -> h.put(100, (byte) 1)), b.length + 1),
                        Problem.HEADER_CHECKSUM),
                Arguments.of("bad field and bad length",
                        (UnaryOperator<byte[]>) b -> Arrays.copyOf(forgeHeader(b, h -> h.putInt(HASHES_OFFSET, 0)), 5000),
                        Problem.BAD_FIELD));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("twoProblemsAtOnce")
    void earlierCheckWins(String name, UnaryOperator<byte[]> spoil, Problem expected) throws IOException {
        assertRefused(spoil.apply(valid), expected, "");
    }

    /** The state area and the page padding are not part of the header: damage there still opens. */
    @Test
    void damagedStateAreaStillOpens() throws IOException {
        byte[] damaged = valid.clone();
        Arrays.fill(damaged, STATE_OFFSET + 16, CELLS_START, (byte) 0x5A);
        Path file = write(damaged);
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertTrue(filter.mightContain(3L));
        }
    }

    @ParameterizedTest
    @EnumSource(OpenMode.class)
    void directoryIsNotAFilter(OpenMode mode) {
        assertNotARegularFile(() -> BloomFilter.open(dir, mode).close());
    }

    @Test
    void directoryIsNotAFilterUnmapped() {
        assertNotARegularFile(() -> UnmappedQueries.open(dir).close());
    }

    private static void assertNotARegularFile(Executable open) {
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class, open);
        assertEquals(Problem.NOT_A_REGULAR_FILE, e.problem());
        assertTrue(e.getMessage().contains("directory"), e.getMessage());
    }

    @Test
    void missingFileIsNoSuchFile() {
        Path missing = dir.resolve("missing.bloom");
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> BloomFilter.open(missing, OpenMode.READ_ONLY));
        assertTrue(e.getMessage().contains("missing.bloom"), e.getMessage());
    }

    /**
     * A file this process may not write, opened READ_WRITE, fails before anything is mapped or
     * written; READ_ONLY still works. Root ignores permission bits, so there the file is made
     * immutable instead (chattr +i), which binds root too.
     */
    @Test
    void readOnlyFileOpenedReadWriteIsRefused() throws Exception {
        Path file = write(valid);
        ReadOnlyFile readOnly = ReadOnlyFile.make(file);
        try {
            Assumptions.assumeTrue(readOnly.effective(), "cannot make a file read-only here (root without chattr)");
            AccessDeniedException e = assertThrows(AccessDeniedException.class,
                    () -> BloomFilter.open(file, OpenMode.READ_WRITE));
            assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("read-only"), e.getMessage());
            try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_ONLY)) {
                assertTrue(filter.mightContain(3L));
            }
        } finally {
            readOnly.undo();
        }
        assertArrayEquals(valid, Files.readAllBytes(file), "the refused open left the file as it was");
    }

    /**
     * Opens the spoiled file every way; each must refuse it the same way and leave it untouched. The
     * unmapped reader ({@link UnmappedQueries}) must refuse it exactly as {@link MembershipFilter#open}'s
     * mapped READ_ONLY does.
     */
    private void assertRefused(byte[] content, Problem expected, String messageWord) throws IOException {
        Path file = write(content);
        for (OpenMode mode : List.of(OpenMode.READ_ONLY, OpenMode.READ_WRITE)) {
            InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class,
                    () -> BloomFilter.open(file, mode).close(), mode.toString());
            assertEquals(expected, e.problem(), mode + ": " + e.getMessage());
            assertTrue(e.getMessage().startsWith(file.toString()), "names the path: " + e.getMessage());
            assertTrue(e.getMessage().contains(messageWord), "says \"" + messageWord + "\": " + e.getMessage());
        }
        InvalidFilterFileException mapped = assertThrows(InvalidFilterFileException.class,
                () -> open(file, OpenMode.READ_ONLY).close());
        InvalidFilterFileException unmapped = assertThrows(InvalidFilterFileException.class,
                () -> UnmappedQueries.open(file).close());
        assertEquals(mapped.problem(), unmapped.problem(), unmapped.getMessage());
        assertEquals(mapped.getMessage(), unmapped.getMessage());
        assertArrayEquals(content, Files.readAllBytes(file), "a refused open changes nothing");
    }

    /** Opens {@code file} as the command line does, whatever its kind. */
    private static MembershipFilter open(Path file, OpenMode mode) throws IOException {
        return MembershipFilter.open(file, mode, Clock.systemUTC());
    }

    private Path write(byte[] content) throws IOException {
        return Files.write(dir.resolve("damaged.bloom"), content);
    }
}
