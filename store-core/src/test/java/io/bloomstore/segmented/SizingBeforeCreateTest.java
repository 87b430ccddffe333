package io.bloomstore.segmented;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.SegmentedStats;
import io.bloomstore.CreateOption;
import io.bloomstore.GrowingBloomFilter;
import io.bloomstore.GrowingSpec;
import io.bloomstore.Layout;
import io.bloomstore.WindowSpec;
import io.bloomstore.WindowedBloomFilter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The sizing a file can be asked for before it exists ({@link BloomSpec#fileBytes},
 * {@link GrowingSpec#segmentSpec}, {@link GrowingSpec#fileBytes}, {@link GrowingSpec#segmentsFor},
 * {@link WindowSpec#slotSpec}, {@link WindowSpec#fileBytes}) is what creating and growing it makes.
 */
class SizingBeforeCreateTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Layout.class, names = {"SBBF", "GUAVA", "SPARK_SKETCH"}, mode = EnumSource.Mode.EXCLUDE)
    void aFixedFileIsAsLongAsItsSpecSays(Layout layout) throws IOException {
        for (int width : layout == Layout.SECTORIZED ? new int[] {1} : new int[] {1, 4, 32}) { // sectorized: 1-bit cells only
            BloomSpec spec = BloomSpec.builder().expectedKeys(30_000).fpp(0.001).layout(layout).counterBits(width).build();
            for (CreateOption[] options : new CreateOption[][] {{}, {CreateOption.SPARSE}}) {
                Path file = dir.resolve(layout + "-" + width + "-" + options.length + ".bloom");
                BloomFilter.create(file, spec, options).close();
                assertEquals(BloomFilter.fileBytes(spec), Files.size(file), spec.toString());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Layout.class, names = {"SBBF", "GUAVA", "SPARK_SKETCH"}, mode = EnumSource.Mode.EXCLUDE)
    void aGrowingFileIsAsLongAsItsSpecSaysAtEachSegment(Layout layout) throws IOException {
        GrowingSpec spec = GrowingSpec.of(5_000, 0.01).withLayout(layout);
        Path file = dir.resolve("g.bloom");
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(file, spec)) {
            assertEquals(spec.fileBytes(1), Files.size(file));
            filter.grow();
            filter.grow();
            assertEquals(spec.fileBytes(3), Files.size(file));
            SegmentedStats stats = filter.stats();
            for (int i = 0; i < 3; i++) {
                BloomSpec segment = spec.segmentSpec(i);
                assertEquals(stats.parts().get(i).cells(), segment.cells());
                assertEquals(stats.parts().get(i).hashes(), segment.hashes());
                assertEquals(stats.parts().get(i).capacity(), segment.expectedKeys());
                assertEquals(segment.expectedKeys(), spec.segmentKeys(i));
            }
        }
    }

    /** The newest segment is full, and the next added, when it counts as many keys as it was sized for. */
    @Test
    void segmentsForCountsTheFullSegmentsAndTheNewest() {
        GrowingSpec doubling = GrowingSpec.of(1_000, 0.01);
        assertEquals(1, doubling.segmentsFor(0));
        assertEquals(1, doubling.segmentsFor(999));
        assertEquals(2, doubling.segmentsFor(1_000));
        assertEquals(2, doubling.segmentsFor(2_999));
        assertEquals(3, doubling.segmentsFor(3_000));
        GrowingSpec equal = GrowingSpec.of(1, 0.01).withGrowthFactor(1);
        int table = GrowingSpec.maxSegments();
        assertEquals(table, equal.segmentsFor(table - 1));
        assertEquals(table + 1, equal.segmentsFor(table), "past the table");
        assertEquals(table + 1, doubling.segmentsFor(Long.MAX_VALUE), "past the table, without overflow");
        assertThrows(IllegalArgumentException.class, () -> GrowingSpec.of(0, 0.01).segmentsFor(1));
    }

    @ParameterizedTest
    @EnumSource(value = Layout.class, names = {"SBBF", "GUAVA", "SPARK_SKETCH"}, mode = EnumSource.Mode.EXCLUDE)
    void aWindowedFileIsAsLongAsItsSpecSays(Layout layout) throws IOException {
        WindowSpec spec = WindowSpec.of(40_000, 0.01, Duration.ofHours(1)).withEpochs(4).withLayout(layout);
        Path file = dir.resolve("w.bloom");
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(file, spec, Clock.systemUTC())) {
            assertEquals(spec.fileBytes(), Files.size(file));
            SegmentedStats stats = filter.stats();
            assertEquals(5, stats.parts().size());
            assertEquals(stats.parts().get(4).cells(), spec.slotSpec().cells());
            assertEquals(10_000, spec.slotSpec().expectedKeys());
        }
        assertThrows(IllegalArgumentException.class, () -> spec.withEpochs(65).fileBytes());
    }
}
