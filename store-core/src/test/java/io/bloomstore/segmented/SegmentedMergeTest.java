package io.bloomstore.segmented;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.GrowingBloomFilter;
import io.bloomstore.GrowingSpec;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.Layout;
import io.bloomstore.Merge;
import io.bloomstore.MergeOp;
import io.bloomstore.OpenMode;
import io.bloomstore.WindowSpec;
import io.bloomstore.WindowedBloomFilter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Merge of growing files segment by segment and of windowed files slot by slot: every key of every
 * input is found in the result (for a ring: while its epoch is live), and incompatible inputs are
 * refused naming the first field that differs, leaving no file.
 */
class SegmentedMergeTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final long E = 1000;
    private static final int L = 8;

    @TempDir
    Path dir;

    private Path growing(String name, GrowingSpec spec, long from, long to) throws IOException {
        Path file = dir.resolve(name);
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(file, spec)) {
            for (long key = from; key < to; key++) {
                filter.add(key);
            }
        }
        return file;
    }

    private static WindowSpec window() {
        return WindowSpec.of(8000, 0.01, Duration.ofMillis(L * E)).withEpochs(L);
    }

    @Test
    void twoChainsOfDisjointKeysCombineSegmentBySegmentIntoTheLongerChain() throws Exception {
        GrowingSpec spec = GrowingSpec.of(1000, 0.01);
        Path a = growing("a.bloom", spec, 0, 20_000); // 5 segments
        Path b = growing("b.bloom", spec, 1_000_000, 1_005_000); // 3 segments
        Path out = dir.resolve("out.bloom");
        Merge.toNewFile(out, List.of(a, b), MergeOp.OR);
        try (GrowingBloomFilter merged = GrowingBloomFilter.open(out, OpenMode.READ_WRITE)) {
            assertEquals(5, merged.segmentCount(), "as long as the longer chain");
            assertEquals(spec, merged.spec());
            for (long key = 0; key < 20_000; key++) {
                if (!merged.mightContain(key)) {
                    fail("key " + key + " of the first input lost");
                }
            }
            for (long key = 1_000_000; key < 1_005_000; key++) {
                if (!merged.mightContain(key)) {
                    fail("key " + key + " of the second input lost");
                }
            }
            // The segments' counts are the inputs' sums: the newest is judged as full as they made it.
            // each input's segment 0 was judged full, within 1/16 of its 1000 keys
            assertTrue(merged.stats().parts().get(0).publishedKeys() >= 2 * (1000 - 1000 / 16),
                    "segment 0 holds both inputs' keys");
            for (long key = 2_000_000; key < 2_020_000; key++) {
                merged.add(key); // the result is open to adds, and grows
            }
            assertTrue(merged.segmentCount() > 5);
        }
    }

    @Test
    void twoRingsCombineSlotBySlotAndEveryKeyIsFoundWhileItsEpochIsLive() throws Exception {
        TestClock clock = new TestClock(T0);
        Path out = mergeOfTwoRings(clock, (ringA, ringB) -> {
            for (int epoch = 0; epoch < 6; epoch++) {
                for (long key = 0; key < 300; key++) {
                    if (epoch < 4) {
                        ringA.add(keyOf('a', epoch, key));
                    }
                    if (epoch >= 1) {
                        ringB.add(keyOf('b', epoch, key));
                    }
                }
                clock.advance(E);
            }
            // ringA's current epoch is T0 / E + 3, ringB's T0 / E + 5: the result takes the later one
        });
        try (WindowedBloomFilter merged = WindowedBloomFilter.open(out, OpenMode.READ_ONLY, clock)) {
            assertEquals(T0 / E + 5, merged.currentEpoch());
            for (int epoch = 0; epoch < 6; epoch++) {
                for (long key = 0; key < 300; key++) {
                    assertTrue(epoch >= 4 || merged.mightContain(keyOf('a', epoch, key)), "a, epoch " + epoch);
                    assertTrue(epoch < 1 || merged.mightContain(keyOf('b', epoch, key)), "b, epoch " + epoch);
                }
            }
            // Epoch 0's keys (only a's) are forgotten once epoch L + 1 begins, as in the inputs.
            clock.set(T0 + (L + 1) * E);
            int found = 0;
            for (long key = 0; key < 300; key++) {
                found += merged.mightContain(keyOf('a', 0, key)) ? 1 : 0;
                assertTrue(merged.mightContain(keyOf('b', 1, key)), "b, epoch 1, still live");
            }
            assertTrue(found < 30, found + " of 300 expired keys still found");
        }
    }

    /**
     * A slot that holds an older epoch in one input than the result's (expired at the result's
     * epoch) is left out, not ORed into the slot of a live epoch where its keys would come back.
     */
    @Test
    void aSlotHoldingAnExpiredEpochIsLeftOut() throws Exception {
        TestClock clock = new TestClock(T0);
        Path out = mergeOfTwoRings(clock, (ringA, ringB) -> {
            for (long key = 0; key < 300; key++) {
                ringA.add(keyOf('a', 0, key)); // epoch e0, in slot e0 mod (L + 1)
            }
            clock.advance((L + 1) * E);
            for (long key = 0; key < 300; key++) {
                ringB.add(keyOf('b', L + 1, key)); // epoch e0 + L + 1: the same slot
            }
        });
        clock.set(T0); // even a clock back at e0 sees the result at its own epoch, e0 + L + 1
        try (WindowedBloomFilter merged = WindowedBloomFilter.open(out, OpenMode.READ_ONLY, clock)) {
            int found = 0;
            for (long key = 0; key < 300; key++) {
                found += merged.mightContain(keyOf('a', 0, key)) ? 1 : 0;
                assertTrue(merged.mightContain(keyOf('b', L + 1, key)));
            }
            assertTrue(found < 30, found + " of 300 keys of an expired epoch came back");
        }
    }

    /** Two rings of {@link #window()} on {@code clock}, filled by {@code fill}, closed, then merged into out.bloom. */
    private Path mergeOfTwoRings(TestClock clock, BiConsumer<WindowedBloomFilter, WindowedBloomFilter> fill)
            throws IOException {
        Path a = dir.resolve("a.bloom");
        Path b = dir.resolve("b.bloom");
        try (WindowedBloomFilter ringA = WindowedBloomFilter.create(a, window(), clock);
                WindowedBloomFilter ringB = WindowedBloomFilter.create(b, window(), clock)) {
            fill.accept(ringA, ringB);
        }
        Path out = dir.resolve("out.bloom");
        Merge.toNewFile(out, List.of(a, b), MergeOp.OR);
        return out;
    }

    @Test
    void incompatibleInputsAreRefusedNamingTheFirstFieldThatDiffers() throws Exception {
        GrowingSpec spec = GrowingSpec.of(1000, 0.01);
        Path a = growing("a.bloom", spec, 0, 10);
        assertRefused(a, growing("fpp.bloom", GrowingSpec.of(1000, 0.02), 0, 10), "false-positive rate (P)");
        assertRefused(a, growing("n.bloom", GrowingSpec.of(2000, 0.01), 0, 10), "expected keys (n)");
        assertRefused(a, growing("s.bloom", new GrowingSpec(1000, 0.01, 3, spec.tighteningRatio(), 0, spec.layout(),
                spec.seed()), 0, 10), "growth factor");
        assertRefused(a, growing("seed.bloom", new GrowingSpec(1000, 0.01, spec.growthFactor(), spec.tighteningRatio(),
                0, spec.layout(), 42), 0, 10), "seed");
        assertRefused(a, growing("layout.bloom", new GrowingSpec(1000, 0.01, spec.growthFactor(),
                spec.tighteningRatio(), 0, spec.layout() == Layout.BLOCKED ? Layout.STANDARD : Layout.BLOCKED,
                spec.seed()), 0, 10), "layout");

        TestClock clock = new TestClock(T0);
        Path ring = dir.resolve("ring.bloom");
        Path otherRing = dir.resolve("ring4.bloom");
        WindowedBloomFilter.create(ring, window(), clock).close();
        WindowedBloomFilter.create(otherRing, window().withEpochs(4), clock).close();
        assertRefused(a, ring, "kind: growing vs windowed");
        assertRefused(ring, otherRing, "epochs"); // 8 s in 4 epochs of 2 s: the same window, other slots
        Path fixed = dir.resolve("fixed.bloom");
        BloomFilter.create(fixed, BloomSpec.forExpected(1000, 0.01)).close();
        assertRefused(a, fixed, "kind: growing vs fixed");

        InvalidFilterFileException and = assertThrows(InvalidFilterFileException.class,
                () -> Merge.toNewFile(dir.resolve("out.bloom"), List.of(a, a), MergeOp.AND));
        assertEquals(Problem.INCOMPATIBLE, and.problem());
        assertTrue(and.getMessage().contains("AND is not defined for growing filters"), and.getMessage());
        assertFalse(Files.exists(dir.resolve("out.bloom")));
    }

    private void assertRefused(Path a, Path b, String field) {
        Path out = dir.resolve("out.bloom");
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class,
                () -> Merge.toNewFile(out, List.of(a, b), MergeOp.OR));
        assertEquals(Problem.INCOMPATIBLE, e.problem());
        assertTrue(e.getMessage().contains("they differ in " + field), e.getMessage());
        assertFalse(Files.exists(out));
    }

    private static String keyOf(char input, int epoch, long key) {
        return input + "-" + epoch + "-" + key;
    }
}
