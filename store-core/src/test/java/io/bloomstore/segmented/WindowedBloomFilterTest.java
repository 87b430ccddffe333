package io.bloomstore.segmented;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.bloomstore.CompositeStats;
import io.bloomstore.OpenMode;
import io.bloomstore.SegmentStats;
import io.bloomstore.WindowSpec;
import io.bloomstore.WindowedBloomFilter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The window's promise, on a clock the test moves: a key added at t is found at every time up to
 * t + window and gone (up to the false-positive rate) after t + window + E; concurrent adders lose
 * nothing inside the window while rotations race them; a jump over many epochs clears every
 * expired slot.
 */
class WindowedBloomFilterTest {
    private static final long E = 1000;
    private static final int L = 8;
    private static final long WINDOW = L * E;
    /** An instant on an epoch boundary, well after 1970. */
    private static final long T0 = 1_700_000_000_000L;
    private static final double P = 0.01;

    @TempDir
    Path dir;

    private static WindowSpec spec(long keysPerWindow) {
        return WindowSpec.of(keysPerWindow, P, Duration.ofMillis(WINDOW)).withEpochs(L);
    }

    /**
     * Keys added at the start, middle and end of an epoch are found at t + window - 1 (while adds
     * at every epoch rotate the ring under them) and gone at t + window + E.
     */
    @ParameterizedTest
    @ValueSource(longs = {0, 500, 999})
    void aKeyIsFoundForTheWindowAndForgottenWithinOneMoreEpoch(long offsetInEpoch) throws Exception {
        TestClock clock = new TestClock(T0);
        int keys = 2000;
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(dir.resolve("w.bloom"), spec(8 * keys), clock)) {
            long t = T0 + 3 * E + offsetInEpoch;
            clock.set(t);
            int fresh = 0;
            for (long key = 0; key < keys; key++) {
                fresh += filter.add(key) ? 1 : 0;
            }
            assertTrue(fresh >= keys * (1 - P), fresh + " of " + keys + " distinct keys reported new");
            // Other keys at every later epoch make each rotation happen through an add, as in use.
            for (long at = t + E; at <= t + WINDOW - 1; at += E) {
                clock.set(at);
                filter.add(1_000_000 + at);
            }
            clock.set(t + WINDOW - 1);
            filter.add(2_000_000L);
            for (long key = 0; key < keys; key++) {
                if (!filter.mightContain(key)) {
                    fail("key " + key + " added at " + t + " is missing at t + window - 1");
                }
            }
            assertFalse(filter.add(0L), "seen within the window: not new");
            clock.set(t + WINDOW + E);
            int stillFound = 0;
            for (long key = 1; key < keys; key++) {
                stillFound += filter.mightContain(key) ? 1 : 0;
            }
            double allowed = P + 4 * Math.sqrt(P * (1 - P) / keys);
            assertTrue((double) stillFound / keys <= allowed, stillFound + " of " + keys + " still found after window + E");
        }
    }

    /**
     * Three adder threads and a clock that moves on by half an epoch at a time, so rotations race
     * the adds: at the end every key whose add began within the window is found, by this handle
     * and by a fresh one.
     */
    @Test
    void concurrentAddersRacingRotationsLoseNothingInsideTheWindow() throws Exception {
        TestClock clock = new TestClock(T0);
        Path file = dir.resolve("race.bloom");
        int threads = 3;
        record Added(long key, long startMillis) {
        }
        ConcurrentLinkedQueue<Added> added = new ConcurrentLinkedQueue<>();
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(file, spec(200_000), clock)) {
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong nextKey = new AtomicLong();
            CountDownLatch started = new CountDownLatch(threads);
            List<Thread> adders = new ArrayList<>();
            ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
            for (int i = 0; i < threads; i++) {
                Thread adder = new Thread(() -> {
                    started.countDown();
                    try {
                        while (!stop.get()) {
                            long key = nextKey.getAndIncrement();
                            long start = clock.millis();
                            filter.add(key);
                            added.add(new Added(key, start));
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                });
                adder.start();
                adders.add(adder);
            }
            started.await();
            // 40 half-epochs: 20 rotations, two and a half windows; each step waits for some adds.
            for (int step = 0; step < 40; step++) {
                long target = nextKey.get() + 500;
                while (nextKey.get() < target && errors.isEmpty()) {
                    Thread.onSpinWait();
                }
                clock.advance(E / 2);
            }
            stop.set(true);
            for (Thread adder : adders) {
                adder.join();
            }
            assertTrue(errors.isEmpty(), () -> "an adder failed: " + errors.peek());
            long now = clock.millis();
            try (WindowedBloomFilter fresh = WindowedBloomFilter.open(file, OpenMode.READ_ONLY, clock)) {
                int checked = 0;
                for (Added a : added) {
                    if (a.startMillis() + WINDOW >= now) {
                        checked++;
                        if (!filter.mightContain(a.key()) || !fresh.mightContain(a.key())) {
                            fail("key " + a.key() + " added at " + a.startMillis() + " is missing at " + now
                                    + " (window " + WINDOW + ")");
                        }
                    }
                }
                assertTrue(checked > 1000, checked + " keys inside the window");
                System.out.printf(Locale.ROOT, "window race: %d adds by %d threads over 20 rotations, %d inside the window all found%n",
                        added.size(), threads, checked);
            }
            // The last advance of the clock may have come after the last add: the file lags by at most that.
            assertTrue(filter.currentEpoch() >= Math.floorDiv(now - E / 2, E) && filter.currentEpoch() <= Math.floorDiv(now, E),
                    "current epoch " + filter.currentEpoch() + " at " + now);
        }
    }

    /** A process asleep for days: the first add after it clears every expired slot, and old keys are gone. */
    @Test
    void aJumpOverManyEpochsClearsEveryExpiredSlot() throws Exception {
        TestClock clock = new TestClock(T0);
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(dir.resolve("jump.bloom"), spec(80_000), clock)) {
            for (long epoch = 0; epoch <= L; epoch++) {
                clock.set(T0 + epoch * E);
                for (long key = epoch * 10_000; key < epoch * 10_000 + 1000; key++) {
                    filter.add(key);
                }
            }
            assertTrue(filter.stats().parts().stream().allMatch(part -> part.publishedKeys() > 0), "every slot filled");
            clock.set(T0 + Duration.ofDays(3).toMillis());
            assertFalse(filter.mightContain(5L) && filter.mightContain(10_005L) && filter.mightContain(80_005L),
                    "expired keys answered by the clock before any rotation");
            filter.add(-1L);
            long current = Math.floorDiv(clock.millis(), E);
            assertEquals(current, filter.currentEpoch());
            CompositeStats stats = filter.stats();
            for (SegmentStats slot : stats.parts()) {
                assertTrue(slot.epoch() >= current - L && slot.epoch() <= current, "slot " + slot.index() + " holds " + slot.epoch());
                assertEquals(Math.floorMod(slot.epoch(), L + 1), slot.index(), "slot of epoch " + slot.epoch());
                long expectedSet = slot.epoch() == current ? 1 : 0;
                assertEquals(expectedSet == 1, slot.setCells() > 0, "slot " + slot.index() + " set cells " + slot.setCells());
                assertTrue(slot.probed());
            }
            assertTrue(filter.mightContain(-1L));
        }
    }

    /**
     * Sizing: each of the L + 1 slots holds n / L keys at 1 - (1 - P)^(1/(L+1)), so a query over a
     * full window of n keys (spread over its epochs) is wrong at most P of the time.
     */
    @Test
    void aQueryOverAFullWindowMeetsP() throws Exception {
        TestClock clock = new TestClock(T0);
        long n = 40_000;
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(dir.resolve("fpr.bloom"), spec(n), clock)) {
            double slotRate = -Math.expm1(Math.log1p(-P) / (L + 1));
            for (SegmentStats slot : filter.stats().parts()) {
                assertEquals(n / L, slot.capacity());
                assertEquals(slotRate, slot.targetFpp(), 1e-15);
            }
            // L + 1 epochs of n / L keys each: every slot full, the most a query ever probes.
            long key = 0;
            for (int epoch = 0; epoch <= L; epoch++) {
                clock.set(T0 + epoch * E);
                for (long i = 0; i < n / L; i++) {
                    filter.add(key++);
                }
            }
            int queries = 200_000;
            int falsePositives = 0;
            for (long q = 0; q < queries; q++) {
                falsePositives += filter.mightContain(-1 - q) ? 1 : 0;
            }
            double measured = (double) falsePositives / queries;
            double sigma = Math.sqrt(P * (1 - P) / queries);
            System.out.printf(Locale.ROOT, "window of %d slots: measured rate %.5f, compound from fill %.5f (P %.3f)%n",
                    L + 1, measured, filter.stats().compoundFpp(), P);
            assertTrue(measured <= P + 4 * sigma, "measured " + measured);
        }
    }
}
