package io.bloomstore;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.internal.cells.CellArray;
import io.bloomstore.internal.format.FilterFixtures;
import io.bloomstore.internal.hashing.ProbeMath;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sectorized layout (docs/FORMAT.md, "Sectorized layout"): where a key's bits go, that its
 * filters measure the rate its model predicts and meet the p they are sized for, and that every
 * operation on a file (merge, pack, verify, estimates, batch calls, growing and windowed files)
 * takes it. The cells' exact positions are checked against FORMAT.md's vectors by
 * {@code FormatDocumentTest}; concurrent adds by {@code ConcurrentUpdatesTest}.
 */
class SectorizedLayoutTest {
    /** Binomial standard deviations allowed, as in {@link FalsePositiveRateTest}. */
    private static final double SIGMAS = 5;
    /**
     * Relative error allowed to the model on top of the sampling noise: the filter is one random
     * draw (its fill spreads by about 0.1% at a million cells, its rate by k times that) and the
     * model's Poisson line loads stand for binomial ones (a relative O(1/lines)): 3% covers both,
     * as in {@link FalsePositiveRateTest}, where a layout whose bits correlate misses by tens of %.
     */
    private static final double MODEL_ERROR = 0.03;
    private static final int KEYS = 100_000;

    @TempDir
    Path dir;

    private static BloomSpec.Builder sectorized() {
        return BloomSpec.builder().layout(Layout.SECTORIZED);
    }

    @Test
    void sectorsAndBitsFollowFromK() {
        int[][] kToSectors = {{1, 1}, {2, 1}, {3, 1}, {4, 2}, {5, 1}, {6, 3}, {8, 4}, {9, 3}, {10, 5}, {12, 6},
                {14, 7}, {16, 8}, {18, 6}, {24, 8}, {64, 8}};
        for (int[] pair : kToSectors) {
            assertEquals(pair[1], ProbeMath.sectors(pair[0]), "S for k = " + pair[0]);
        }
    }

    /**
     * Each key sets bits in exactly S distinct words of one line (b or fewer in each: two draws of
     * a word may coincide), nowhere else; adding it again reports it present and changes nothing.
     */
    @ParameterizedTest(name = "k={0}")
    @ValueSource(ints = {4, 6, 9, 16})
    void aKeySetsItsBitsInSDistinctWordsOfOneLine(int k) throws Exception {
        int sectors = ProbeMath.sectors(k);
        BloomSpec spec = sectorized().cells(8 * BloomSpec.BLOCK_BITS).hashes(k).build();
        SplittableRandom random = new SplittableRandom(k);
        for (int key = 0; key < 40; key++) {
            Path file = dir.resolve("one-key-" + key + ".bloom");
            try (BloomFilter filter = BloomFilter.create(file, spec)) {
                long value = random.nextLong();
                assertTrue(filter.add(value), "new to an empty filter");
                long[] words = words(filter);
                int used = 0;
                int bits = 0;
                long line = -1;
                for (int w = 0; w < words.length; w++) {
                    if (words[w] != 0) {
                        used++;
                        bits += Long.bitCount(words[w]);
                        assertTrue(Long.bitCount(words[w]) <= k / sectors, "at most b bits in a sector");
                        assertTrue(line == -1 || line == w / 8, "all sectors in one line");
                        line = w / 8;
                    }
                }
                assertEquals(sectors, used, "S distinct words");
                assertTrue(bits >= sectors && bits <= k, bits + " bits");
                assertFalse(filter.add(value), "a repeated key is reported present");
                assertArrayEquals(words, words(filter), "a repeated key changes nothing");
                assertTrue(filter.mightContain(value));
            }
        }
    }

    private static long[] words(BloomFilter filter) {
        CellArray cells = CellsAccess.cells(filter);
        long[] words = new long[(int) cells.words()];
        for (int w = 0; w < words.length; w++) {
            words[w] = cells.getWordVolatile(w);
        }
        return words;
    }

    @Test
    void countingCellsAreRefusedWithAClearMessage() {
        IllegalArgumentException sized = assertThrows(IllegalArgumentException.class,
                () -> sectorized().counterBits(4).expectedKeys(1000).fpp(0.01).build());
        assertTrue(sized.getMessage().contains("1-bit") && sized.getMessage().contains("blocked"), sized.getMessage());
        assertThrows(IllegalArgumentException.class, () -> sectorized().counterBits(2).cells(4096).hashes(6).build());
    }

