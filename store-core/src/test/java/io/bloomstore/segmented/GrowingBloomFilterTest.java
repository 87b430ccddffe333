package io.bloomstore.segmented;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.SegmentedStats;
import io.bloomstore.FilterFullException;
import io.bloomstore.GrowingBloomFilter;
import io.bloomstore.GrowingSpec;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.Layout;
import io.bloomstore.MembershipFilter;
import io.bloomstore.OpenMode;
import io.bloomstore.RegionStats;
import io.bloomstore.WindowSpec;
import io.bloomstore.WindowedBloomFilter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A growing filter in one thread: it grows as its published counts say, every segment has the
 * shape of the sizing rule, no key is lost across growths, the compound false-positive rate stays
 * under P at 100 times the first segment's keys, a size limit refuses growth with a clear error
 * while queries go on, and version 1 files are untouched by all this.
 */
class GrowingBloomFilterTest {
    /** Binomial standard deviations allowed over a bound. */
    private static final double SIGMAS = 4;

    @TempDir
    Path dir;

    @Test
    void growsAsItFillsAndEverySegmentFollowsTheSizingRule() throws Exception {
        GrowingSpec spec = GrowingSpec.of(1000, 0.01);
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(dir.resolve("g.bloom"), spec)) {
            assertEquals(1, filter.segmentCount());
            for (long key = 0; key < 20_000; key++) {
                assertTrue(filter.add(key) || filter.mightContain(key));
            }
            // 1000 + 2000 + 4000 + 8000 hold 15 000 keys: 20 000 need a fifth segment.
            assertEquals(5, filter.segmentCount());
            for (long key = 0; key < 20_000; key++) {
                if (!filter.mightContain(key)) {
                    fail("false negative across growth: key " + key);
                }
            }
            SegmentedStats stats = filter.stats();
            double sum = 0;
            for (RegionStats part : stats.parts()) {
                int i = part.index();
                double p = 0.01 * 0.15 * Math.pow(0.85, i);
                BloomSpec expected = BloomSpec.builder().expectedKeys((long) (1000 * Math.pow(2, i))).fpp(p)
                        .layout(spec.layout()).build();
                assertEquals(expected.cells(), part.cells(), "segment " + i + " cells");
                assertEquals(expected.hashes(), part.hashes(), "segment " + i + " hashes");
                assertEquals(1000L << i, part.capacity(), "segment " + i + " capacity");
                assertEquals(p, part.targetFpp(), 1e-15, "segment " + i + " rate");
                sum += part.currentFpp();
                if (i < 4) {
                    // judged full within four publishing periods (each at most 1/64) of capacity, and not far past it
                    assertTrue(part.publishedKeys() >= part.capacity() - part.capacity() / 16
                                    && part.publishedKeys() < part.capacity() * 1.1,
                            "segment " + i + " published " + part.publishedKeys() + " keys for " + part.capacity());
                }
            }
            assertTrue(stats.compoundFpp() <= sum && stats.compoundFpp() < 0.01, "compound " + stats.compoundFpp());
        }
    }

    /**
     * 100 times the first segment's keys (1000 to 100 000, 7 segments): the measured rate of keys
     * never added stays under P, within binomial noise, as the union bound sum p_i &lt; P says.
     */
    @ParameterizedTest
    @EnumSource(value = Layout.class, names = {"SBBF", "GUAVA", "SPARK_SKETCH"}, mode = EnumSource.Mode.EXCLUDE)
    void compoundFalsePositiveRateStaysBelowPAfterHundredTimesTheKeys(Layout layout) throws Exception {
        double p = 0.01;
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(dir.resolve("fpr.bloom"),
                GrowingSpec.of(1000, p).withLayout(layout))) {
            SplittableRandom members = new SplittableRandom(42);
            for (int i = 0; i < 100_000; i++) {
                filter.add(members.nextLong());
            }
            int queries = 400_000;
            SplittableRandom strangers = new SplittableRandom(4242);
            int falsePositives = 0;
            for (int i = 0; i < queries; i++) {
                falsePositives += filter.mightContain(strangers.nextLong()) ? 1 : 0;
            }
            double measured = (double) falsePositives / queries;
            double sigma = Math.sqrt(p * (1 - p) / queries);
            SegmentedStats stats = filter.stats();
            System.out.printf(Locale.ROOT, "growing %s: %d segments, measured rate %.5f (P %.3f, sigma %.5f), compound from fill %.5f%n",
                    layout, filter.segmentCount(), measured, p, sigma, stats.compoundFpp());
            assertEquals(7, filter.segmentCount(), "segments of 1000 .. 64 000 keys hold 127 000");
            assertTrue(measured <= p + SIGMAS * sigma, "measured " + measured + " exceeds P + 4 sigma");
            assertTrue(stats.compoundFpp() <= p, "compound rate from the fill " + stats.compoundFpp());
        }
    }

    @Test
    void aHandleOpenedBeforeTheGrowthsSeesKeysOfLaterSegments() throws Exception {
        Path file = dir.resolve("early.bloom");
        try (GrowingBloomFilter writer = GrowingBloomFilter.create(file, GrowingSpec.of(500, 0.01));
                GrowingBloomFilter early = GrowingBloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertEquals(1, early.segmentCount());
            for (long key = 0; key < 10_000; key++) {
                writer.add(key);
                if (!early.mightContain(key)) {
                    fail("the early handle misses key " + key + " at once, with " + writer.segmentCount() + " segments");
                }
            }
            assertEquals(writer.segmentCount(), early.segmentCount());
            assertTrue(early.segmentCount() >= 5);
        }
    }

    @Test
    void batchCallsAnswerAsSingleCalls() throws Exception {
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(dir.resolve("batch.bloom"), GrowingSpec.of(1000, 0.01))) {
            long[] hashes = new long[10_000];
            for (int i = 0; i < hashes.length; i++) {
                hashes[i] = filter.hasher().hash((long) i);
            }
            int added = filter.addHashes(hashes, hashes.length);
            assertTrue(added > 9_900 && added <= 10_000, added + " new of 10 000 distinct keys");
            assertEquals(0, filter.addHashes(hashes, hashes.length), "all present the second time");
            boolean[] results = new boolean[hashes.length];
            assertEquals(hashes.length, filter.mightContainHashes(hashes, hashes.length, results));
            long[] strangers = new long[10_000];
            for (int i = 0; i < strangers.length; i++) {
                strangers[i] = filter.hasher().hash(1_000_000L + i);
            }
            int present = filter.mightContainHashes(strangers, strangers.length, results);
            for (int i = 0; i < strangers.length; i++) {
                assertEquals(filter.mightContainHash(strangers[i]), results[i], "stranger " + i);
            }
            assertTrue(present < 200, present + " false positives of 10 000 at P = 1%");
        }
    }

    /**
     * A standard chain's batch query goes region by region, each region's keys in flight beyond the
     * caches: over a chain whose last segment is beyond them (4.8 MB), members of every segment,
     * strangers and batches of any length are answered as single queries answer them.
     */
    @Test
    void aStandardChainsBatchQueryAnswersAsSingleQueries() throws Exception {
        GrowingSpec spec = GrowingSpec.of(200_000, 0.01).withGrowthFactor(4).withLayout(Layout.STANDARD);
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(dir.resolve("standard.bloom"), spec)) {
            long[] members = new long[1_500_000];
            for (int i = 0; i < members.length; i++) {
                members[i] = filter.hasher().hash((long) i);
            }
            filter.addHashes(members, members.length);
            assertEquals(3, filter.segmentCount());
            assertTrue(filter.stats().parts().get(2).bytes() > 2 << 20, "the last segment is beyond the caches");
            SplittableRandom random = new SplittableRandom(5);
            long[] keys = new long[20_000];
            for (int i = 0; i < keys.length; i++) {
                keys[i] = random.nextBoolean() ? members[random.nextInt(members.length)] : random.nextLong();
            }
            for (int length : new int[] {0, 1, 17, 128, 129, 1_000, 20_000}) {
                boolean[] batch = new boolean[length + 1];
                batch[length] = true; // past the count: left alone
                int present = filter.mightContainHashes(keys, length, batch);
                int singlePresent = 0;
                for (int i = 0; i < length; i++) {
                    assertEquals(filter.mightContainHash(keys[i]), batch[i], "key " + i + " of a batch of " + length);
                    singlePresent += batch[i] ? 1 : 0;
                }
                assertEquals(singlePresent, present);
                assertTrue(batch[length], "the answer past the count is untouched");
            }
        }
    }

    /**
     * A size limit: growth that would pass it is refused, adds then throw naming the limit (and
     * change nothing), queries go on answering every key added before.
     */
    @Test
    void growthPastTheMaxSizeIsRefusedWithAClearErrorAndQueriesGoOn() throws Exception {
        Path file = dir.resolve("bounded.bloom");
        GrowingSpec spec = GrowingSpec.of(1000, 0.01);
        // Room for segments 0 and 1 (page + 1 cell page each, plus the container page) but not 2.
        long limit = 4096 + 2 * 4096 + 2 * 8192;
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(file, spec.withMaxBytes(limit))) {
            RefusedGrowth stop = RefusedGrowth.addUntilRefused(filter, 1_000_000);
            long key = stop.keysAdded();
            FilterFullException refused = stop.refusal();
            assertEquals(2, filter.segmentCount());
            assertTrue(refused.getMessage().contains("cannot grow past its max size of " + limit + " bytes")
                    && refused.getMessage().startsWith(file.toString()), refused.getMessage());
            assertEquals(Optional.of(refused.getMessage()), filter.growthRefusal());
            long before = Files.size(file);
            long refusedKey = key;
            assertThrows(FilterFullException.class, () -> filter.add(refusedKey));
            assertFalse(filter.mightContain(refusedKey + 1_000_000), "nothing added");
            for (long k = 0; k < key; k++) {
                assertTrue(filter.mightContain(k), "key " + k + " added before the refusal");
            }
            IOException explicit = assertThrows(IOException.class, filter::grow);
            assertTrue(explicit.getMessage().contains("max size of " + limit), explicit.getMessage());
            assertEquals(before, Files.size(file), "a refused growth leaves the file as it was");
        }
        IllegalArgumentException tooSmall = assertThrows(IllegalArgumentException.class,
                () -> GrowingBloomFilter.create(dir.resolve("tiny.bloom"), spec.withMaxBytes(8192)));
        assertTrue(tooSmall.getMessage().contains("max size 8192 bytes is below the first segment's"), tooSmall.getMessage());
        assertFalse(Files.exists(dir.resolve("tiny.bloom")), "a refused create leaves nothing");
    }

    /** The version 1 file still opens as before; each reader refuses the other's files by version and kind. */
    @Test
    void versionOneFilesStillOpenAndEachKindRefusesTheOthers() throws Exception {
        Path v1 = dir.resolve("plain.bloom");
        try (BloomFilter plain = BloomFilter.create(v1, BloomSpec.forExpected(1000, 0.01))) {
            plain.add("key");
        }
        try (BloomFilter plain = BloomFilter.open(v1, OpenMode.READ_ONLY)) {
            assertTrue(plain.mightContain("key"));
            assertEquals(1, plain.info().spec().counterBits());
        }
        Path growing = dir.resolve("growing.bloom");
        GrowingBloomFilter.create(growing, GrowingSpec.of(1000, 0.01)).close();
        InvalidFilterFileException oldReader = assertThrows(InvalidFilterFileException.class,
                () -> BloomFilter.open(growing, OpenMode.READ_ONLY));
        assertEquals(InvalidFilterFileException.Problem.UNSUPPORTED_VERSION, oldReader.problem());
        assertTrue(oldReader.getMessage().contains("format version 2 is not supported"), oldReader.getMessage());
        InvalidFilterFileException notGrowing = assertThrows(InvalidFilterFileException.class,
                () -> GrowingBloomFilter.open(v1, OpenMode.READ_ONLY));
        assertEquals(InvalidFilterFileException.Problem.UNSUPPORTED_VERSION, notGrowing.problem());
        InvalidFilterFileException wrongKind = assertThrows(InvalidFilterFileException.class,
                () -> WindowedBloomFilter.open(growing, OpenMode.READ_ONLY, Clock.systemUTC()));
        assertEquals(InvalidFilterFileException.Problem.INCOMPATIBLE, wrongKind.problem());
        assertTrue(wrongKind.getMessage().contains("is a growing filter, not a windowed one"), wrongKind.getMessage());

        Path windowed = dir.resolve("windowed.bloom");
        WindowedBloomFilter.create(windowed, WindowSpec.of(1000, 0.01, Duration.ofHours(1)), Clock.systemUTC()).close();
        for (var expected : Map.of(v1, BloomFilter.class, growing, GrowingBloomFilter.class,
                windowed, WindowedBloomFilter.class).entrySet()) {
            try (MembershipFilter any = MembershipFilter.open(expected.getKey(), OpenMode.READ_WRITE, Clock.systemUTC())) {
                assertEquals(expected.getValue(), any.getClass(), "MembershipFilter.open of " + expected.getKey());
                assertTrue(any.add("another") && any.mightContain("another"));
            }
        }
    }

    /** A changed byte of the container header is caught by its CRC32C, not misread. */
    @Test
    void aDamagedContainerHeaderIsRefused() throws Exception {
        Path file = dir.resolve("damaged.bloom");
        GrowingBloomFilter.create(file, GrowingSpec.of(1000, 0.01)).close();
        byte[] bytes = Files.readAllBytes(file);
        bytes[24] ^= 1; // expected keys
        Files.write(file, bytes);
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class,
                () -> GrowingBloomFilter.open(file, OpenMode.READ_ONLY));
        assertEquals(InvalidFilterFileException.Problem.HEADER_CHECKSUM, e.problem());
    }

    /**
     * A segment whose own header is valid (its CRC32C matches) but gives its cells another k than
     * the container's sizing of its place is refused when the file is opened (it was caught only by
     * verify(), and a query probing another k loses keys); an intact file passes verify(). In the
     * blocked and sectorized layouts, whose m is a whole number of lines, the forged k can need the
     * same m: then it is k that is named.
     */
    @ParameterizedTest
    @EnumSource(value = Layout.class, names = {"STANDARD", "BLOCKED", "SECTORIZED"})
    void aSegmentOfTheWrongShapeIsRefusedAtOpen(Layout layout) throws Exception {
        Path file = dir.resolve("verify.bloom");
        GrowingSpec spec = GrowingSpec.of(1000, 0.01).withLayout(layout);
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(file, spec)) {
            filter.grow();
            filter.verify();
        }
        byte[] bytes = Files.readAllBytes(file);
        BloomSpec first = io.bloomstore.internal.format.ContainerHeader.growing(spec.layout(), spec.seed(),
                spec.expectedKeys(), spec.fpp(), spec.growthFactor(), spec.tighteningRatio(), 0, 0).regionSpec(0);
        BloomSpec forged = ForgedRegionHeader.withOneMoreHash(bytes, 0, first);
        Files.write(file, bytes);
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class,
                () -> GrowingBloomFilter.open(file, OpenMode.READ_ONLY));
        assertEquals(InvalidFilterFileException.Problem.BAD_FIELD, e.problem());
        long cellsForForgedK = BloomSpec.builder().expectedKeys(first.expectedKeys()).fpp(first.targetFpp())
                .layout(layout).seed(first.seed()).hashes(forged.hashes()).build().cells();
        String expected = cellsForForgedK == first.cells()
                ? "segment 0's own header has k = " + forged.hashes() + " hashes where sizing its n and p gives " + first.hashes()
                : "segment 0's own header has m = " + first.cells() + " cells where sizing its n, p and k gives ";
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    @Test
    void reopenedFileKeepsEveryKeyAndItsSegments() throws Exception {
        Path file = dir.resolve("restart.bloom");
        for (int run = 0; run < 3; run++) {
            try (GrowingBloomFilter filter = GrowingBloomFilter.openOrCreate(file, GrowingSpec.of(1000, 0.01))) {
                for (long key = 0; key < run * 4500L; key++) {
                    assertFalse(filter.add(key), "key " + key + " was added before the restart: not new");
                }
                for (long key = run * 4500L; key < (run + 1) * 4500L; key++) {
                    filter.add(key);
                }
            }
        }
        try (GrowingBloomFilter filter = GrowingBloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertEquals(4, filter.segmentCount(), "13 500 keys: under 1000 + 2000 + 4000 + 8000, over the first three");
            for (long key = 0; key < 13_500; key++) {
                assertTrue(filter.mightContain(key), "key " + key);
            }
        }
    }
}
