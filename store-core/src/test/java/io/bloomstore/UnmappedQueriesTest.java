package io.bloomstore;

import static org.junit.jupiter.api.Assertions.*;

import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.internal.cells.PositionalCells;
import io.bloomstore.internal.files.FilterFiles;
import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.internal.format.FilterHeader;
import io.bloomstore.internal.probe.CellQueries;
import io.bloomstore.testing.ProcSelf;
import io.bloomstore.tools.FileForensics;
import io.bloomstore.tools.UnmappedQueries;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link UnmappedQueries}: a fixed filter's queries read from the file answer exactly as
 * the mapped filter's, for every counter width, both layouts and both format versions of fixed
 * filter files; what it refuses and how a file truncated under it fails.
 */
class UnmappedQueriesTest {
    private static final int ADDED = 3_000;
    private static final int QUERIED = 12_000;

    @TempDir
    Path dir;

    static Stream<Arguments> everyKindOfFixedFile() {
        List<Arguments> all = new ArrayList<>();
        for (int counterBits : new int[] {1, 2, 4, 8, 16, 32}) {
            for (Layout layout : Layout.values()) {
                if (layout.isImported() || layout == Layout.SBBF) {
                    continue; // GuavaImportTest and SbbfLayoutTest query those unmapped
                }
                if (layout == Layout.SECTORIZED && counterBits != 1) {
                    continue; // 1-bit cells only
                }
                for (int version : new int[] {FilterFileDescriptor.UNBOUND_FORMAT_VERSION, FilterFileDescriptor.FORMAT_VERSION}) {
                    all.add(Arguments.of(counterBits, layout, version));
                }
            }
        }
        return all.stream();
    }

    private static MembershipFilter openUnmapped(Path file) throws IOException {
        return UnmappedQueries.open(file);
    }