    @Test
    void givenCellsAreRoundedUpToWholeLines() {
        assertEquals(1024, sectorized().cells(513).hashes(6).build().cells());
    }

    /** At p = 1% the search lands on 3 sectors of 2 bits, as the layout's authors found. */
    @Test
    void onePercentIsThreeSectorsOfTwoBits() {
        BloomSpec spec = sectorized().expectedKeys(1_000_000).fpp(0.01).build();
        assertEquals(6, spec.hashes(), spec.toString());
        assertEquals(3, ProbeMath.sectors(spec.hashes()));
        assertTrue(spec.expectedFpp(1_000_000) <= 0.01);
        BloomSpec blocked = BloomSpec.builder().layout(Layout.BLOCKED).expectedKeys(1_000_000).fpp(0.01).build();
        System.out.printf(Locale.ROOT, "SIZING p=0.01: sectorized %.3f bits/key k=%d, blocked %.3f bits/key k=%d%n",
                spec.cells() / 1e6, spec.hashes(), blocked.cells() / 1e6, blocked.hashes());
    }

    /**
     * At a given number of bits per key, with the k the model finds best there, the measured rate
     * is the model's within binomial noise; blocked at the same size is printed for comparison.
     */
    @ParameterizedTest(name = "{0} bits per key")
    @ValueSource(ints = {8, 10, 12, 16})
    void measuredRateMatchesTheModelAtBitsPerKey(int bitsPerKey) throws Exception {
        long cells = (long) bitsPerKey * KEYS;
        BloomSpec best = null;
        for (int k = 2; k <= 16; k++) {
            BloomSpec spec = sectorized().cells(cells).hashes(k).build();
            if (best == null || spec.expectedFpp(KEYS) < best.expectedFpp(KEYS)) {
                best = spec;
            }
        }
        BloomSpec blocked = BloomSpec.builder().layout(Layout.BLOCKED).cells(best.cells()).hashes(best.hashes()).build();
        double measured = measure(best);
        double blockedRate = measure(blocked);
        double model = best.expectedFpp(KEYS);
        String report = String.format(Locale.ROOT,
                "SECTORIZED %d bits/key: k=%d (S=%d) measured %.6f model %.6f (measured/model %.4f) over %d queries;"
                        + " blocked same m, k: measured %.6f (sectorized/blocked %.3f)",
                bitsPerKey, best.hashes(), ProbeMath.sectors(best.hashes()), measured, model, measured / model,
                queries(model), blockedRate, measured / blockedRate);
        System.out.println(report);
        assertNear(model, measured, queries(model), report);
    }

    /** A filter sized for p by {@code expectedKeys(n).fpp(p)} delivers p, and the rate its model says. */
    @ParameterizedTest(name = "p={0}")
    @ValueSource(doubles = {0.01, 0.001})
    void sizedFilterMeetsItsTarget(double p) throws Exception {
        BloomSpec spec = sectorized().expectedKeys(KEYS).fpp(p).build();
        double measured = measure(spec);
        double model = spec.expectedFpp(KEYS);
        int queries = queries(p);
        double tolerance = SIGMAS * RandomKeys.binomialSigma(p, queries);
        String report = String.format(Locale.ROOT,
                "SECTORIZED sized for p=%s: m=%d (%.3f bits/key) k=%d; measured %.6f, model %.6f, measured/p %.4f",
                p, spec.cells(), (double) spec.cells() / KEYS, spec.hashes(), measured, model, measured / p);
        System.out.println(report);
        assertAll(report,
                () -> assertNear(model, measured, queries, report),
                () -> assertTrue(measured <= p + tolerance, "more than p: " + report));
    }

    private static int queries(double rate) {
        return (int) Math.min(8_000_000, Math.max(1_000_000, 8_000 / rate));
    }

    private double measure(BloomSpec spec) throws Exception {
        Path file = dir.resolve("fpr-" + spec.layout() + ".bloom");
        try (BloomFilter filter = BloomFilter.create(file, spec, CreateOption.REPLACE_EXISTING)) {
            RandomKeys.addMembers(filter, 0x5EED_0001L, KEYS);
            return RandomKeys.falsePositiveRate(filter, 0x5EED_0002L, queries(spec.expectedFpp(KEYS)));
        }
    }

