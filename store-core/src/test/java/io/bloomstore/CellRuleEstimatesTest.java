package io.bloomstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.InvalidFilterFileException.Problem;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link SetEstimates} on the filters with a cell rule: a valued filter's non-empty cells are a
 * plain filter's set bits (a cell is non-empty exactly when a key put hashed to it, whatever the
 * values), so its sizes, union and intersection are estimated as {@link SetEstimatesTest}'s plain
 * filters are, to the same tolerances (that test's comment derives them) and with values that
 * differ between the files; a stable filter's cells do not count its keys, and it is refused.
 */
class CellRuleEstimatesTest {
    private static final int N = 20_000;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "A keeps {0}, B keeps {1}")
    @CsvSource({"MAX, MAX", "MIN, MIN", "MAX, MIN"})
    void valuedFiltersAreEstimatedByTheirNonEmptyCells(ValuedFilter.Keep keepA, ValuedFilter.Keep keepB) throws Exception {
        try (ValuedFilter a = ValuedFilter.create(dir.resolve("a.bloom"), 2 * N, 0.01, 3, keepA);
                ValuedFilter b = ValuedFilter.create(dir.resolve("b.bloom"), 2 * N, 0.01, 3, keepB)) {
            for (long key = 0; key < N; key++) {
                a.put(key, key % 8);
                b.put(key + N / 2, 7 - key % 8);
            }
            SetEstimates e = SetEstimates.of(a.filter(), b.filter());
            assertEquals(N, e.sizeA(), 0.01 * N);
            assertEquals(N, e.sizeB(), 0.01 * N);
            assertEquals(1.5 * N, e.union(), 0.01 * 1.5 * N);
            assertEquals(0.5 * N, e.intersection(), 0.02 * 0.5 * N);
            assertEquals(1.0 / 3, e.jaccard(), 0.01);
        }
    }

    /**
     * Two stable filters that saw 20,000 and 200,000 distinct keys: at the stable point both have
     * about the same fraction of zero cells, so a count read from them would call them equal.
     */
    @Test
    void stableFiltersAreRefusedNamingWhy() throws Exception {
        StableSpec spec = StableSpec.forLifetime(N, 0.01, 2);
        try (BloomFilter a = BloomFilter.createStable(dir.resolve("a.bloom"), spec);
                BloomFilter b = BloomFilter.createStable(dir.resolve("b.bloom"), spec)) {
            for (long key = 0; key < 10 * N; key++) {
                if (key < N) {
                    a.add(key);
                }
                b.add(key);
            }
            InvalidFilterFileException refused = assertThrows(InvalidFilterFileException.class, () -> SetEstimates.of(a, b));
            assertEquals(Problem.INCOMPATIBLE, refused.problem());
            assertTrue(refused.getMessage().contains("a.bloom: is a stable filter, whose cells do not count its keys"),
                    refused.getMessage());
        }
    }
}
