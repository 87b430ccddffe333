package io.bloomstore.internal.probe;

import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import io.bloomstore.internal.hashing.ProbeMath;
import io.bloomstore.internal.math.FalsePositiveMath;

/**
 * What a filter's fill says about it, by its layout's formula of {@link FalsePositiveMath}: the
 * keys added and the false-positive rate now. Here rather than in {@code internal.math}, which
 * {@link BloomSpec}'s sizing uses and so may not know the spec itself.
 */
public final class FillEstimates {
    private FillEstimates() {
    }

    /** How many distinct keys {@code spec}'s filter holds with {@code setCells} of its cells non-zero. */
    public static double estimateKeys(BloomSpec spec, long setCells) {
        return switch (spec.layout()) {
            case BLOCKED -> FalsePositiveMath.estimateBlockedKeys(spec.cells(), spec.hashes(), spec.cellsPerBlock(), setCells);
            case SECTORIZED -> {
                int sectors = ProbeMath.sectors(spec.hashes());
                yield FalsePositiveMath.estimateSectorizedKeys(spec.cells(), sectors, spec.hashes() / sectors, setCells);
            }
            case SBBF -> FalsePositiveMath.estimateSbbfKeys(spec.cells(), setCells);
            default -> FalsePositiveMath.estimateKeys(spec.cells(), spec.hashes(), setCells);
        };
    }

    /**
     * The false-positive rate {@code spec}'s filter has now. Standard layout: (X/m)^k from the
     * fill. Blocked layout: the fill of the whole array says little about the crowded blocks that
     * make most false positives (fill^k is 14% low for 1-bit cells and 35 times low for 32-bit
     * ones), so the rate is the model's at the estimated key count; so for the sectorized layout.
     */
    public static double currentFpp(BloomSpec spec, long setCells, double estimatedKeys) {
        if (spec.layout() == Layout.STANDARD) {
            return FalsePositiveMath.currentFpp(spec.cells(), spec.hashes(), setCells);
        }
        return Double.isInfinite(estimatedKeys) ? 1.0 : spec.expectedFpp(estimatedKeys);
    }
}
