package io.bloomstore;

import static io.bloomstore.internal.format.FilterFixtures.filterWithKeys;
import static org.junit.jupiter.api.Assertions.*;

import io.bloomstore.InvalidFilterFileException.Problem;
import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Union, intersection and Jaccard estimated from two filters with a known overlap: A = [0, 20000),
 * B = [10000, 30000), so |A| = |B| = 20000, |A u B| = 30000, |A n B| = 10000, Jaccard = 1/3.
 *
 * <p>Tolerances: the filters are sized for 40,000 keys at 1% (m ~ 383,000, k = 7). The
 * Swamidass-Baldi estimate from X set cells has a standard deviation of about
 * sigma_X m / (k (m - X)) keys, sigma_X^2 ~ m e^-l (1 - (1 + l) e^-l) with l = kn/m: ~25 keys for
 * |A|, ~35 for the union. The intersection is a difference of three such estimates, ~50 keys.
 * Allowing 1% of the true sizes (200 and 300 keys) and 2% of the intersection (200 keys) is about
 * four sigma: a real estimator bug fails it, noise does not. The keys are fixed, so the run is
 * deterministic anyway.
 */
class SetEstimatesTest {
    private static final int N = 20_000;

    @TempDir
    Path dir;

    private static BloomSpec spec(int counterBits) {
        return BloomSpec.builder().expectedKeys(2 * N).fpp(0.01).counterBits(counterBits).build();
    }

    private SetEstimates estimate(BloomSpec specA, LongStream keysA, BloomSpec specB, LongStream keysB) throws IOException {
        Path a = filterWithKeys(dir.resolve("a.bloom"), specA, keysA);
        Path b = filterWithKeys(dir.resolve("b.bloom"), specB, keysB);
        try (BloomFilter fa = BloomFilter.open(a, OpenMode.READ_ONLY);
                BloomFilter fb = BloomFilter.open(b, OpenMode.READ_ONLY)) {
            return SetEstimates.of(fa, fb);
        }
    }

    @ParameterizedTest(name = "w={0}")
    @ValueSource(ints = {1, 4})
    void overlappingSetsAreEstimatedWithinTolerance(int counterBits) throws Exception {
        SetEstimates e = estimate(spec(counterBits), LongStream.range(0, N), spec(counterBits), LongStream.range(N / 2, N / 2 + N));
        assertEquals(N, e.sizeA(), 0.01 * N);
        assertEquals(N, e.sizeB(), 0.01 * N);
        assertEquals(1.5 * N, e.union(), 0.01 * 1.5 * N);
        assertEquals(0.5 * N, e.intersection(), 0.02 * 0.5 * N);
        assertEquals(1.0 / 3, e.jaccard(), 0.01);
        assertEquals(e.intersection() / e.union(), e.jaccard(), 1e-12);
    }

    /**
     * estimate and inspect must say the same of one filter: the key count of A is the one
     * stats() reports, whatever the layout and counter width (blocked filters need the blocked
     * correction, which the standard formula would leave out).
     */
    @ParameterizedTest(name = "{0}, w={1}")
    @CsvSource({"STANDARD, 1", "STANDARD, 8", "BLOCKED, 1", "BLOCKED, 8", "BLOCKED, 32"})
    void sizeOfAIsTheKeyCountStatsReports(Layout layout, int counterBits) throws Exception {
        BloomSpec spec = BloomSpec.builder().expectedKeys(2 * N).fpp(0.01).counterBits(counterBits).layout(layout).build();
        Path a = filterWithKeys(dir.resolve("a.bloom"), spec, LongStream.range(0, N));
        Path b = filterWithKeys(dir.resolve("b.bloom"), spec, LongStream.range(N / 2, N / 2 + N));
        try (BloomFilter fa = BloomFilter.open(a, OpenMode.READ_ONLY);
                BloomFilter fb = BloomFilter.open(b, OpenMode.READ_ONLY)) {
            SetEstimates e = SetEstimates.of(fa, fb);
            assertEquals(fa.stats().estimatedKeys(), e.sizeA(), 1e-9 * N);
            assertEquals(fb.stats().estimatedKeys(), e.sizeB(), 1e-9 * N);
        }
    }

    @Test
    void disjointSetsHaveNoIntersection() throws Exception {
        SetEstimates e = estimate(spec(1), LongStream.range(0, N), spec(1), LongStream.range(N, 2 * N));
        assertEquals(2 * N, e.union(), 0.01 * 2 * N);
        assertTrue(e.intersection() >= 0, "clamped at zero");
        assertEquals(0, e.intersection(), 0.01 * N);
        assertEquals(0, e.jaccard(), 0.01);
    }

    @Test
    void identicalSetsHaveJaccardOne() throws Exception {
        SetEstimates e = estimate(spec(1), LongStream.range(0, N), spec(1), LongStream.range(0, N));
        assertEquals(e.sizeA(), e.union());
        assertEquals(e.sizeA(), e.intersection());
        assertEquals(1.0, e.jaccard());
    }

    @Test
    void emptyFiltersEstimateZero() throws Exception {
        SetEstimates e = estimate(spec(1), LongStream.empty(), spec(1), LongStream.empty());
        assertEquals(new SetEstimates(0, 0, 0, 0, 0), e);
    }

    @Test
    void incompatibleFiltersAreRefusedNamingTheField() {
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class,
                () -> estimate(spec(1), LongStream.range(0, 10), spec(1).toBuilder().seed(5).build(), LongStream.range(0, 10)));
        assertEquals(Problem.INCOMPATIBLE, e.problem());
        assertTrue(e.getMessage().contains("seed"), e.getMessage());
    }
}
