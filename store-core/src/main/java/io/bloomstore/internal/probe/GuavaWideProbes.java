package io.bloomstore.internal.probe;

import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import io.bloomstore.internal.cells.CellArray;
import io.bloomstore.internal.hashing.ForeignSeeds;
import io.bloomstore.internal.hashing.GuavaHash;

/**
 * The probes of a guava filter of Guava's {@code MURMUR128_MITZ_64} strategy (Guava's default), as
 * Guava's {@code BloomFilterStrategies} probes: for the key's hash pair (h1, h2) of
 * {@link GuavaHash}, probe i (from 0) is {@code ((h1 + i h2) & Long.MAX_VALUE) mod bits}. Both
 * halves are needed, so these keys cannot travel as one 64-bit hash through the batch calls: each
 * key is hashed and probed on the caller's thread.
 */
public final class GuavaWideProbes {
    private final long address;
    private final long bits;
    private final int hashes;
    private final boolean singleWriter;

    /**
     * Whether keys reach a filter of {@code spec} only one by one, from their bytes, through these
     * probes: a guava filter of the 64-bit strategy, whose probes no 64-bit hash carries.
     */
    public static boolean appliesTo(BloomSpec spec) {
        return spec.layout() == Layout.GUAVA && spec.seed() == ForeignSeeds.GUAVA_MITZ_64;
    }

    public GuavaWideProbes(BloomSpec spec, CellArray cells) {
        this.address = cells.address();
        this.bits = spec.cells();
        this.hashes = spec.hashes();
        this.singleWriter = cells.isSingleWriter();
    }

    /** Whether every bit of the key hashed to {@code pair} is set: Guava's {@code mightContain}. */
    public boolean mightContain(long[] pair) {
        long combined = pair[0];
        for (int i = 0; i < hashes; i++) {
            if (!CellArray.isBitSetVolatile(address, (combined & Long.MAX_VALUE) % bits)) {
                return false;
            }
            combined += pair[1];
        }
        return true;
    }

    /** Sets every bit of the key hashed to {@code pair}: Guava's {@code put}; whether one was clear before. */
    public boolean put(long[] pair) {
        long combined = pair[0];
        boolean changed = false;
        for (int i = 0; i < hashes; i++) {
            changed |= CellArray.setBit(address, (combined & Long.MAX_VALUE) % bits, singleWriter);
            combined += pair[1];
        }
        return changed;
    }
}
