package io.bloomstore.internal.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.bloomstore.BloomSpec;
import io.bloomstore.GrowingSpec;
import io.bloomstore.Layout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * {@link BlockedFppModel#of} shares one model per block size and k, so a sizing reuses the block
 * rates an earlier one computed: the same object for the same (B, k), and from it exactly the
 * rates, bit for bit, that a model of its own computes, whatever order and threads asked them in.
 */
class SharedBlockedFppModelTest {
    @Test
    void oneModelPerBlockSizeAndK() {
        assertSame(BlockedFppModel.of(512, 7), BlockedFppModel.of(512, 7));
        assertNotSame(BlockedFppModel.of(512, 7), BlockedFppModel.of(512, 6));
        assertNotSame(BlockedFppModel.of(512, 7), BlockedFppModel.of(128, 7));
    }

    @Test
    void sharedRatesAreAFreshModelsBitForBitInAnyOrder() {
        // B = 64 (8-bit counters), k = 9: the block counts asked out of order, past whatever an earlier sizing in this JVM filled in
        BlockedFppModel shared = BlockedFppModel.of(64, 9);
        int[] order = {120, 3, 141, 0, 57, 142, 1, 90};
        for (int keys : order) {
            assertEquals(Double.doubleToLongBits(new BlockedFppModel(64, 9).blockFpp(keys)),
                    Double.doubleToLongBits(shared.blockFpp(keys)), "block rate with " + keys + " keys");
        }
        for (double keys : new double[] {1_000, 12_345.5, 1e6}) {
            assertEquals(Double.doubleToLongBits(new BlockedFppModel(64, 9).fpp(1L << 20, keys)),
                    Double.doubleToLongBits(shared.fpp(1L << 20, keys)), "filter rate with " + keys + " keys");
        }
    }

    /** Growing chains sized at once on several threads get the shapes one thread sizing alone gets. */
    @Test
    void sizingsOnManyThreadsAtOnceAgreeWithOneAlone() throws Exception {
        List<GrowingSpec> chains = new ArrayList<>();
        for (double fpp : new double[] {0.05, 0.01, 0.001}) {
            chains.add(GrowingSpec.of(50_000, fpp).withLayout(Layout.BLOCKED));
        }
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<BloomSpec>>> sized = new ArrayList<>();
            for (int copy = 0; copy < 4; copy++) {
                for (GrowingSpec chain : chains) {
                    sized.add(threads.submit(() -> segments(chain)));
                }
            }
            for (int i = 0; i < sized.size(); i++) {
                assertEquals(segments(chains.get(i % chains.size())), sized.get(i).get());
            }
        } finally {
            threads.shutdownNow();
        }
    }

    private static List<BloomSpec> segments(GrowingSpec chain) {
        List<BloomSpec> segments = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            segments.add(chain.segmentSpec(i));
        }
        return segments;
    }
}