    private static void assertNear(double model, double measured, int queries, String report) {
        double allowed = SIGMAS * RandomKeys.binomialSigma(model, queries) + MODEL_ERROR * model;
        assertTrue(Math.abs(measured - model) <= allowed,
                "measured " + measured + " against the model's " + model + " (allowed " + allowed + "): " + report);
    }

    /** The key count estimate of stats() is near the keys added, and its rate near the model's. */
    @Test
    void statsEstimateTheKeysAndTheRate() throws Exception {
        BloomSpec spec = sectorized().expectedKeys(KEYS).fpp(0.01).build();
        try (BloomFilter filter = BloomFilter.create(dir.resolve("stats.bloom"), spec)) {
            RandomKeys.addMembers(filter, 7, KEYS);
            CellArrayStats stats = filter.stats();
            assertEquals(KEYS, stats.estimatedKeys(), KEYS * 0.01, stats.toString());
            assertEquals(spec.expectedFpp(KEYS), stats.currentFpp(), spec.expectedFpp(KEYS) * 0.05, stats.toString());
        }
    }

    /** Two filters of half-overlapping keys: union, intersection and Jaccard estimated within 2%. */
    @Test
    void setEstimatesOfTwoFilters() throws Exception {
        BloomSpec spec = sectorized().expectedKeys(2 * KEYS).fpp(0.01).build();
        try (BloomFilter a = BloomFilter.create(dir.resolve("a.bloom"), spec);
                BloomFilter b = BloomFilter.create(dir.resolve("b.bloom"), spec)) {
            for (long key = 0; key < KEYS; key++) {
                a.add(key);
                b.add(key + KEYS / 2);
            }
            SetEstimates estimates = SetEstimates.of(a, b);
            assertEquals(1.5 * KEYS, estimates.union(), 0.02 * 1.5 * KEYS, estimates.toString());
            assertEquals(0.5 * KEYS, estimates.intersection(), 0.02 * 1.5 * KEYS, estimates.toString());
            assertEquals(1.0 / 3, estimates.jaccard(), 0.02, estimates.toString());
        }
    }

    /** The batch calls set the same cells as single adds and answer as single queries do. */
    @Test
    void batchCallsAgreeWithSingleCalls() throws Exception {
        BloomSpec spec = sectorized().expectedKeys(KEYS).fpp(0.01).build();
        long[] keys = new SplittableRandom(3).longs(KEYS).toArray();
        try (BloomFilter single = BloomFilter.create(dir.resolve("single.bloom"), spec);
                BloomFilter batch = BloomFilter.create(dir.resolve("batch.bloom"), spec)) {
            int newBySingle = 0;
            for (long key : keys) {
                newBySingle += single.add(key) ? 1 : 0;
            }
            assertEquals(newBySingle, batch.addAll(keys));
            FilterAssertions.assertSameCells(single, batch);
            long[] queries = new SplittableRandom(4).longs(KEYS).toArray();
            boolean[] results = new boolean[KEYS];
            int present = batch.mightContainAll(queries, results);
            int expected = 0;
            for (int i = 0; i < KEYS; i++) {
                assertEquals(single.mightContain(queries[i]), results[i], "query " + i);
                expected += results[i] ? 1 : 0;
            }
            assertEquals(expected, present);
            assertEquals(KEYS, batch.mightContainAll(keys, new boolean[KEYS]), "every added key is present");
        }
    }

