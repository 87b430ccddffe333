package io.bloomstore.internal.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import io.bloomstore.internal.cells.CellArray;
import io.bloomstore.internal.cells.CellArrayGroup;
import io.bloomstore.internal.cells.NativeCells;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The lockstep query against its definition: whether a candidate array's own probe loop
 * ({@link CellQueries#mightContain}) finds the key. 70 arrays, so that a group of 64 and one of 6
 * are asked, from empty to overfull, with one, two or many candidates (the query ends alone with
 * the last array in the running), each layout, bits and 4-bit counters, and an odd and an even k
 * (the standard layout reads two probes a round).
 */
class LockstepQueriesTest {
    private static final int ARRAYS = 70;
    private static final long KEYS_PER_ARRAY = 400;

    @ParameterizedTest(name = "{0}, w={1}, p={2}")
    @CsvSource({"STANDARD, 1, 0.05", "BLOCKED, 1, 0.05", "STANDARD, 4, 0.05", "BLOCKED, 4, 0.05", "STANDARD, 1, 0.1",
            "STANDARD, 1, 0.01", "BLOCKED, 1, 0.01"})
    void answersWhatEachArrayAnswersAlone(Layout layout, int counterBits, double fpp) {
        BloomSpec spec = BloomSpec.builder().expectedKeys(KEYS_PER_ARRAY).fpp(fpp).layout(layout)
                .counterBits(counterBits).build();
        SplittableRandom random = new SplittableRandom(20261124L + layout.ordinal() * 31L + counterBits);
        List<NativeCells> memory = new ArrayList<>();
        try {
            CellArray[] arrays = new CellArray[ARRAYS];
            CellQueries[] alone = new CellQueries[ARRAYS];
            List<Long> added = new ArrayList<>();
            for (int j = 0; j < ARRAYS; j++) {
                NativeCells cells = NativeCells.allocate(spec.cells(), counterBits);
                memory.add(cells);
                arrays[j] = cells.cells();
                CellProbes probes = new CellProbes(spec, arrays[j]);
                alone[j] = probes;
                long keys = j % 7 == 0 ? 0 : random.nextLong(3 * KEYS_PER_ARRAY); // empty to three times full
                for (long i = 0; i < keys; i++) {
                    long hash = random.nextLong();
                    probes.increment(hash);
                    added.add(hash);
                }
            }
            LockstepQueries queries = new LockstepQueries(spec, new CellArrayGroup(arrays));
            int held = 0;
            for (int q = 0; q < 20_000; q++) {
                long hash = q % 2 == 0 ? added.get(random.nextInt(added.size())) : random.nextLong();
                long candidates = switch (q % 3) {
                    case 0 -> -1L;
                    case 1 -> 1L << random.nextInt(Long.SIZE) | 1L << random.nextInt(Long.SIZE); // one or two
                    default -> random.nextLong();
                };
                for (int first : new int[] {0, 64, 3}) {
                    long asked = first + Long.SIZE <= ARRAYS ? candidates : candidates & (1L << (ARRAYS - first)) - 1;
                    boolean expected = false;
                    for (int b = 0; b < Long.SIZE && first + b < ARRAYS; b++) {
                        expected |= (asked >>> b & 1) != 0 && alone[first + b].mightContain(hash);
                    }
                    assertEquals(expected, queries.anyHolds(hash, first, asked),
                            "hash " + hash + ", first " + first + ", candidates " + Long.toHexString(asked));
                    held += expected ? 1 : 0;
                }
            }
            assertTrue(held > 10_000, "the added keys are held somewhere: " + held + " of 60,000 asks held");
        } finally {
            memory.forEach(NativeCells::close);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"STANDARD", "BLOCKED"})
    void refusesAnArrayOfAnotherShape(Layout layout) {
        BloomSpec spec = BloomSpec.builder().expectedKeys(KEYS_PER_ARRAY).fpp(0.05).layout(layout).build();
        try (NativeCells same = NativeCells.allocate(spec.cells(), 1);
                NativeCells shorter = NativeCells.allocate(spec.cells() - 512, 1);
                NativeCells wider = NativeCells.allocate(spec.cells(), 4)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new CellArrayGroup(same.cells(), shorter.cells()));
            assertTrue(e.getMessage().contains("array 1 has " + (spec.cells() - 512) + " cells"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class,
                    () -> new LockstepQueries(spec, new CellArrayGroup(wider.cells())));
            assertTrue(e.getMessage().contains("4 bits probed as"), e.getMessage());
            assertThrows(IllegalArgumentException.class, CellArrayGroup::new);
        }
    }
}
