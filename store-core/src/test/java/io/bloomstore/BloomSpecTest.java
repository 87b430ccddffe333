package io.bloomstore;

import io.bloomstore.internal.math.FalsePositiveMath;
import io.bloomstore.internal.format.FormatIds;
import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class BloomSpecTest {
    private static final double LN2 = Math.log(2);
    private static final int[] WIDTHS = {1, 2, 4, 8, 16, 32};

    // ------------------------------------------------------------------ the seeds' formulas

    @Test
    void standardFppIsTheTextbookFormula() {
        // (1 - e^(-kn/m))^k at m = 9586, k = 7, n = 1000: the classic 1% point.
        assertEquals(Math.pow(1 - Math.exp(-7 * 1000.0 / 9586), 7), FalsePositiveMath.standardFpp(9586, 7, 1000), 1e-15);
        assertEquals(0.0100, FalsePositiveMath.standardFpp(9586, 7, 1000), 0.0001);
        assertEquals(0, FalsePositiveMath.standardFpp(9586, 7, 0));
        assertEquals(1.0, FalsePositiveMath.standardFpp(10, 1, 1e6), 1e-12, "a saturated filter says yes to everything");
    }

    @Test
    void optimalCellsAndHashesAreTheClosedForms() {
        // m = -n ln p / (ln 2)^2 and k = (m/n) ln 2.
        assertEquals((long) Math.ceil(-1_000_000 * Math.log(0.01) / (LN2 * LN2)), FalsePositiveMath.optimalCells(1_000_000, 0.01));
        assertEquals(9_585_059, FalsePositiveMath.optimalCells(1_000_000, 0.01));
        assertEquals(7, FalsePositiveMath.optimalHashes(9_585_059, 1_000_000));
        assertEquals(1, FalsePositiveMath.optimalHashes(10, 1_000_000), "never below one probe");
        assertEquals(14, FalsePositiveMath.optimalHashes(20 * 1000, 1000));
    }

    @Test
    void keyEstimateInvertsTheExpectedFill() {
        long m = 1 << 20;
        int k = 7;
        for (long n : new long[] {1, 1000, 100_000, 500_000}) {
            long setCells = Math.round(m * -Math.expm1(-(double) k * n / m));
            assertEquals(n, FalsePositiveMath.estimateKeys(m, k, setCells), n * 1e-3 + 0.5);
        }
        assertEquals(Double.POSITIVE_INFINITY, FalsePositiveMath.estimateKeys(m, k, m));
        assertEquals(Math.pow(0.5, k), FalsePositiveMath.currentFpp(m, k, m / 2), 1e-15);
    }

    /** One block as large as the filter: the Poisson average must collapse to the standard formula. */
    @Test
    void blockedFppWithOneHugeBlockIsTheStandardFpp() {
        int cells = 1 << 20;
        for (int n : new int[] {10_000, 100_000}) {
            double standard = FalsePositiveMath.standardFpp(cells, 7, n);
            assertEquals(standard, FalsePositiveMath.blockedFpp(cells, 7, n, cells), standard * 0.02);
        }
    }

    @Test
    void blockedFppIsAboveStandardAtTheSameSize() {
        // Crowded blocks dominate: at 10 bits per key and k = 6, 0.966% against 0.84% (4 x 10^7
        // queries measured 0.9676% +- 0.0016%).
        double standard = FalsePositiveMath.standardFpp(10_000_000, 6, 1_000_000);
        double blocked = FalsePositiveMath.blockedFpp(10_000_000, 6, 1_000_000, 512);
        assertEquals(0.0084, standard, 0.0001);
        assertEquals(0.00966, blocked, 0.00002);
    }

    // ------------------------------------------------------------------ sizing

    static Stream<Arguments> sizingTargets() {
        List<Arguments> targets = new ArrayList<>();
        long[] keys = {1, 1000, 1_000_000, 3_000_000_000L};
        double[] rates = {0.5, 0.01, 1e-4, 1e-9};
        for (Layout layout : Layout.values()) {
            if (layout.isImported()) {
                continue; // never sized: their m and k are the library's
            }
            for (int w : WIDTHS) {
                if ((layout == Layout.SECTORIZED || layout == Layout.SBBF) && w != 1) {
                    continue; // 1-bit cells only: SectorizedLayoutTest checks the refusal
                }
                for (long n : keys) {
                    for (double p : rates) {
                        targets.add(Arguments.of(layout, w, n, p));
                    }
                }
            }
        }
        return targets.stream();
    }

    /**
     * Sizing reaches p by its own formula, and with as few cells as that allows: one cell fewer
     * (standard) or one block fewer (blocked) at the same k misses p.
     */
    @ParameterizedTest(name = "{0} w={1} n={2} p={3}")
    @MethodSource("sizingTargets")
    void sizingReachesTheTargetWithTheFewestCells(Layout layout, int w, long n, double p) {
        BloomSpec spec = BloomSpec.builder().expectedKeys(n).fpp(p).layout(layout).counterBits(w).build();
        assertEquals(n, spec.expectedKeys());
        assertEquals(p, spec.targetFpp());
        assertTrue(spec.expectedFpp(n) <= p, spec + " reaches only " + spec.expectedFpp(n));
        int perBlock = spec.cellsPerBlock();
        long smaller = spec.cells() - (layout != Layout.STANDARD ? perBlock : 1);
        if (smaller > 0) {
            BloomSpec oneLess = spec.toBuilder().cells(smaller).build();
            assertTrue(oneLess.expectedFpp(n) > p, spec + " is not the smallest: " + oneLess + " also reaches p");
        }
        if (layout == Layout.BLOCKED) {
            assertEquals(0, spec.cells() % perBlock, "whole blocks");
            assertTrue(spec.hashes() <= perBlock, "no more probes than cells in a block");
        } else if (layout == Layout.SECTORIZED) {
            assertEquals(0, spec.cells() % perBlock, "whole lines");
        } else if (layout == Layout.SBBF) {
            assertEquals(0, spec.cells() % 256, "whole 256-bit blocks");
            assertEquals(8, spec.hashes(), "Parquet's eight words");
        } else {
            assertEquals(Math.max(1, Math.round(-Math.log(p) / LN2)), spec.hashes(), "k = round(log2(1/p))");
        }
    }

    /** The standard layout is sized near the textbook optimum m = -n ln p / (ln 2)^2, never far above. */
    @Test
    void standardSizingIsCloseToTheOptimum() {
        for (double p : new double[] {0.01, 0.001, 1e-6}) {
            BloomSpec spec = BloomSpec.forExpected(10_000_000, p);
            double optimum = FalsePositiveMath.optimalCells(10_000_000, p);
            assertEquals(1.0, spec.cells() / optimum, 0.01, spec.toString());
        }
    }

    @Test
    void givenHashesAreKeptWhenSizingFromNAndP() {
        BloomSpec standard = BloomSpec.builder().expectedKeys(1000).fpp(0.01).hashes(3).build();
        assertEquals(3, standard.hashes());
        assertTrue(standard.expectedFpp(1000) <= 0.01);
        BloomSpec blocked = BloomSpec.builder().expectedKeys(1000).fpp(0.01).hashes(3).layout(Layout.BLOCKED).build();
        assertEquals(3, blocked.hashes());
        assertTrue(blocked.expectedFpp(1000) <= 0.01);
    }

    @Test
    void givenCellsAndHashesAreTakenAsTheyAreBlockedRoundedToWholeBlocks() {
        BloomSpec standard = BloomSpec.builder().cells(1001).hashes(5).expectedKeys(10).fpp(0.5).build();
        assertEquals(1001, standard.cells());
        assertEquals(5, standard.hashes());
        assertEquals(10, standard.expectedKeys(), "n and p are only recorded");
        for (int w : WIDTHS) {
            int perBlock = BloomSpec.BLOCK_BITS / w;
            BloomSpec blocked = BloomSpec.builder().cells(1001).hashes(5).counterBits(w).layout(Layout.BLOCKED).build();
            assertEquals((1001 + perBlock - 1) / perBlock * perBlock, blocked.cells(), "w=" + w);
        }
    }

    @Test
    void cellBytesAreWholePages() {
        assertEquals(4096, BloomSpec.builder().cells(1).hashes(1).build().cellBytes());
        assertEquals(4096, BloomSpec.builder().cells(32768).hashes(1).build().cellBytes());
        assertEquals(8192, BloomSpec.builder().cells(32769).hashes(1).build().cellBytes());
        assertEquals(8192, BloomSpec.builder().cells(1025).hashes(1).counterBits(32).build().cellBytes());
        assertEquals(BloomSpec.MAX_CELLS * 4, BloomSpec.builder().cells(BloomSpec.MAX_CELLS).hashes(1).counterBits(32)
                .build().cellBytes(), "the largest filter's length still fits a long");
    }

    // ------------------------------------------------------------------ refusals

    /** A builder change that must be refused, and the words its message must hold. */
    record Refusal(String name, Consumer<BloomSpec.Builder> change, String[] words) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Refusal refusal(String name, Consumer<BloomSpec.Builder> change, String... words) {
        return new Refusal(name, change, words);
    }

    static Stream<Refusal> refusals() {
        return Stream.of(
                refusal("n = 0", b -> b.expectedKeys(0), "expected keys", "at least 1", "got 0"),
                refusal("n = -7", b -> b.expectedKeys(-7), "at least 1", "got -7"),
                refusal("p = 0", b -> b.fpp(0), "false-positive rate", "(0, 1)", "got 0.0"),
                refusal("p = 1", b -> b.fpp(1), "(0, 1)", "got 1.0"),
                refusal("p = -0.5", b -> b.fpp(-0.5), "(0, 1)", "got -0.5"),
                refusal("p = 2", b -> b.fpp(2), "(0, 1)", "got 2.0"),
                refusal("p = NaN", b -> b.fpp(Double.NaN), "(0, 1)", "got NaN"),
                refusal("p = infinity", b -> b.fpp(Double.POSITIVE_INFINITY), "(0, 1)", "got Infinity"),
                refusal("k = 0", b -> b.hashes(0), "hashes", "[1, 64]", "got 0"),
                refusal("k = 65", b -> b.hashes(65), "[1, 64]", "got 65"),
                refusal("k = -1", b -> b.hashes(-1), "[1, 64]", "got -1"),
                refusal("w = 0", b -> b.counterBits(0), "counter bits", "1, 2, 4, 8, 16, 32", "got 0"),
                refusal("w = 3", b -> b.counterBits(3), "1, 2, 4, 8, 16, 32", "got 3"),
                refusal("w = 64", b -> b.counterBits(64), "1, 2, 4, 8, 16, 32", "got 64"),
                refusal("w = -2", b -> b.counterBits(-2), "got -2"),
                refusal("m = 0", b -> b.cells(0), "cells", "[1, 72057594037927936]", "got 0"),
                refusal("m = -1", b -> b.cells(-1), "[1, 72057594037927936]", "got -1"),
                refusal("m = 2^56 + 1", b -> b.cells(BloomSpec.MAX_CELLS + 1), "got 72057594037927937"),
                refusal("neither n, p nor m, k", b -> { }, "expected keys", "cells and hashes"),
                refusal("only n", b -> b.expectedKeys(10), "expected keys", "cells and hashes"),
                refusal("only m", b -> b.cells(10), "expected keys", "cells and hashes"),
                refusal("p out of reach", b -> b.expectedKeys(Long.MAX_VALUE).fpp(1e-300),
                        "1.0E-300", String.valueOf(Long.MAX_VALUE), "72057594037927936"),
                refusal("blocked p out of reach", b -> b.expectedKeys(Long.MAX_VALUE).fpp(1e-300).layout(Layout.BLOCKED),
                        "1.0E-300", "72057594037927936"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void invalidValuesAreRefusedNamingValueAndRange(Refusal refusal) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> {
            BloomSpec.Builder builder = BloomSpec.builder();
            refusal.change().accept(builder);
            builder.build();
        });
        for (String word : refusal.words()) {
            assertTrue(e.getMessage().contains(word), "says \"" + word + "\": " + e.getMessage());
        }
    }

    @Test
    void unknownIdsAreRefusedNamingTheKnownOnes() {
        IllegalArgumentException layout = assertThrows(IllegalArgumentException.class, () -> FormatIds.layout(9));
        assertTrue(layout.getMessage().contains("9") && layout.getMessage().contains("blocked"), layout.getMessage());
        IllegalArgumentException hash = assertThrows(IllegalArgumentException.class, () -> FormatIds.hashAlgorithm(0));
        assertTrue(hash.getMessage().contains("0") && hash.getMessage().contains("xxh3"), hash.getMessage());
    }

    // ------------------------------------------------------------------ shape comparison

    @Test
    void differenceNamesTheFirstFieldThatDiffersAndIgnoresNAndP() {
        BloomSpec base = BloomSpec.builder().cells(4096).hashes(5).build();
        assertEquals("cells (m): 4096 vs 8192", base.differenceFrom(base.toBuilder().cells(8192).build()).orElseThrow());
        assertEquals("hashes (k): 5 vs 6", base.differenceFrom(base.toBuilder().hashes(6).build()).orElseThrow());
        assertEquals("counter bits: 1 vs 8", base.differenceFrom(base.toBuilder().counterBits(8).build()).orElseThrow());
        assertEquals("layout: standard vs blocked",
                base.differenceFrom(base.toBuilder().layout(Layout.BLOCKED).build()).orElseThrow());
        assertEquals("seed: 0x626c6f6f6d737472 vs 0xffffffffffffffff", // in hex, as inspect shows seeds
                base.differenceFrom(base.toBuilder().seed(-1).build()).orElseThrow());
        assertTrue(base.differenceFrom(base.toBuilder().expectedKeys(5).fpp(0.3).build()).isEmpty());
        assertNotEquals(base, base.toBuilder().expectedKeys(5).build(), "equality does include n and p");
    }

    @Test
    void toBuilderRebuildsTheSameSpec() {
        BloomSpec spec = BloomSpec.builder().expectedKeys(1234).fpp(0.003).counterBits(8).layout(Layout.BLOCKED).seed(99).build();
        assertEquals(spec, spec.toBuilder().build());
        assertEquals(spec.hashCode(), spec.toBuilder().build().hashCode());
    }
}
