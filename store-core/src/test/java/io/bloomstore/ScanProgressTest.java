package io.bloomstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The progress callbacks of the whole-filter scans (stats, verify, SetEstimates): they report
 * bytes of cells, rising, several times over a filter of several scan steps, ending at the cells'
 * length; and the scan's result is the same with or without one.
 */
class ScanProgressTest {
    /** 200 M one-bit cells: 24 MiB of cells, three scan steps and a part (created sparse: no disk used). */
    private static final BloomSpec SPEC = BloomSpec.builder().cells(200_000_000).hashes(7).build();

    @TempDir
    Path dir;

    @Test
    void scansReportRisingBytesUpToTheCellsLength() throws Exception {
        try (BloomFilter a = BloomFilter.create(dir.resolve("a.bloom"), SPEC, CreateOption.SPARSE);
                BloomFilter b = BloomFilter.create(dir.resolve("b.bloom"), SPEC, CreateOption.SPARSE)) {
            RandomKeys.addMembers(a, 0x5CA0_0001L, 10_000);
            RandomKeys.addMembers(b, 0x5CA0_0002L, 10_000);
            a.seal();
            long length = a.info().cellsLength();

            List<Long> statsSteps = new ArrayList<>();
            assertEquals(a.stats().setCells(), a.stats(statsSteps::add).setCells());
            assertRisesTo(length, statsSteps);

            List<Long> verifySteps = new ArrayList<>();
            assertTrue((a.verify(verifySteps::add) == CellsCheck.INTACT), "sealed: the cells were checked");
            assertRisesTo(length, verifySteps);

            List<Long> estimateSteps = new ArrayList<>();
            assertEquals(SetEstimates.of(a, b), SetEstimates.of(a, b, estimateSteps::add));
            assertRisesTo(length, estimateSteps);
        }
    }

    /** A growing file's scan goes through its segments in order, ending at the file's size. */
    @Test
    void aGrowingFilesScanRisesToItsSize() throws Exception {
        try (GrowingBloomFilter growing = GrowingBloomFilter.create(dir.resolve("g.bloom"), GrowingSpec.of(1_000, 0.01))) {
            for (long key = 0; key < 20_000; key++) {
                growing.add(key);
            }
            List<Long> steps = new ArrayList<>();
            SegmentedStats stats = growing.stats(steps::add);
            assertEquals(growing.stats().parts(), stats.parts());
            assertTrue(stats.parts().size() >= 3, "segments: " + stats.parts().size());
            assertRisesTo(java.nio.file.Files.size(growing.path()), steps);
        }
    }

    private static void assertRisesTo(long length, List<Long> steps) {
        assertTrue(steps.size() >= 3, "reported during the scan, not only at its end: " + steps);
        for (int i = 1; i < steps.size(); i++) {
            assertTrue(steps.get(i) > steps.get(i - 1), "rising: " + steps);
        }
        assertEquals(length, steps.get(steps.size() - 1), "ends at the cells' length: " + steps);
    }
}
