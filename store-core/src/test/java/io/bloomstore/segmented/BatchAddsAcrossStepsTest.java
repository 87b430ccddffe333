package io.bloomstore.segmented;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.GrowingBloomFilter;
import io.bloomstore.GrowingSpec;
import io.bloomstore.Layout;
import io.bloomstore.RegionStats;
import io.bloomstore.WindowSpec;
import io.bloomstore.WindowedBloomFilter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A batch add goes through the batch engine a group of keys at a time, and a chain's growth or a
 * ring's rotation can fall inside a group: each key must still be added by the protocol as it
 * stands when that key comes, not as it stood when its group (or the batch) began.
 */
class BatchAddsAcrossStepsTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final long E = 1000;
    private static final int L = 8;

    @TempDir
    Path dir;

    /**
     * Keys added in batches whose length is no multiple of a group (so growths fall inside groups)
     * fill the same segments, cell for cell, as the same keys added one by one, and count as many
     * new keys.
     */
    @ParameterizedTest
    @EnumSource(value = Layout.class, names = {"STANDARD", "BLOCKED", "SECTORIZED"})
    void aBatchAddGrowsTheChainAsSingleAddsDo(Layout layout) throws Exception {
        GrowingSpec spec = GrowingSpec.of(1000, 0.01).withLayout(layout);
        int keys = 40_000;
        try (GrowingBloomFilter single = GrowingBloomFilter.create(dir.resolve("single.bloom"), spec);
                GrowingBloomFilter batched = GrowingBloomFilter.create(dir.resolve("batched.bloom"), spec)) {
            int newBySingle = 0;
            for (long key = 0; key < keys; key++) {
                newBySingle += single.add(key) ? 1 : 0;
            }
            int newByBatches = 0;
            long[] hashes = new long[777];
            for (int from = 0; from < keys; from += hashes.length) {
                int count = Math.min(hashes.length, keys - from);
                for (int i = 0; i < count; i++) {
                    hashes[i] = batched.hasher().hash((long) from + i);
                }
                newByBatches += batched.addHashes(hashes, count);
            }
            assertEquals(newBySingle, newByBatches, "new keys counted");
            assertTrue(single.segmentCount() >= 5, single.segmentCount() + " segments: the batches grew the chain");
            assertEquals(single.segmentCount(), batched.segmentCount(), "segments");
            List<RegionStats> expected = single.stats().parts();
            List<RegionStats> actual = batched.stats().parts();
            for (int i = 0; i < expected.size(); i++) {
                assertEquals(expected.get(i).setCells(), actual.get(i).setCells(), "set cells of segment " + i);
                assertEquals(expected.get(i).publishedKeys(), actual.get(i).publishedKeys(), "keys of segment " + i);
            }
        }
    }

    /**
     * One batch add during which the ring's clock passes several epochs within its first groups:
     * the keys after each rotation go into the slot that rotation made current (so every epoch the
     * batch lived through holds some of them), and all of them are found afterwards, every one
     * still in the window.
     */
    @ParameterizedTest
    @EnumSource(value = Layout.class, names = {"STANDARD", "BLOCKED", "SECTORIZED"})
    void aBatchAddAcrossRotationsPutsEachKeyIntoTheSlotCurrentWhenItCame(Layout layout) throws Exception {
        WindowSpec spec = WindowSpec.of(80_000, 0.01, Duration.ofMillis(L * E)).withEpochs(L).withLayout(layout);
        EpochPerReads clock = new EpochPerReads();
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(dir.resolve("ring.bloom"), spec, clock)) {
            long[] hashes = new long[20_000];
            for (int i = 0; i < hashes.length; i++) {
                hashes[i] = filter.hasher().hash((long) i);
            }
            // The ring reads its clock once or a few times per key added, so an epoch passes every few
            // keys, within the batch's first groups: a ring judged once a batch would rotate no slot in.
            clock.stepEvery(8);
            long firstEpoch = clock.millis() / E;
            int added = filter.addHashes(hashes, hashes.length);
            clock.stop();
            long lastEpoch = clock.millis() / E;
            assertEquals(EpochPerReads.STEPS, lastEpoch - firstEpoch, "epochs the clock passed during the batch");
            assertTrue(added > hashes.length * 0.97, added + " new of " + hashes.length + " distinct keys");
            int slotsOfTheBatch = 0;
            for (RegionStats slot : filter.stats().parts()) {
                if (slot.epoch() >= firstEpoch && slot.epoch() <= lastEpoch) {
                    slotsOfTheBatch++;
                    assertTrue(slot.setCells() > 0, "the slot of epoch " + slot.epoch() + ", current during the batch,"
                            + " holds keys of it");
                }
            }
            assertEquals(EpochPerReads.STEPS + 1, slotsOfTheBatch, "slots rotated in for the batch's epochs");
            boolean[] found = new boolean[hashes.length];
            assertEquals(hashes.length, filter.mightContainHashes(hashes, hashes.length, found), "every key found");
        }
    }

    /**
     * A clock that, once told, moves one epoch on every so many reads, as if that many reads took
     * an epoch, up to {@link #STEPS} epochs: fewer than the window, so every key stays in it.
     */
    private static final class EpochPerReads extends TestClock {
        static final int STEPS = 4;
        private final AtomicLong reads = new AtomicLong();
        private volatile long every = Long.MAX_VALUE;
        private volatile long stoppedAt = -1;

        EpochPerReads() {
            super(T0);
        }

        void stepEvery(long readsPerEpoch) {
            reads.set(0);
            every = readsPerEpoch;
        }

        void stop() {
            stoppedAt = millis();
        }

        @Override
        public long millis() {
            long stopped = stoppedAt;
            return stopped >= 0 ? stopped : T0 + Math.min(STEPS, reads.getAndIncrement() / every) * E;
        }
    }
}
