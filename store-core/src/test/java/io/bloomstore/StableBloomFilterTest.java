package io.bloomstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.internal.math.StableFilterMath;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stable filter on a real file against Deng &amp; Rafiei's analysis: a stream of distinct keys
 * many times the filter's size, decrements drawn from a fixed seed, and the measured stable
 * false-positive rate, false-negative rate by distance and lifetime held to the model
 * (internal.math.StableFilterMath) within binomial tolerances.
 */
class StableBloomFilterTest {
    /** Six standard deviations: a correct filter fails this about once in 10^9 runs. */
    private static final double SIGMAS = 6;

    @TempDir
    Path dir;

    @Test
    void sizingMeetsTheTargetAndTheLifetime() {
        StableSpec byLifetime = StableSpec.forLifetime(100_000, 0.01, 2);
        assertTrue(byLifetime.stableFpp() <= 0.01, "stable rate " + byLifetime.stableFpp());
        assertTrue(byLifetime.expectedLifetime() >= 100_000 && byLifetime.expectedLifetime() < 101_500,
                "lifetime " + byLifetime.expectedLifetime());
        StableSpec bySize = StableSpec.forBytes(1 << 20, 0.001, 4);
        assertEquals(((1 << 20) - 4096) * 2, bySize.spec().cells());
        assertTrue(bySize.stableFpp() <= 0.001, "stable rate " + bySize.stableFpp());
        // the paper's P, rounded up, is the fewest decrements that meet the target
        StableFilterMath fewer = new StableFilterMath(bySize.spec().cells(), bySize.spec().hashes(), 4, bySize.decrements() - 1);
        assertTrue(fewer.stableFpp() > 0.001, "P - 1 gives " + fewer.stableFpp());
        assertThrows(IllegalArgumentException.class, () -> StableSpec.forBytes(5000, 0.01, 8));
        long bytes = BloomFilter.fileBytes(StableSpec.forBytes(1_000_000, 0.01, 4).spec());
        assertTrue(bytes <= 1_000_000 && bytes > 1_000_000 - 4096, bytes + " bytes for a size of 1,000,000");
    }

    @Test
    void measuredStableRateAndForgettingFollowTheModel() throws Exception {
        StableSpec spec = StableSpec.forBytes(4096 + 16384, 0.02, 2); // 65536 cells of 2 bits
        long m = spec.spec().cells();
        double lifetime = spec.expectedLifetime();
        try (BloomFilter filter = BloomFilter.createStable(dir.resolve("stable.bloom"), spec)) {
            filter.seedDecrements(42);
            long added = 0;
            // warm up to the stable point: 20 m adds, many lifetimes
            for (; added < 20 * m; added++) {
                filter.add(added);
            }
            long falsePositives = 0;
            long fpQueries = 0;
            int[] distances = {(int) (lifetime / 8), (int) (lifetime / 2), (int) lifetime, (int) (2 * lifetime),
                    (int) (4 * lifetime)};
            long[] absent = new long[distances.length];
            long[] asked = new long[distances.length];
            double[] modelAbsent = new double[distances.length];
            int bucket = 200;
            double lifetimeSum = 0;
            int snapshots = 0;
            double floor = spec.stableFpp();
            // snapshots a stretch of adds apart, so their samples share few cells' histories
            for (int snapshot = 0; snapshot < 12; snapshot++) {
                for (long end = added + 3L * (long) (4 * lifetime); added < end; added++) {
                    filter.add(added);
                }
                for (long q = 0; q < 20_000; q++) {
                    fpQueries++;
                    falsePositives += filter.mightContain(-1 - (snapshot * 1_000_000L + q)) ? 1 : 0;
                }
                for (int d = 0; d < distances.length; d++) {
                    for (int j = 0; j < bucket; j++) {
                        long distance = distances[d] + j; // adds after the key's own
                        asked[d]++;
                        absent[d] += filter.mightContain(added - 1 - distance) ? 0 : 1;
                        modelAbsent[d] += spec.falseNegativeRate(distance);
                    }
                }
                double sum = 0;
                for (long t = 1; t <= 8 * lifetime; t++) {
                    sum += ((filter.mightContain(added - 1 - t) ? 1 : 0) - floor) / (1 - floor);
                }
                lifetimeSum += sum;
                snapshots++;
            }
            double fpModel = spec.stableFpp();
            double fpMeasured = (double) falsePositives / fpQueries;
            System.out.printf("stable filter m=%d k=%d d=2 P=%d: stable FP model %.5f measured %.5f (%d queries)%n",
                    m, spec.spec().hashes(), spec.decrements(), fpModel, fpMeasured, fpQueries);
            assertWithin(fpMeasured, fpModel, fpQueries, "stable false-positive rate");
            for (int d = 0; d < distances.length; d++) {
                double model = modelAbsent[d] / asked[d];
                double measured = (double) absent[d] / asked[d];
                System.out.printf("  distance %d (%.2f lifetimes): FN model %.4f measured %.4f (%d keys)%n", distances[d],
                        distances[d] / lifetime, model, measured, asked[d]);
                assertWithin(measured, model, asked[d], "false-negative rate at distance " + distances[d]);
            }
            double measuredLifetime = lifetimeSum / snapshots;
            System.out.printf("  lifetime model %.0f measured %.0f adds%n", lifetime, measuredLifetime);
            assertEquals(lifetime, measuredLifetime, 0.1 * lifetime, "expected lifetime");
            double zeros = 1 - filter.stats().fillRatio();
            assertEquals(spec.stableZeroFraction(), zeros, 0.02, "fraction of zero cells at the stable point");
        }
    }