    /**
     * Merge takes two sectorized files (OR holds both key sets) and refuses a blocked one of the
     * same m and k; pack and unpack restore the same cells; verify passes on a sealed file.
     */
    @Test
    void mergePackAndVerify() throws Exception {
        BloomSpec spec = sectorized().expectedKeys(KEYS).fpp(0.01).build();
        Path a = FilterFixtures.filterWithKeys(dir.resolve("a.bloom"), spec, LongStream.range(0, KEYS / 2));
        Path b = FilterFixtures.filterWithKeys(dir.resolve("b.bloom"), spec, LongStream.range(KEYS / 2, KEYS));
        Path union = dir.resolve("union.bloom");
        Merge.toNewFile(union, List.of(a, b), MergeOp.OR);
        try (BloomFilter merged = BloomFilter.open(union, OpenMode.READ_ONLY)) {
            assertEquals(Layout.SECTORIZED, merged.spec().layout());
            FilterAssertions.assertEveryKeyPresent(merged, 0, KEYS);
        }
        BloomSpec blockedTwin = BloomSpec.builder().layout(Layout.BLOCKED).cells(spec.cells()).hashes(spec.hashes()).build();
        Path blocked = FilterFixtures.filterWithKeys(dir.resolve("blocked.bloom"), blockedTwin, LongStream.range(0, 10));
        InvalidFilterFileException refused = assertThrows(InvalidFilterFileException.class,
                () -> Merge.toNewFile(dir.resolve("mixed.bloom"), List.of(a, blocked), MergeOp.OR));
        assertTrue(refused.getMessage().contains("layout: sectorized vs blocked"), refused.getMessage());

        ByteArrayOutputStream packed = new ByteArrayOutputStream();
        Pack.pack(union, packed);
        Path restored = dir.resolve("restored.bloom");
        Pack.unpack(new ByteArrayInputStream(packed.toByteArray()), "memory", restored);
        try (BloomFilter original = BloomFilter.open(union, OpenMode.READ_WRITE);
                BloomFilter copy = BloomFilter.open(restored, OpenMode.READ_ONLY)) {
            FilterAssertions.assertSameCells(original, copy);
            original.seal();
            assertEquals(CellsCheck.INTACT, original.verify());
        }
    }

    /** A growing file of sectorized segments: each segment sectorized, every key found after growth. */
    @Test
    void growingFileOfSectorizedSegments() throws Exception {
        GrowingSpec spec = GrowingSpec.of(2_000, 0.01).withLayout(Layout.SECTORIZED);
        Path file = dir.resolve("growing.bloom");
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(file, spec)) {
            for (long key = 0; key < 20_000; key++) {
                filter.add(key);
            }
            assertTrue(filter.segmentCount() > 1, "grew");
        }
        try (GrowingBloomFilter filter = GrowingBloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertEquals(Layout.SECTORIZED, filter.spec().layout());
            for (long key = 0; key < 20_000; key++) {
                assertTrue(filter.mightContain(key), "key " + key);
            }
            int falsePositives = 0;
            for (long key = 1L << 40; key < (1L << 40) + 100_000; key++) {
                falsePositives += filter.mightContain(key) ? 1 : 0;
            }
            assertTrue(falsePositives < 100_000 * 0.01 + 5 * Math.sqrt(100_000 * 0.01), falsePositives + " false positives");
        }
    }

    /**
     * A windowed file of sectorized slots: keys added over every epoch of a window, so the query
     * asks several slots in lockstep, are all found, and absent keys match at about p.
     */
    @Test
    void windowedFileOfSectorizedSlots() throws Exception {
        WindowSpec spec = WindowSpec.of(10_000, 0.01, Duration.ofHours(1)).withLayout(Layout.SECTORIZED);
        long epochMillis = spec.window().toMillis() / spec.epochs();
        long perEpoch = spec.expectedKeys() / spec.epochs();
        long[] now = {Instant.parse("2026-01-01T00:00:00Z").toEpochMilli()};
        Clock clock = new Clock() {
            @Override
            public long millis() {
                return now[0];
            }

            @Override
            public Instant instant() {
                return Instant.ofEpochMilli(now[0]);
            }

            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }
        };
        Path file = dir.resolve("windowed.bloom");
        long keys = perEpoch * (spec.epochs() - 1);
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(file, spec, clock)) {
            for (long key = 0; key < keys; key++) {
                if (key > 0 && key % perEpoch == 0) {
                    now[0] += epochMillis;
                }
                filter.add(key);
            }
        }
        try (WindowedBloomFilter filter = WindowedBloomFilter.open(file, OpenMode.READ_ONLY, clock)) {
            assertEquals(Layout.SECTORIZED, filter.spec().layout());
            int falsePositives = 0;
            for (long key = 0; key < keys; key++) {
                assertTrue(filter.mightContain(key), "key " + key);
                falsePositives += filter.mightContain(key + (1L << 40)) ? 1 : 0;
            }
            assertTrue(falsePositives < keys * 0.01 + 5 * Math.sqrt(keys * 0.01),
                    falsePositives + " false positives among " + keys);
        }
    }
}
