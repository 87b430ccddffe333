package io.bloomstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.internal.map.MapHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link StoredFile}, the management contract of every kind of bloomstore file: each kind, a
 * Bloomier map's included, opened by the one {@link StoredFile#open}, answers the same questions
 * from real files, and reaches its family's own calls through {@link StoredFile#match}.
 */
class StoredFileTest {
    private static final int KEYS = 2_000;

    @TempDir
    Path dir;

    /** A file of {@code kind} holding {@link #KEYS} keys (pairs, for a map), closed; a fixed filter is sealed. */
    private Path fileOf(FilterKind kind) throws IOException {
        Path file = dir.resolve(kind + ".bloom");
        if (kind == FilterKind.MAP) {
            try (BloomierMap.Builder builder = BloomierMap.builder(file, 4)) {
                for (int i = 0; i < KEYS; i++) {
                    builder.put("key-" + i, i % 16);
                }
                builder.build();
            }
            return file;
        }
        try (MembershipFilter filter = switch (kind) {
            case FIXED -> BloomFilter.create(file, BloomSpec.forExpected(10_000, 0.01));
            case GROWING -> GrowingBloomFilter.create(file, GrowingSpec.of(1_000, 0.01));
            case WINDOWED -> WindowedBloomFilter.create(file, WindowSpec.of(100_000, 0.01, Duration.ofHours(1)), Clock.systemUTC()); // StoredFile.open reads this clock
            case MAP -> throw new AssertionError("built above");
        }) {
            for (int i = 0; i < KEYS; i++) {
                filter.add("key-" + i);
            }
            if (filter.asFixed().isPresent()) {
                filter.asFixed().get().seal();
            }
        }
        return file;
    }

    @ParameterizedTest
    @EnumSource(FilterKind.class)
    void everyKindOpensThroughTheOneOpenAndAnswersEveryManagementQuestion(FilterKind kind) throws IOException {
        Path file = fileOf(kind);
        try (StoredFile stored = StoredFile.open(file)) {
            assertEquals(kind, stored.kind());
            assertEquals(file, stored.path());
            assertEquals(Files.size(file), stored.fileBytes());

            FileShape shape = stored.shape();
            assertEquals(kind, shape.kind());
            assertEquals(Files.size(file), shape.fileBytes());
            assertTrue(shape.scanBytes() > 0 && shape.scanBytes() <= shape.fileBytes(), "scan " + shape.scanBytes());
            boolean checksummed = kind == FilterKind.FIXED || kind == FilterKind.MAP;
            assertEquals(checksummed, shape.sealed(), "a sealed fixed filter and every map record a checksum");

            assertEquals(checksummed ? CellsCheck.INTACT : CellsCheck.LIVE, stored.verify());
            List<Long> read = new ArrayList<>();
            assertEquals(checksummed ? CellsCheck.INTACT : CellsCheck.LIVE, stored.verify(read::add));
            if (checksummed) {
                assertEquals(shape.scanBytes(), read.get(read.size() - 1), "the last report is the total a display shows");
            } else {
                assertTrue(read.isEmpty(), "no cells read where none are checksummed: " + read);
            }

            // the family's own calls, by its type: a filter finds its keys, a map reads their values
            String family = stored.match(filter -> {
                assertSame(stored, filter);
                assertSame(shape.getClass(), filter.shape().getClass(), "the filter's own shape record");
                assertTrue(filter.mightContain("key-7"));
                FillStats stats = filter.stats();
                assertTrue(Math.abs(stats.estimatedKeys() - KEYS) < KEYS * 0.05, "estimated " + stats.estimatedKeys());
                assertFalse(filter.isPastCapacity());
                return "filter";
            }, valued -> {
                throw new AssertionError("no valued filter among the kinds: " + valued);
            }, map -> {
                assertSame(stored, map);
                assertEquals(7, map.get("key-7"));
                MapShape mapShape = map.shape();
                assertSame(shape, mapShape, "a map's shape never changes");
                assertEquals(KEYS, mapShape.pairs());
                assertEquals(4, mapShape.valueBits());
                assertEquals(BloomierMap.DEFAULT_FINGERPRINT_BITS, mapShape.fingerprintBits());
                assertEquals(1.0 / 256, mapShape.absentKeyErrorRate());
                assertEquals((double) mapShape.slots() * 12 / KEYS, mapShape.bitsPerKey());
                assertEquals((long) (mapShape.segmentCount() + 2) * mapShape.segmentLength(), mapShape.slots());
                assertEquals(BloomSpec.DEFAULT_SEED, mapShape.seed());
                assertEquals(MapHeader.TABLE_START + mapShape.scanBytes(), mapShape.fileBytes(), "the table follows the header page");
                return "map";
            });
            assertEquals(kind == FilterKind.MAP ? "map" : "filter", family);
        }
    }

    @Test
    void aValuedFilterOpensAsItsOwnFamilyAndAnswersAsTheFixedFilterUnderIt() throws IOException {
        Path file = dir.resolve("labels.bloom");
        try (ValuedFilter labels = ValuedFilter.create(file, 1_000, 0.01, 3, ValuedFilter.Keep.MAX)) {
            labels.put("key-7", 5);
            labels.filter().seal();
        }
        try (StoredFile stored = StoredFile.open(file)) {
            assertEquals(FilterKind.FIXED, stored.kind(), "a valued filter's file is a fixed filter's");
            assertEquals(Files.size(file), stored.fileBytes());
            assertTrue(stored.shape() instanceof FilterShape.Fixed, "the shape of the fixed filter under it");
            assertTrue(stored.shape().sealed());
            assertEquals(CellsCheck.INTACT, stored.verify());
            long value = stored.match(filter -> -1L, valued -> {
                assertSame(stored, valued);
                assertEquals(file, valued.filter().path());
                return valued.get("key-7").orElseThrow();
            }, map -> -2L);
            assertEquals(5, value, "the valued family's own call, reached by match");
        }
        try (MembershipFilter asFilter = MembershipFilter.open(file, OpenMode.READ_ONLY)) {
            assertEquals("filter", asFilter.match(filter -> "filter", valued -> "valued", map -> "map"),
                    "opened as a filter, a valued file is one: its cells answer membership");
        }
    }

    @Test
    void aMapsDamagedTableIsFoundByTheCommonVerify() throws IOException {
        Path file = fileOf(FilterKind.MAP);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            channel.read(b, MapHeader.TABLE_START + 100);
            channel.write(ByteBuffer.wrap(new byte[] {(byte) (b.get(0) ^ 1)}), MapHeader.TABLE_START + 100);
        }
        try (StoredFile stored = StoredFile.open(file)) {
            assertEquals(Problem.CELLS_CHECKSUM, assertThrows(InvalidFilterFileException.class, stored::verify).problem());
        }
    }

    @Test
    void aFilterOnlyOpenStillRefusesAMapAndAMissingFileIsReportedAsSuch() throws IOException {
        Path map = fileOf(FilterKind.MAP);
        InvalidFilterFileException refused = assertThrows(InvalidFilterFileException.class,
                () -> MembershipFilter.open(map, OpenMode.READ_ONLY));
        assertEquals(Problem.UNSUPPORTED_VERSION, refused.problem());
        assertThrows(NoSuchFileException.class, () -> StoredFile.open(dir.resolve("missing.bloom")));
    }
}
