package io.bloomstore.internal.segment;

import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import io.bloomstore.internal.hashing.ProbeMath;
import io.bloomstore.internal.math.LegacySectorizedFppModel;

/**
 * The sectorized sizing of before (docs/FORMAT.md, "Sizing the regions"), which the regions of the
 * growing and windowed sectorized files written then have: such a region is accepted as the
 * current sizing's is.
 */
final class SizingBefore {
    private SizingBefore() {
    }

    /** Whether a sectorized region's m and k are what the sizing of before gave for its n and p. */
    static boolean sized(BloomSpec region) {
        if (region.layout() != Layout.SECTORIZED || region.expectedKeys() <= 0 || !(region.targetFpp() > 0)) {
            return false;
        }
        long[] choice = LegacySectorizedFppModel.sizing(region.expectedKeys(), region.targetFpp(),
                BloomSpec.MAX_CELLS / BloomSpec.BLOCK_BITS, ProbeMath::sectors).fewest();
        return choice != null && choice[0] * BloomSpec.BLOCK_BITS == region.cells() && choice[1] == region.hashes();
    }
}