    /** A filter of that kind holding key-0 .. key-(ADDED - 1), every tenth key added five times (saturating 2-bit counters). */
    private Path filled(int counterBits, Layout layout, int version) throws IOException {
        BloomSpec spec = BloomSpec.forExpected(ADDED, 0.05).toBuilder().counterBits(counterBits).layout(layout).build();
        Path file = dir.resolve("w" + counterBits + "-" + layout + "-v" + version + ".bloom");
        if (version == FilterFileDescriptor.UNBOUND_FORMAT_VERSION) {
            FilterHeader header = FilterHeader.unbound(spec, System.currentTimeMillis(), false);
            FilterFiles.publishFilter(file, false, header, true, FilterFiles.emptyCells(header));
        } else {
            BloomFilter.create(file, spec).close();
        }
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_WRITE)) {
            for (int i = 0; i < ADDED; i++) {
                for (int times = i % 10 == 0 ? 5 : 1; times > 0; times--) {
                    filter.add("key-" + i);
                }
            }
        }
        assertEquals(version, FileForensics.readInfo(file).formatVersion());
        return file;
    }

    @ParameterizedTest(name = "w = {0}, {1}, version {2}")
    @MethodSource("everyKindOfFixedFile")
    void answersAsTheMappedFilterDoes(int counterBits, Layout layout, int version) throws IOException {
        Path file = filled(counterBits, layout, version);
        int present = 0;
        try (MembershipFilter mapped = MembershipFilter.open(file, OpenMode.READ_ONLY, Clock.systemUTC());
                MembershipFilter unmapped = openUnmapped(file)) {
            assertInstanceOf(BloomFilter.class, mapped);
            assertEquals(1, ProcSelf.mappingsOf(file).size(), "only the mapped handle maps the file");
            assertTrue(unmapped.isReadOnly());
            for (int i = 0; i < QUERIED; i++) {
                String key = "key-" + i;
                boolean answer = mapped.mightContain(key);
                assertEquals(answer, unmapped.mightContain(key), key);
                present += answer ? 1 : 0;
            }
            long[] hashes = new long[QUERIED];
            for (int i = 0; i < QUERIED; i++) {
                hashes[i] = mapped.hasher().hash("key-" + i);
            }
            boolean[] batch = new boolean[QUERIED];
            boolean[] expected = new boolean[QUERIED];
            assertEquals(mapped.mightContainHashes(hashes, QUERIED, expected),
                    unmapped.mightContainHashes(hashes, QUERIED, batch));
            assertArrayEquals(expected, batch);
        }
        assertTrue(present >= ADDED && present < QUERIED, "every added key and some of the others: " + present);
    }

    /** The counters read by position give the mapped filter's counts: the one minimum loop over either reader. */
    @ParameterizedTest(name = "w = {0}, {1}, version {2}")
    @MethodSource("everyKindOfFixedFile")
    void countsReadFromTheFileAreTheMappedCounts(int counterBits, Layout layout, int version) throws IOException {
        Path file = filled(counterBits, layout, version);
        long maximum = 0;
        try (BloomFilter mapped = BloomFilter.open(file, OpenMode.READ_ONLY);
                FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            BloomSpec spec = mapped.spec();
            CellQueries fromFile = new CellQueries(spec, new PositionalCells(channel, FilterFileDescriptor.CELLS_START,
                    spec.cells(), spec.counterBits()));
            for (int i = 0; i < QUERIED; i += 3) {
                long hash = mapped.hasher().hash("key-" + i);
                long count = mapped.countHash(hash);
                assertEquals(count, fromFile.minimum(hash), "key-" + i);
                maximum = Math.max(maximum, count);
            }
        }
        if (counterBits <= 2) {
            assertEquals(counterBits == 1 ? 1 : 3, maximum, "a key added five times is counted up to the counters' maximum");
        } else {
            assertTrue(maximum >= 5, "a key added five times counts at least 5: " + maximum);
        }
    }

    @Test
    void seesAddsMadeAfterItOpened() throws IOException {
        Path file = filled(1, Layout.STANDARD, FilterFileDescriptor.FORMAT_VERSION);
        MembershipFilter unmapped = openUnmapped(file);
        assertFalse(unmapped.mightContain("later"));
        try (BloomFilter writer = BloomFilter.open(file, OpenMode.READ_WRITE)) {
            writer.add("later");
        }
        assertTrue(unmapped.mightContain("later"), "the add is in the page cache the next read goes through");
        unmapped.close();
    }

    @Test
    void aFileTruncatedAfterItOpenedFailsTheQueryNamingTheFile() throws IOException {
        Path file = filled(4, Layout.BLOCKED, FilterFileDescriptor.FORMAT_VERSION);
        try (MembershipFilter unmapped = openUnmapped(file)) {
            assertTrue(unmapped.mightContain("key-1"));
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.truncate(FilterFileDescriptor.CELLS_START);
            }
            UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> unmapped.mightContain("key-1"));
            InvalidFilterFileException cause = assertInstanceOf(InvalidFilterFileException.class, e.getCause());
            assertEquals(Problem.LENGTH_MISMATCH, cause.problem());
            assertTrue(cause.getMessage().startsWith(file + ": the file was truncated by another program")
                    && cause.getMessage().contains("now 4096 bytes"), cause.getMessage());
        }
    }

    @Test
    void refusesAddsAndUseAfterClose() throws IOException {
        Path file = filled(1, Layout.STANDARD, FilterFileDescriptor.FORMAT_VERSION);
        MembershipFilter unmapped = openUnmapped(file);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> unmapped.add("key"));
        assertTrue(e.getMessage().contains("read-only"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> unmapped.addHashes(new long[1], 1));
        assertThrows(IllegalArgumentException.class, () -> unmapped.mightContainHashes(new long[2], 2, new boolean[1]));
        unmapped.close();
        unmapped.close();
        assertThrows(IllegalStateException.class, () -> unmapped.mightContain("key-1"));
    }

    @Test
    void aGrowingFileOpensMappedReadOnly() throws IOException {
        Path file = dir.resolve("growing.bloom");
        try (GrowingBloomFilter growing = GrowingBloomFilter.create(file, GrowingSpec.of(1_000, 0.01))) {
            growing.add("a");
        }
        try (MembershipFilter filter = openUnmapped(file);
                GrowingBloomFilter direct = GrowingBloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertInstanceOf(GrowingBloomFilter.class, filter);
            assertTrue(filter.isReadOnly() && direct.isReadOnly());
            assertTrue(filter.mightContain("a") && direct.mightContain("a"));
            assertThrows(IllegalStateException.class, () -> filter.add("b"));
        }
    }
}
