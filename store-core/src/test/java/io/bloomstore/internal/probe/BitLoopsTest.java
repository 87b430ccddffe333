package io.bloomstore.internal.probe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import io.bloomstore.internal.cells.CellArray;
import io.bloomstore.internal.cells.NativeCells;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The layouts' own loops for 1-bit cells ({@link Probing#setBits}, {@link Probing#allBitsSetVolatile})
 * against their definition, the probe sequence of {@link Probing#index} read and written one cell at a
 * time through {@link CellArray}: the same bits set, the same "was new" and the same answers, key by
 * key, from empty to three times full, with shared cells (compare-and-set) and a single writer's
 * (plain stores), for each layout and a blocked and a sectorized slice that start past block 0.
 */
class BitLoopsTest {
    private static final long KEYS = 2_000;

    @ParameterizedTest(name = "{0}, p={1}, single writer {2}, slice {3}")
    @CsvSource({"STANDARD, 0.01, false, false", "STANDARD, 0.2, true, false", "BLOCKED, 0.01, false, false",
            "BLOCKED, 0.001, true, false", "BLOCKED, 0.01, false, true", "SECTORIZED, 0.01, false, true",
            "SECTORIZED, 0.001, true, true"})
    void setAndFindTheCellsOfTheProbeSequence(Layout layout, double fpp, boolean singleWriter, boolean slice) {
        BloomSpec spec = BloomSpec.builder().expectedKeys(KEYS).fpp(fpp).layout(layout).build();
        long firstBlock = slice ? 3 : 0;
        Probing probing = slice ? Probing.slice(spec, firstBlock) : Probing.of(spec);
        long cells = spec.cells() - (slice ? firstBlock * spec.cellsPerBlock() : 0);
        SplittableRandom random = new SplittableRandom(20261125L + layout.ordinal() * 7L + (singleWriter ? 1 : 0));
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
            assertTrue(newKeys > KEYS, "most keys were new: " + newKeys);
        }
    }

    private static long[] words(CellArray cells) {
        long[] words = new long[(int) cells.words()];
        cells.copyWordsPlain(0, words, words.length);
        return words;
    }
}
