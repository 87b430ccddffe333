package io.bloomstore.segmented;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.bloomstore.BloomSpec;
import io.bloomstore.SegmentedStats;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.Layout;
import io.bloomstore.OpenMode;
import io.bloomstore.RegionStats;
import io.bloomstore.WindowSpec;
import io.bloomstore.WindowedBloomFilter;
import io.bloomstore.internal.format.ContainerHeader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

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
        return spec(keysPerWindow, Layout.STANDARD);
    }

    private static WindowSpec spec(long keysPerWindow, Layout layout) {
        return WindowSpec.of(keysPerWindow, P, Duration.ofMillis(WINDOW)).withEpochs(L).withLayout(layout);
    }

    /** A ring's slots are blocked unless asked otherwise: its query asks every slot (WindowSpec.DEFAULT_LAYOUT says why). */
    @Test
    void aWindowIsBlockedUnlessAskedOtherwise() throws Exception {
        WindowSpec spec = WindowSpec.of(1000, P, Duration.ofMillis(WINDOW));
        assertEquals(Layout.BLOCKED, spec.layout());
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(dir.resolve("w.bloom"), spec, new TestClock(T0))) {
            assertEquals(Layout.BLOCKED, filter.spec().layout());
        }
        assertEquals(Layout.STANDARD, spec.withLayout(Layout.STANDARD).layout());
    }

    /**
     * An epoch that takes more than its share of the window's keys (n / L) puts the ring past its
     * capacity, as this handle counts at once and another handle once the count is published; the
     * ring is within it again once that epoch has left the window.
     */
    @ParameterizedTest
    @EnumSource(value = Layout.class, names = {"SBBF", "GUAVA", "SPARK_SKETCH"}, mode = EnumSource.Mode.EXCLUDE)
    void anEpochPastItsShareOfTheWindowIsPastCapacityUntilItLeavesTheWindow(Layout layout) throws Exception {
        TestClock clock = new TestClock(T0);
        long perEpoch = 1000;
        Path path = dir.resolve("burst.bloom");
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(path, spec(L * perEpoch, layout), clock)) {
            long key = 0;
            // The first epoch, with every other slot empty: add answers "new" exactly when the slot counts a key.
            for (long added = 0; added < perEpoch; ) {
                added += filter.add(key++) ? 1 : 0;
            }
            assertFalse(filter.isPastCapacity(), "the epoch's share exactly");
            // The second epoch: its keys do not count against the first's share, nor the first's against it.
            clock.set(T0 + E);
            for (long i = 0; i < perEpoch * 9 / 10; i++) {
                filter.add(key++);
            }
            assertFalse(filter.isPastCapacity(), "0.9 of a share in the second epoch");
            for (long i = 0; i < perEpoch * 2 / 10; i++) {
                filter.add(key++);
            }
            assertTrue(filter.isPastCapacity(), "1.1 shares in the second epoch");
            try (WindowedBloomFilter other = WindowedBloomFilter.open(path, OpenMode.READ_ONLY, clock)) {
                filter.sync(); // publishes this handle's count
                assertTrue(other.isPastCapacity(), "seen through another handle once published");
            }
            clock.set(T0 + E + WINDOW + E); // the second epoch has left the window, and nothing came since
            assertFalse(filter.isPastCapacity());
        }
    }

    /**
     * Keys added at the start, middle and end of an epoch are found at t + window - 1 (while adds
     * at every epoch rotate the ring under them) and gone at t + window + E.
     */
    @ParameterizedTest
    @CsvSource({"0, STANDARD", "500, STANDARD", "999, STANDARD", "0, BLOCKED", "999, BLOCKED"})
    void aKeyIsFoundForTheWindowAndForgottenWithinOneMoreEpoch(long offsetInEpoch, Layout layout) throws Exception {
        TestClock clock = new TestClock(T0);
        int keys = 2000;
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(dir.resolve("w.bloom"), spec(8 * keys, layout), clock)) {
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
    @ParameterizedTest
    @EnumSource(value = Layout.class, names = {"SBBF", "GUAVA", "SPARK_SKETCH"}, mode = EnumSource.Mode.EXCLUDE)
    void concurrentAddersRacingRotationsLoseNothingInsideTheWindow(Layout layout) throws Exception {
        TestClock clock = new TestClock(T0);
        Path file = dir.resolve("race.bloom");
        int threads = 3;
        record Added(long key, long startMillis) {
        }
        ConcurrentLinkedQueue<Added> added = new ConcurrentLinkedQueue<>();
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(file, spec(200_000, layout), clock)) {
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

    /**
     * refreshHash, what a dedup asks of each key: a key never seen is not added; a key seen within
     * the window is added into the current slot, so a key refreshed every epoch is found long past a
     * window after its first add, while a key added once at the same time is forgotten.
     */
    @ParameterizedTest
    @EnumSource(value = Layout.class, names = {"SBBF", "GUAVA", "SPARK_SKETCH"}, mode = EnumSource.Mode.EXCLUDE)
    void aRefreshedKeyStartsItsWindowAnewAndANewOneIsNotAdded(Layout layout) throws Exception {
        TestClock clock = new TestClock(T0);
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(dir.resolve("refresh.bloom"), spec(8000, layout), clock)) {
            assertFalse(filter.refreshHash(filter.hasher().hash(1L)), "never seen");
            assertFalse(filter.mightContain(1L), "and not added");
            filter.add(2L);
            filter.add(3L);
            for (long at = T0 + E; at <= T0 + 3 * WINDOW; at += E) {
                clock.set(at);
                assertTrue(filter.refreshHash(filter.hasher().hash(2L)), "seen at " + (at - T0) + " ms");
            }
            assertTrue(filter.mightContain(2L), "refreshed every epoch: found three windows after its first add");
            assertFalse(filter.mightContain(3L), "added once: forgotten");
            assertEquals(1, filter.stats().parts().stream().filter(p -> p.epoch() == filter.currentEpoch())
                    .mapToLong(RegionStats::publishedKeys).sum(), "the refresh counts as the current slot's key");
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
            SegmentedStats stats = filter.stats();
            for (RegionStats slot : stats.parts()) {
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
    @ParameterizedTest
    @EnumSource(value = Layout.class, names = {"SBBF", "GUAVA", "SPARK_SKETCH"}, mode = EnumSource.Mode.EXCLUDE)
    void aQueryOverAFullWindowMeetsP(Layout layout) throws Exception {
        TestClock clock = new TestClock(T0);
        long n = 40_000;
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(dir.resolve("fpr.bloom"), spec(n, layout), clock)) {
            double slotRate = -Math.expm1(Math.log1p(-P) / (L + 1));
            for (RegionStats slot : filter.stats().parts()) {
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
            System.out.printf(Locale.ROOT, "window of %d slots, %s: measured rate %.5f, compound from fill %.5f (P %.3f)%n",
                    L + 1, layout, measured, filter.stats().compoundFpp(), P);
            assertTrue(measured <= P + 4 * sigma, "measured " + measured);
        }
    }

    /**
     * The most epochs a ring has, 64, makes 65 slots: more than one query judges at once (64), so
     * a query asks them in two groups; a key added in each of the 65 epochs is found, the oldest
     * in the second group's one slot included, until its window ends.
     */
    @ParameterizedTest
    @EnumSource(value = Layout.class, names = {"SBBF", "GUAVA", "SPARK_SKETCH"}, mode = EnumSource.Mode.EXCLUDE)
    void aRingOf65SlotsFindsTheKeysOfEverySlot(Layout layout) throws Exception {
        int epochs = 64;
        TestClock clock = new TestClock(T0);
        WindowSpec spec = new WindowSpec(epochs * 100L, P, Duration.ofMillis(epochs * E), epochs, layout, 7L);
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(dir.resolve("65.bloom"), spec, clock)) {
            assertEquals(epochs + 1, filter.stats().parts().size());
            for (int epoch = 0; epoch <= epochs; epoch++) {
                clock.set(T0 + epoch * E);
                for (long key = 0; key < 100; key++) {
                    filter.add(epoch * 1000L + key);
                }
            }
            long[] all = new long[(epochs + 1) * 100];
            for (int epoch = 0; epoch <= epochs; epoch++) {
                for (long key = 0; key < 100; key++) {
                    all[(int) (epoch * 100 + key)] = epoch * 1000L + key;
                    assertTrue(filter.mightContain(epoch * 1000L + key), "key " + key + " of epoch " + epoch + " is found");
                    assertFalse(filter.add(epoch * 1000L + key), "key " + key + " of epoch " + epoch + " was seen");
                }
            }
            assertEquals(all.length, filter.mightContainAll(all, new boolean[all.length]), "found by a batch query");
            clock.set(T0 + (2 * epochs + 1) * E); // a window after the last epoch: all expired
            int found = 0;
            for (int epoch = 0; epoch <= epochs; epoch++) {
                for (long key = 0; key < 100; key++) {
                    found += filter.mightContain(epoch * 1000L + key) ? 1 : 0;
                }
            }
            assertEquals(0, found, "keys found after their window");
            assertEquals(0, filter.mightContainAll(all, new boolean[all.length]), "found by a batch query after their window");
        }
    }

    /**
     * A batch query asks the slots live at its start, in its own loop: over a ring whose oldest
     * epochs have expired and whose live slots hold keys of different epochs, it answers each key as
     * a single query (slots asked in lockstep) does, members of every epoch and strangers alike; the
     * live epochs' members are all found, the expired ones' only as false positives.
     */
    @ParameterizedTest
    @EnumSource(value = Layout.class, names = {"SBBF", "GUAVA", "SPARK_SKETCH"}, mode = EnumSource.Mode.EXCLUDE)
    void aBatchQueryAnswersAsSingleQueriesAcrossTheSlots(Layout layout) throws Exception {
        int epochs = L + 4;
        int perEpoch = 500;
        TestClock clock = new TestClock(T0);
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(dir.resolve("batch.bloom"), spec(L * 1000L, layout), clock)) {
            for (int epoch = 0; epoch < epochs; epoch++) {
                clock.set(T0 + epoch * E);
                for (long key = 0; key < perEpoch; key++) {
                    filter.add(epoch * 1_000_000L + key);
                }
            }
            long[] strangers = new SplittableRandom(11).longs(5_000).toArray();
            long[] keys = Arrays.copyOf(strangers, epochs * perEpoch + strangers.length);
            for (int epoch = 0; epoch < epochs; epoch++) {
                for (int key = 0; key < perEpoch; key++) {
                    keys[strangers.length + epoch * perEpoch + key] = epoch * 1_000_000L + key;
                }
            }
            boolean[] single = new boolean[keys.length];
            int singlePresent = 0;
            for (int i = 0; i < keys.length; i++) {
                single[i] = filter.mightContain(keys[i]);
                singlePresent += single[i] ? 1 : 0;
            }
            boolean[] batch = new boolean[keys.length];
            assertEquals(singlePresent, filter.mightContainAll(keys, batch));
            assertArrayEquals(single, batch, "each key answered as a single query answers it");

            int expired = epochs - L - 1; // the window and the current epoch: the last L + 1 epochs
            int expiredFound = 0;
            for (int epoch = 0; epoch < epochs; epoch++) {
                for (int key = 0; key < perEpoch; key++) {
                    boolean found = batch[strangers.length + epoch * perEpoch + key];
                    if (epoch < expired) {
                        expiredFound += found ? 1 : 0;
                    } else {
                        assertTrue(found, "key " + key + " of live epoch " + epoch);
                    }
                }
            }
            // Binomial(expired * perEpoch, P): 6 standard deviations above the mean fails by chance once in 10^9.
            double mean = expired * perEpoch * P;
            assertTrue(expiredFound <= mean + 6 * Math.sqrt(mean * (1 - P)), expiredFound + " expired keys found");
        }
    }

    /**
     * The slots are asked with one probing, so a slot whose own (valid) header gives it another
     * shape than the ring's sizing is refused when the file is opened, naming the slot.
     */
    @Test
    void aSlotOfAnotherShapeIsRefusedAtOpen() throws Exception {
        Path file = dir.resolve("shape.bloom");
        WindowSpec spec = spec(8000);
        WindowedBloomFilter.create(file, spec, new TestClock(T0)).close();
        byte[] bytes = Files.readAllBytes(file);
        BloomSpec ring = ContainerHeader.windowed(spec.layout(), spec.seed(), spec.expectedKeys(), spec.fpp(),
                spec.window().toMillis(), spec.epochs(), T0).regionSpec(1);
        ForgedRegionHeader.withOneMoreHash(bytes, 1, ring);
        Files.write(file, bytes);
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class,
                () -> WindowedBloomFilter.open(file, OpenMode.READ_ONLY, new TestClock(T0)));
        assertEquals(InvalidFilterFileException.Problem.BAD_FIELD, e.problem());
        assertTrue(e.getMessage().contains("slot 1's own header has m = " + ring.cells() + " cells where sizing its n,"
                + " p and k gives "), e.getMessage());
    }
}
