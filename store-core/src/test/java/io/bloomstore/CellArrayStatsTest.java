package io.bloomstore;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.internal.cells.CellArray;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link BloomFilter#stats()} against what the filter really holds and really does. */
class CellArrayStatsTest {
    private static final int KEYS = 100_000;
    private static final int QUERIES = 1_000_000;
    /**
     * The Swamidass-Baldi estimate from a filter's fill spreads by a relative
     * sqrt(e^(kn/m) - 1 - kn/m) / (kn/m) / sqrt(m), about 0.1% at these sizes: 2% is 20 sigma and
     * leaves room only for a biased estimator.
     */
    private static final double KEY_ESTIMATE_ERROR = 0.02;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{1}-bit cells, {0}")
    @CsvSource({"STANDARD, 1", "BLOCKED, 1", "STANDARD, 4", "BLOCKED, 8", "BLOCKED, 32"})
    void statsDescribeTheFilter(Layout layout, int bits) throws Exception {
        BloomSpec spec = BloomSpec.builder().expectedKeys(KEYS).fpp(0.01).counterBits(bits).layout(layout).build();
        try (BloomFilter filter = BloomFilter.create(dir.resolve("stats.bloom"), spec)) {
            long reportedNew = RandomKeys.addMembers(filter, 0x5747_0001L, KEYS);
            CellArrayStats stats = filter.stats();
            long setCells = nonZeroCells(filter.cells());
            double measuredFpp = RandomKeys.falsePositiveRate(filter, 0x5747_0002L, QUERIES);
            String report = String.format(Locale.ROOT, "%s w=%d m=%d k=%d: %s; %d adds reported new; %d cells set;"
                    + " measured fpp %.6f", layout, bits, spec.cells(), spec.hashes(), stats, reportedNew, setCells,
                    measuredFpp);
            System.out.println("STATS " + report);
            assertAll(report,
                    () -> assertEquals(spec.cells(), stats.cells(), "cells"),
                    () -> assertEquals(setCells, stats.setCells(), "set cells"),
                    () -> assertEquals((double) setCells / spec.cells(), stats.fillRatio(), 1e-12, "fill ratio"),
                    () -> assertEquals(reportedNew, stats.approximateInsertions(),
                            "insertions recorded: the adds that reported a new key"),
                    () -> assertEquals(KEYS, stats.estimatedKeys(), KEYS * KEY_ESTIMATE_ERROR, "estimated keys"),
                    () -> assertTrue(Math.abs(stats.currentFpp() - measuredFpp)
                                    <= FalsePositiveRateTest.tolerance(measuredFpp, QUERIES),
                            "current fpp " + stats.currentFpp() + " against a measured " + measuredFpp));
        }
    }

    /** Non-zero cells, counted one cell at a time (independently of the library's word-wise count). */
    private static long nonZeroCells(CellArray cells) {
        long set = 0;
        for (long i = 0; i < cells.cells(); i++) {
            set += cells.getVolatile(i) != 0 ? 1 : 0;
        }
        return set;
    }
}