    /**
     * |measured - model| within {@link #SIGMAS} binomial standard deviations of {@code n} trials,
     * plus 0.01 for the model's independence assumption (a key's k cells and the run's neighbours).
     */
    private static void assertWithin(double measured, double model, long n, String what) {
        double sigma = Math.sqrt(Math.max(model * (1 - model), 1.0 / n) / n);
        assertEquals(model, measured, SIGMAS * sigma + 0.01, what);
    }

    @Test
    void aKeyJustAddedIsPresentAndARepeatIsNotNew() throws Exception {
        try (BloomFilter filter = BloomFilter.createStable(dir.resolve("s.bloom"), StableSpec.forLifetime(10_000, 0.01, 1))) {
            for (int i = 0; i < 100_000; i++) {
                filter.add("k" + i); // new, or (rarely) a false positive
                assertTrue(filter.mightContain("k" + i), "the key just added");
                assertFalse(filter.add("k" + i), "a repeat at distance 0");
            }
            assertThrows(UnsupportedOperationException.class, () -> filter.remove("k1"));
            assertTrue(filter.stableSpec().isPresent());
        }
    }

    /** A stable file's adds lower cells uncounted: a checkpoint must not take its copy for the newer file. */
    @Test
    void aCheckpointOfAStableFileGoesForwardThoughItsCellsFall() throws Exception {
        Path live = dir.resolve("live.bloom");
        Path copy = dir.resolve("copy.bloom");
        try (BloomFilter filter = BloomFilter.createStable(live, StableSpec.forBytes(4096 + 4096, 0.05, 2))) {
            for (int i = 0; i < 50_000; i++) {
                filter.add(i);
            }
            Checkpoint.write(live, copy);
            for (int i = 50_000; i < 100_000; i++) {
                filter.add(i);
            }
            Checkpoint.write(live, copy);
            byte[] ours = java.nio.file.Files.readAllBytes(live);
            byte[] theirs = java.nio.file.Files.readAllBytes(copy);
            assertTrue(java.util.Arrays.equals(ours, 4096, ours.length, theirs, 4096, theirs.length), "the copy's cells are the live file's");
        }
    }

    @Test
    void stableFiltersDoNotMerge() throws Exception {
        StableSpec spec = StableSpec.forLifetime(1000, 0.01, 2);
        BloomFilter.createStable(dir.resolve("a"), spec).close();
        BloomFilter.createStable(dir.resolve("b"), spec).close();
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class,
                () -> Merge.toNewFile(dir.resolve("c"), java.util.List.of(dir.resolve("a"), dir.resolve("b")), MergeOp.OR));
        assertTrue(e.getMessage().contains("stable filters do not merge"), e.getMessage());
    }
}
