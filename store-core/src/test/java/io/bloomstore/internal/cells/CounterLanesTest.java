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

    /** The cell rules' lane operations (docs/FORMAT.md, "Cell rules"): the valued joins and the stable decrement. */
    @ParameterizedTest(name = "w={0}")
    @ValueSource(ints = {1, 2, 4, 8, 16, 32})
    void joinsAndDecrementsWorkLaneByLane(int w) {
        List<Long> words = words(w);
        for (int i = 0; i < words.size(); i++) {
            long a = words.get(i);
            long b = words.get((i * 5 + 1) % words.size());
            assertEquals(laneByLane(a, b, w, Math::max), CounterLanes.maximum(a, b, w),
                    () -> "max(" + Long.toHexString(a) + ", " + Long.toHexString(b) + ")");
            assertEquals(laneByLane(a, b, w, (x, y) -> x == 0 ? y : y == 0 ? x : Math.min(x, y)),
                    CounterLanes.minimumNonEmpty(a, b, w), () -> "min over non-empty(" + Long.toHexString(a) + ", "
                            + Long.toHexString(b) + ")");
            // b's non-zero lanes, widened to whole lanes, select which of a's lanes the run lowers
            long lanes = laneByLane(b, 0, w, (x, y) -> x != 0 ? (1L << w) - 1 : 0);
            assertEquals(laneByLane(a, lanes, w, (x, sel) -> sel != 0 && x > 0 ? x - 1 : x),
                    CounterLanes.decrementNonZero(a, lanes, w), () -> "decrement " + Long.toHexString(a)
                            + " in lanes " + Long.toHexString(lanes));
        }
    }

    /**
     * Every pair of lane values that matters for carries and borrows (all of them for w up to 4;
     * else zero, one, the top bit alone, just below and at saturation, and their neighbours), in
     * every lane at once and in alternating lanes, so the top lane's carry out of bit 63 and every
     * lane's carry into its neighbour are exercised.
     */
    @ParameterizedTest(name = "w={0}")
    @ValueSource(ints = {1, 2, 4, 8, 16, 32})
    void everyPairOfEdgeLaneValuesSaturatesAndTakesTheMinimum(int w) {
        long max = (1L << w) - 1;
        long half = 1L << (w - 1);
        List<Long> values = new ArrayList<>();
        if (w <= 4) {
            for (long v = 0; v <= max; v++) {
                values.add(v);
            }
        } else {
            values.addAll(List.of(0L, 1L, 2L, half - 1, half, half + 1, max - 2, max - 1, max));
        }
        for (long x : values) {
            for (long y : values) {
                long a = 0;
                long b = 0;
                long alternatingA = 0;
                long alternatingB = 0;
                for (int lane = 0, shift = 0; shift < 64; lane++, shift += w) {
                    a |= x << shift;
                    b |= y << shift;
                    alternatingA |= (lane % 2 == 0 ? x : y) << shift;
                    alternatingB |= (lane % 2 == 0 ? y : x) << shift;
                }
                for (long[] pair : new long[][] {{a, b}, {alternatingA, alternatingB}}) {
                    long p = pair[0];
                    long q = pair[1];
                    String what = "x=" + x + ", y=" + y + ": " + Long.toHexString(p) + ", " + Long.toHexString(q);
                    assertEquals(laneByLane(p, q, w, (u, v) -> Math.min(max, u + v)), CounterLanes.saturatingAdd(p, q, w),
                            "saturating sum of " + what);
                    assertEquals(laneByLane(p, q, w, Math::min), CounterLanes.minimum(p, q, w), "minimum of " + what);
                }
            }
        }
    }

    /** Every pair of the edge and random words, not only one partner each. */
    @ParameterizedTest(name = "w={0}")
    @ValueSource(ints = {1, 2, 4, 8, 16, 32})
    void saturatingAddAndMinimumMatchTheReferenceOnAllPairs(int w) {
        long max = (1L << w) - 1;
        List<Long> words = words(w);
        for (long a : words) {
            for (long b : words) {
                assertEquals(laneByLane(a, b, w, (x, y) -> Math.min(max, x + y)), CounterLanes.saturatingAdd(a, b, w),
                        () -> Long.toHexString(a) + " + " + Long.toHexString(b));
                assertEquals(laneByLane(a, b, w, Math::min), CounterLanes.minimum(a, b, w),
                        () -> "min(" + Long.toHexString(a) + ", " + Long.toHexString(b) + ")");
            }
        }
    }
}
