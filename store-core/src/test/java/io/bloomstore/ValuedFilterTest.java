package io.bloomstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.internal.cells.CellArray;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Valued filters on real files: reads never below (max rule) or above (min rule) the true value
 * and exact with high probability, a key never put absent but for the sized rate, the merge a
 * cellwise join equal to putting everything into one file, and the per-value error rates inspect
 * reports held to what a spatial filter's sets measure.
 */
class ValuedFilterTest {
    @TempDir
    Path dir;

    @Test
    void maxRuleReadsTheLargestValueAndNeverLess() throws Exception {
        int keys = 20_000;
        try (ValuedFilter f = ValuedFilter.create(dir.resolve("max.bloom"), keys, 0.001, 4, ValuedFilter.Keep.MAX)) {
            SplittableRandom random = new SplittableRandom(7);
            long[] truth = new long[keys];
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < keys; i++) {
                    long v = random.nextLong(16);
                    f.put(i, v);
                    truth[i] = Math.max(truth[i], v);
                }
            }
            int exact = 0;
            for (int i = 0; i < keys; i++) {
                long read = f.get(i).orElseThrow();
                assertTrue(read >= truth[i], "key " + i + " reads " + read + " below its value " + truth[i]);
                exact += read == truth[i] ? 1 : 0;
            }
            assertTrue(exact > keys * 0.99, exact + " of " + keys + " exact");
            int falsePositives = 0;
            for (int i = 0; i < 100_000; i++) {
                falsePositives += f.get(-1 - i).isPresent() ? 1 : 0;
            }
            assertTrue(falsePositives < 100_000 * 0.001 + 6 * Math.sqrt(100_000 * 0.001), falsePositives + " false positives");
            assertThrows(IllegalArgumentException.class, () -> f.put(1, 16));
            assertThrows(UnsupportedOperationException.class, () -> f.filter().add("plain"));
        }
    }

    @Test
    void putsThatChangeACellAreCountedAsInsertionsAndTheCountOutlivesTheHandle() throws Exception {
        Path path = dir.resolve("counted.bloom");
        int keys = 5_000;
        long changed = 0;
        try (ValuedFilter f = ValuedFilter.create(path, keys, 0.01, 4, ValuedFilter.Keep.MAX)) {
            for (int i = 0; i < keys; i++) {
                changed += f.put(i, 3) ? 1 : 0;
            }
            // a key whose cells all hold 3 already (a false positive, about 1 %) changes none
            assertTrue(changed > keys * 0.95, changed + " of " + keys + " puts changed a cell");
            assertEquals(changed, f.filter().approximateKeys());
            for (int i = 0; i < keys; i++) {
                assertFalse(f.put(i, 2), "a lower value changed a cell under the max rule");
            }
            assertEquals(changed, f.filter().approximateKeys(), "puts that changed nothing were counted");
        }
        try (ValuedFilter reopened = ValuedFilter.open(path, OpenMode.READ_ONLY)) {
            assertEquals(changed, reopened.filter().approximateKeys(), "the count was not published at close");
        }
    }

    @Test
    void minRuleKeepsTheSmallestValueAndAnEmptyCellMeansAbsent() throws Exception {
        int keys = 20_000;
        try (ValuedFilter f = ValuedFilter.create(dir.resolve("min.bloom"), keys, 0.001, 7, ValuedFilter.Keep.MIN)) {
            SplittableRandom random = new SplittableRandom(8);
            long[] truth = new long[keys];
            java.util.Arrays.fill(truth, Long.MAX_VALUE);
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < keys; i++) {
                    long v = random.nextLong(128);
                    f.put("k" + i, v);
                    truth[i] = Math.min(truth[i], v);
                }
            }
            int exact = 0;
            for (int i = 0; i < keys; i++) {
                long read = f.get("k" + i).orElseThrow();
                assertTrue(read <= truth[i], "key " + i + " reads " + read + " above its value " + truth[i]);
                exact += read == truth[i] ? 1 : 0;
            }
            assertTrue(exact > keys * 0.99, exact + " of " + keys + " exact");
            assertEquals(OptionalLong.empty(), f.get("never put"));
            assertFalse(f.put("k0", 127), "a larger value than the key holds changes nothing under min");
        }
    }

    @Test
    void mergeIsTheCellwiseJoin() throws Exception {
        for (ValuedFilter.Keep keep : ValuedFilter.Keep.values()) {
            boolean max = keep == ValuedFilter.Keep.MAX;
            Path a = dir.resolve(max + "a");
            Path b = dir.resolve(max + "b");
            Path all = dir.resolve(max + "all");
            Path merged = dir.resolve(max + "merged");
            try (ValuedFilter fa = ValuedFilter.create(a, 5000, 0.01, 3, keep);
                    ValuedFilter fb = ValuedFilter.create(b, 5000, 0.01, 3, keep);
                    ValuedFilter fall = ValuedFilter.create(all, 5000, 0.01, 3, keep)) {
                for (int i = 0; i < 5000; i++) {
                    (i % 2 == 0 ? fa : fb).put(i, i % 8);
                    (i % 3 == 0 ? fb : fa).put(i, (i * 5) % 8);
                    fall.put(i, i % 8);
                    fall.put(i, (i * 5) % 8);
                }
            }
            Merge.toNewFile(merged, List.of(a, b), MergeOp.OR);
            try (BloomFilter m = BloomFilter.open(merged, OpenMode.READ_ONLY);
                    BloomFilter one = BloomFilter.open(all, OpenMode.READ_ONLY)) {
                CellArray x = m.cells();
                CellArray y = one.cells();
                for (long w = 0; w < x.words(); w++) {
                    assertEquals(y.getWordVolatile(w), x.getWordVolatile(w), "word " + w + " of the " + (max ? "max" : "min") + " join");
                }
            }
            InvalidFilterFileException and = assertThrows(InvalidFilterFileException.class,
                    () -> Merge.toNewFile(dir.resolve(max + "and"), List.of(a, b), MergeOp.AND));
            assertTrue(and.getMessage().contains("cellwise join"), and.getMessage());
        }
    }

    @Test
    void aValuedAndAPlainFileDoNotMerge() throws Exception {
        Path valued = dir.resolve("v");
        ValuedFilter.create(valued, 1000, 0.01, 1, ValuedFilter.Keep.MAX).close();
        Path plain = dir.resolve("p");
        try (BloomFilter v = BloomFilter.open(valued, OpenMode.READ_ONLY)) {
            BloomFilter.create(plain, v.spec()).close();
        }
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class,
                () -> Merge.toNewFile(dir.resolve("out"), List.of(valued, plain), MergeOp.OR));
        assertTrue(e.getMessage().contains("valued (max)"), e.getMessage());
    }

    @Test
    void errorPerSetOfASpatialFilterFollowsTheCells() throws Exception {
        // a spatial Bloom filter: three labelled sets inserted in priority order (label 1 lowest)
        int perSet = 30_000;
        try (ValuedFilter f = ValuedFilter.create(dir.resolve("spatial.bloom"), 3 * perSet, 0.05, 2, ValuedFilter.Keep.MAX)) {
            for (int label = 1; label <= 3; label++) {
                for (int i = 0; i < perSet; i++) {
                    f.put(label * 1_000_000L + i, label);
                }
            }
            SortedMap<Long, Double> model = f.errorRates();
            assertEquals(0.0, model.get(3L), "nothing reads above the top label");
            for (long label = 1; label <= 2; label++) {
                int wrong = 0;
                for (int i = 0; i < perSet; i++) {
                    long read = f.get(label * 1_000_000L + i).orElseThrow();
                    assertTrue(read >= label);
                    wrong += read > label ? 1 : 0;
                }
                double p = model.get(label);
                double measured = (double) wrong / perSet;
                System.out.printf("spatial set %d: error model %.5f measured %.5f%n", label, p, measured);
                assertEquals(p, measured, 6 * Math.sqrt(p * (1 - p) / perSet) + 0.1 * p, "error of set " + label);
            }
        }
    }
}
