package io.bloomstore.internal.probe;

import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import io.bloomstore.internal.cells.CellArray;
import io.bloomstore.internal.hashing.ForeignSeeds;

/**
 * The probes of the imported layouts whose key fits one 64-bit hash of two 32-bit halves, h1 low
 * and h2 high (docs/FORMAT.md, "Imported layouts"), each exactly as the library computes them:
 *
 * <ul>
 *   <li>Spark's sketch version 1 and Guava's {@code MURMUR128_MITZ_32}: for i = 1 .. k, the int
 *       {@code h1 + i h2}, bit-inverted if negative, modulo the bits;
 *   <li>Spark's sketch version 2: for i = 1 .. k, the long {@code h1 (2^31 - 1) + i h2},
 *       bit-inverted if negative, modulo the bits. (Spark's source before 4.1 inverted the running
 *       sum itself; the pinned 4.1 build inverts only the probe, which is what is matched here.)
 * </ul>
 *
 * Cell i is bit {@code i mod 64} of word {@code i / 64}, as both libraries' {@code long[]} holds it.
 */
final class ImportedProbing extends Probing {
    private final long bits;
    private final int hashes;
    private final boolean wide;

    private ImportedProbing(BloomSpec spec, boolean wide) {
        this.bits = spec.cells();
        this.hashes = spec.hashes();
        this.wide = wide;
    }

    /** The probing of {@code spec}, one of the imported layouts. */
    static Probing of(BloomSpec spec) {
        if (spec.layout() == Layout.GUAVA) {
            return spec.seed() == ForeignSeeds.GUAVA_MITZ_32 ? new ImportedProbing(spec, false)
                    : new GuavaWideProbing();
        }
        return new ImportedProbing(spec, ForeignSeeds.sparkVersion(spec.seed()) == 2);
    }

    @Override
    public long base(long hash) {
        return hash;
    }

    @Override
    public long step(long hash) {
        return 0;
    }

    @Override
    public long index(long base, long step, int i) {
        return index(base, i, bits, wide);
    }

    private static long index(long hash, int i, long bits, boolean wide) {
        int h1 = (int) hash;
        int h2 = (int) (hash >>> 32);
        long combined = wide ? (long) h1 * Integer.MAX_VALUE + (i + 1L) * h2 : h1 + (i + 1) * h2;
        return (combined < 0 ? ~combined : combined) % bits;
    }

    @Override
    public boolean allBitsSetVolatile(long address, long hash) {
        for (int i = 0; i < hashes; i++) {
            if (!CellArray.isBitSetVolatile(address, index(hash, i, bits, wide))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean setBits(long address, long hash, boolean singleWriter) {
        boolean changed = false;
        for (int i = 0; i < hashes; i++) {
            changed |= CellArray.setBit(address, index(hash, i, bits, wide), singleWriter);
        }
        return changed;
    }

    @Override
    public long loadLines(CellArray array, long[] keyHashes, int from, int to) {
        long sum = 0;
        for (int k = from; k < to; k++) {
            for (int i = 0; i < hashes; i++) {
                sum += array.getWordOfCellPlain(index(keyHashes[k], i, bits, wide));
            }
        }
        return sum;
    }

    @Override
    public long loadFirstLines(CellArray array, long[] keyHashes, int from, int to) {
        long sum = 0;
        for (int k = from; k < to; k++) {
            sum += array.getWordOfCellPlain(index(keyHashes[k], 0, bits, wide));
        }
        return sum;
    }

    /**
     * Guava's {@code MURMUR128_MITZ_64}, whose probes take both halves of a 128-bit hash: no probe
     * follows from one 64-bit hash, so every call here refuses ({@link GuavaWideProbes} probes its
     * keys). A filter's hasher refuses first; this is the second guard, for hashes made elsewhere.
     */
    static final class GuavaWideProbing extends Probing {
        private static UnsupportedOperationException refusal() {
            return new UnsupportedOperationException("a guava filter of Guava's 64-bit strategy is probed from its"
                    + " keys' 128-bit hashes, not from 64-bit hashes: give it keys (add, mightContain)");
        }

        @Override
        public long base(long hash) {
            throw refusal();
        }

        @Override
        public long step(long hash) {
            throw refusal();
        }

        @Override
        public long index(long base, long step, int i) {
            throw refusal();
        }

        @Override
        public boolean allBitsSetVolatile(long address, long hash) {
            throw refusal();
        }

        @Override
        public boolean setBits(long address, long hash, boolean singleWriter) {
            throw refusal();
        }

        @Override
        public long loadLines(CellArray array, long[] keyHashes, int from, int to) {
            throw refusal();
        }

        @Override
        public long loadFirstLines(CellArray array, long[] keyHashes, int from, int to) {
            throw refusal();
        }
    }
}
