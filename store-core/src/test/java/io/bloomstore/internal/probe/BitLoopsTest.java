package io.bloomstore.internal.probe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import io.bloomstore.internal.cells.CellArray;
import io.bloomstore.internal.cells.NativeCells;
import io.bloomstore.internal.hashing.ProbeMath;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The layouts' own loops for 1-bit cells ({@link Probing#setBits}, {@link Probing#allBitsSetVolatile})
 * against their definition, the probe sequence of {@link Probing#index} read and written one cell at a
 * time through {@link CellArray}: the same bits set, the same "was new" and the same answers, key by
 * key, from empty to three times full, with shared cells (compare-and-set) and a single writer's
 * (plain stores), for each layout and a blocked and a sectorized slice that start past block 0; and
 * for every k of the blocked and sectorized probings written out with their constants folded in.
 */
class BitLoopsTest {
    private static final long KEYS = 2_000;

    @ParameterizedTest(name = "{0}, p={1}, single writer {2}, slice {3}")
    @CsvSource({"STANDARD, 0.01, false, false", "STANDARD, 0.2, true, false", "BLOCKED, 0.01, false, false",
            "BLOCKED, 0.001, true, false", "BLOCKED, 0.01, false, true", "SECTORIZED, 0.01, false, true",
            "SECTORIZED, 0.001, true, true"})
    void setAndFindTheCellsOfTheProbeSequence(Layout layout, double fpp, boolean singleWriter, boolean slice) {
        BloomSpec spec = BloomSpec.builder().expectedKeys(KEYS).fpp(fpp).layout(layout).build();
        assertLoopsFollowTheProbeSequence(spec, singleWriter, slice, KEYS);
    }

    /**
     * Every k a sectorized file may hold, so every S from 1 to 8 and every b: the probing chosen for
     * it (written out for b = 2, {@link Probing.Pairs}; the general loops otherwise) sets and finds
     * exactly the cells its {@link Probing#index} names, in a whole filter and in a slice.
     */
    @ParameterizedTest(name = "k={0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 15, 16, 18, 20, 24, 27, 32, 33, 48, 64})
    void everySectorizedShapeFollowsTheProbeSequence(int k) {
        BloomSpec spec = BloomSpec.builder().cells(64 * 512).hashes(k).layout(Layout.SECTORIZED).build();
        boolean pairs = k / ProbeMath.sectors(k) == 2;
        assertEquals(pairs, Probing.of(spec) instanceof Probing.Pairs, "the probing chosen for k = " + k);
        assertEquals(pairs, Probing.slice(spec, 3) instanceof Probing.Pairs, "the slice's probing for k = " + k);
        assertLoopsFollowTheProbeSequence(spec, k % 2 == 0, false, spec.cells() / k / 8);
        assertLoopsFollowTheProbeSequence(spec, k % 2 != 0, true, spec.cells() / k / 8);
    }

    /**
     * Every k of a blocked filter of bits up to 16, written out ({@link Probing.BlockedBits}), and
     * two past it that keep the general loop: the same cells as {@link Probing#index}.
     */
    @ParameterizedTest(name = "k={0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 24})
    void everyBlockedShapeFollowsTheProbeSequence(int k) {
        BloomSpec spec = BloomSpec.builder().cells(64 * 512).hashes(k).layout(Layout.BLOCKED).build();
        boolean writtenOut = k <= Probing.BlockedBits.MAX_HASHES;
        assertEquals(writtenOut, Probing.of(spec) instanceof Probing.BlockedBits, "the probing chosen for k = " + k);
        assertEquals(writtenOut, Probing.slice(spec, 3) instanceof Probing.BlockedBits, "the slice's probing for k = " + k);
        assertLoopsFollowTheProbeSequence(spec, k % 2 == 0, false, spec.cells() / k / 8);
        assertLoopsFollowTheProbeSequence(spec, k % 2 != 0, true, spec.cells() / k / 8);
    }

    private static void assertLoopsFollowTheProbeSequence(BloomSpec spec, boolean singleWriter, boolean slice, long minNewKeys) {
        Layout layout = spec.layout();
        long firstBlock = slice ? 3 : 0;
        Probing probing = slice ? Probing.slice(spec, firstBlock) : Probing.of(spec);
        long cells = spec.cells() - (slice ? firstBlock * spec.cellsPerBlock() : 0);
        SplittableRandom random = new SplittableRandom(20261125L + layout.ordinal() * 7L + (singleWriter ? 1 : 0)
                + spec.hashes() * 31L);
        try (NativeCells loops = NativeCells.allocate(cells, 1, singleWriter);
                NativeCells definition = NativeCells.allocate(cells, 1)) {
            CellArray byLoops = loops.cells();
            CellArray byDefinition = definition.cells();
            int newKeys = 0;
            for (long n = 0; n < 3 * KEYS; n++) {
                long hash = random.nextLong();
                if (slice && Probing.Blocked.block(hash, Probing.Blocked.blocks(spec)) < firstBlock) {
                    continue; // the slice does not hold this key's block
                }
                long base = probing.base(hash);
                long step = probing.step(hash);
                boolean absent = false;
                for (int i = 0; i < spec.hashes(); i++) {
                    absent |= byDefinition.getVolatile(probing.index(base, step, i)) == 0;
                }
                assertEquals(!absent, probing.allBitsSetVolatile(byLoops.address(), hash), "query of key " + n);
                boolean changed = false;
                for (int i = 0; i < spec.hashes(); i++) {
                    changed |= byDefinition.incrementSaturating(probing.index(base, step, i)) == 0;
                }
                assertEquals(changed, probing.setBits(byLoops.address(), hash, singleWriter), "add of key " + n);
                assertTrue(probing.allBitsSetVolatile(byLoops.address(), hash), "query after the add of key " + n);
                newKeys += changed ? 1 : 0;
            }
            assertArrayEquals(words(byDefinition), words(byLoops));
            assertTrue(newKeys > minNewKeys, "keys new to the filter: " + newKeys);
        }
    }

    private static long[] words(CellArray cells) {
        long[] words = new long[(int) cells.words()];
        cells.copyWordsPlain(0, words, words.length);
        return words;
    }
}
