package io.bloomstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.tools.UnmappedQueries;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The one management contract of {@link MembershipFilter}: every kind, opened by
 * {@link MembershipFilter#open}, answers the same questions, and its own detail comes as the
 * record of its kind.
 */
class FilterContractTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    private static final int KEYS = 3_000;

    @TempDir
    Path dir;

    /** Creates a file of {@code kind} holding {@link #KEYS} keys, closed. */
    private Path fileOf(FilterKind kind) throws IOException {
        Path file = dir.resolve(kind + ".bloom");
        try (MembershipFilter filter = switch (kind) {
            case FIXED -> BloomFilter.create(file, BloomSpec.forExpected(10_000, 0.01));
            case GROWING -> GrowingBloomFilter.create(file, GrowingSpec.of(1_000, 0.01));
            case WINDOWED -> WindowedBloomFilter.create(file, WindowSpec.of(100_000, 0.01, Duration.ofHours(1)), CLOCK);
            case MAP -> throw new IllegalArgumentException("a Bloomier map is not a filter (BloomierMapTest)");
        }) {
            for (int i = 0; i < KEYS; i++) {
                filter.add("key-" + i);
            }
        }
        return file;
    }

    @ParameterizedTest
    @EnumSource(value = FilterKind.class, names = "MAP", mode = EnumSource.Mode.EXCLUDE) // a map is a file kind, not a filter
    void everyKindAnswersTheSameQuestions(FilterKind kind) throws IOException {
        Path file = fileOf(kind);
        try (MembershipFilter filter = MembershipFilter.open(file, OpenMode.READ_ONLY, CLOCK)) {
            assertEquals(kind, filter.kind());
            FilterShape shape = filter.shape();
            assertEquals(kind, shape.kind());
            assertEquals(Files.size(file), shape.fileBytes());
            assertEquals(Files.size(file), filter.fileBytes());
            Layout byDefault = switch (kind) {
                case FIXED -> Layout.STANDARD;
                case GROWING -> Layout.SECTORIZED;
                default -> Layout.BLOCKED;
            };
            assertEquals(byDefault, shape.layout(), "each kind's default at P = 1%");
            assertEquals(HashAlgorithm.XXH3_64, shape.hashAlgorithm());
            assertEquals(BloomSpec.DEFAULT_SEED, shape.seed());
            assertEquals(0.01, shape.targetFpp());
            assertFalse(shape.sealed(), "made by create, never sealed");

            List<Long> reported = new ArrayList<>();
            FillStats stats = filter.stats(reported::add);
            assertEquals(shape.scanBytes(), reported.get(reported.size() - 1), "the last report is the total a display shows");
            assertTrue(Math.abs(stats.estimatedKeys() - KEYS) < KEYS * 0.05, "estimated " + stats.estimatedKeys());
            assertEquals(KEYS, filter.approximateKeys(), 30, "adds that returned new");
            assertEquals((double) stats.setCells() / stats.cells(), stats.fillRatio());
            assertTrue(stats.currentFpp() > 0 && stats.currentFpp() < 0.01, "rate now " + stats.currentFpp());
            assertEquals(kind == FilterKind.FIXED, stats.parts().isEmpty(), "a file of regions reports each");
            assertFalse(filter.isPastCapacity());
            assertEquals(Optional.empty(), filter.growthRefusal());
            assertEquals(kind == FilterKind.FIXED ? CellsCheck.NOT_SEALED : CellsCheck.LIVE, filter.verify());
            assertEquals(kind == FilterKind.FIXED, filter.asFixed().isPresent());
            if (kind == FilterKind.WINDOWED) {
                assertThrows(IllegalStateException.class, () -> filter.refreshHash(filter.hasher().hash("key-1")),
                        "a refresh adds, which a read-only handle refuses");
            } else {
                assertTrue(filter.refreshHash(filter.hasher().hash("key-1")), "a kind without time answers as a query");
                assertFalse(filter.refreshHash(filter.hasher().hash("never added")));
            }
        }
    }

    @Test
    void eachKindsDetailComesAsItsOwnRecord() throws IOException {
        try (MembershipFilter fixed = MembershipFilter.open(fileOf(FilterKind.FIXED), OpenMode.READ_ONLY, CLOCK);
                MembershipFilter growing = MembershipFilter.open(fileOf(FilterKind.GROWING), OpenMode.READ_ONLY, CLOCK);
                MembershipFilter windowed = MembershipFilter.open(fileOf(FilterKind.WINDOWED), OpenMode.READ_ONLY, CLOCK)) {
            assertEquals("fixed 10000 keys, 0 writers", fixed.shape().map(
                    f -> "fixed " + f.spec().expectedKeys() + " keys, " + f.openWriters() + " writers",
                    g -> "growing", w -> "windowed"));
            assertEquals("growing from 1000, free", growing.shape().map(f -> "fixed",
                    g -> "growing from " + g.spec().expectedKeys() + ", " + g.stepLock(), w -> "windowed"));
            assertEquals("windowed, 9 slots", windowed.shape().map(f -> "fixed", g -> "growing",
                    w -> "windowed, " + w.slots() + " slots"));
            assertSame(fixed, fixed.asFixed().orElseThrow(), "the same handle");
        }
    }

    @Test
    void aSealedFixedFilterIsVerifiedAgainstItsChecksum() throws IOException {
        Path file = fileOf(FilterKind.FIXED);
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_WRITE)) {
            filter.seal();
        }
        try (MembershipFilter filter = MembershipFilter.open(file, OpenMode.READ_ONLY, CLOCK)) {
            assertTrue(filter.shape().sealed());
            List<Long> read = new ArrayList<>();
            assertEquals(CellsCheck.INTACT, filter.verify(read::add));
            assertEquals(filter.shape().scanBytes(), read.get(read.size() - 1));
        }
    }

    @Test
    void onlyAGrowingFilterGrowsAndItsRoomIsCounted() throws IOException {
        try (MembershipFilter growing = MembershipFilter.open(fileOf(FilterKind.GROWING), OpenMode.READ_WRITE, CLOCK);
                MembershipFilter fixed = MembershipFilter.open(fileOf(FilterKind.FIXED), OpenMode.READ_WRITE, CLOCK);
                MembershipFilter windowed = MembershipFilter.open(fileOf(FilterKind.WINDOWED), OpenMode.READ_WRITE, CLOCK)) {
            int before = growing.shape().map(f -> 0, FilterShape.Growing::segments, w -> 0);
            growing.grow();
            assertEquals(before + 1, growing.shape().map(f -> 0, FilterShape.Growing::segments, w -> 0));
            assertEquals(Long.MAX_VALUE, growing.headroom(), "no max size: it can always grow");
            assertEquals(Long.MAX_VALUE, fixed.headroom());
            assertEquals(Long.MAX_VALUE, windowed.headroom());
            assertThrows(UnsupportedOperationException.class, fixed::grow);
            assertThrows(UnsupportedOperationException.class, windowed::grow);
        }
    }

    @Test
    void anUnmappedFixedFilterAnswersTheQuestionsToo() throws IOException {
        Path file = fileOf(FilterKind.FIXED);
        try (MembershipFilter mapped = MembershipFilter.open(file, OpenMode.READ_ONLY, CLOCK);
                MembershipFilter unmapped = UnmappedQueries.open(file)) {
            assertEquals(FilterKind.FIXED, unmapped.kind());
            assertEquals(mapped.shape(), unmapped.shape());
            assertEquals(mapped.stats(), unmapped.stats());
            assertEquals(CellsCheck.NOT_SEALED, unmapped.verify());
            assertTrue(unmapped.mightContain("key-7"), "queries still work once it is mapped for the questions");
        }
    }
}
