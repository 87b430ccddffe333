package io.bloomstore.internal.cells;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongBinaryOperator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The whole-word lane arithmetic against a lane-by-lane reference, at every width. */
class CounterLanesTest {
    /** Edge words for width w (all zero, all ones, each lane at max, alternating, single lanes) and random ones. */
    private static List<Long> words(int w) {
        long max = (1L << w) - 1;
        List<Long> words = new ArrayList<>(List.of(0L, -1L, 1L, Long.MIN_VALUE, 0x5555555555555555L,
                0xAAAAAAAAAAAAAAAAL, 0x0F0F0F0F0F0F0F0FL, 0xF0F0F0F0F0F0F0F0L));
        for (int shift = 0; shift < 64; shift += w) {
            words.add(max << shift);          // one saturated lane
            words.add(1L << shift);           // one lane at 1
            words.add((max - 1) << shift);    // one lane just below saturation
            words.add(1L << (shift + w - 1)); // one lane with only its top bit
        }
        SplittableRandom random = new SplittableRandom(w);
        for (int i = 0; i < 300; i++) {
            long word = random.nextLong();
            words.add(word);
            words.add(word & random.nextLong() & random.nextLong()); // sparse: many zero lanes
        }
        return words;
    }

    private static long lane(long word, int w, int shift) {
        return (word >>> shift) & ((1L << w) - 1);
    }

    /** Applies {@code op} to each pair of lanes: the obvious, slow definition. */
    private static long laneByLane(long a, long b, int w, LongBinaryOperator op) {
        long result = 0;
        for (int shift = 0; shift < 64; shift += w) {
            result |= op.applyAsLong(lane(a, w, shift), lane(b, w, shift)) << shift;
        }
        return result;
    }

    @ParameterizedTest(name = "w={0}")
    @ValueSource(ints = {1, 2, 4, 8, 16, 32})
    void nonZeroLanesCountsLanesThatAreNotZero(int w) {
        for (long word : words(w)) {
            int expected = 0;
            for (int shift = 0; shift < 64; shift += w) {
                expected += lane(word, w, shift) != 0 ? 1 : 0;
            }
            assertEquals(expected, CounterLanes.nonZeroLanes(word, w), Long.toHexString(word));
        }
    }

    @ParameterizedTest(name = "w={0}")
    @ValueSource(ints = {1, 2, 4, 8, 16, 32})
    void saturatingAddAndMinimumWorkLaneByLane(int w) {
        long max = (1L << w) - 1;
        List<Long> words = words(w);
        for (int i = 0; i < words.size(); i++) {
            long a = words.get(i);
            long b = words.get((i * 7 + 3) % words.size());
            assertEquals(laneByLane(a, b, w, (x, y) -> Math.min(max, x + y)), CounterLanes.saturatingAdd(a, b, w),
                    () -> Long.toHexString(a) + " + " + Long.toHexString(b));
            assertEquals(laneByLane(a, b, w, Math::min), CounterLanes.minimum(a, b, w),
                    () -> "min(" + Long.toHexString(a) + ", " + Long.toHexString(b) + ")");
        }
    }
}
