package io.bloomstore.internal.cells;

import net.openhft.chronicle.bytes.BytesStore;

/**
 * A {@link CellArray} over zeroed native memory (a Chronicle Bytes native store), for tests of the
 * packing and the counters without a file. Closing frees the memory; the array must not be used
 * afterwards.
 */
public final class NativeCells implements AutoCloseable {
    private final BytesStore<?, Void> store;
    private final CellArray cells;

    private NativeCells(long cells, int counterBits, long bytes, boolean singleWriter) {
        this.store = BytesStore.nativeStoreWithFixedCapacity(bytes); // zeroed; malloc: 16-byte aligned
        this.cells = singleWriter ? CellArray.singleWriter(store, 0, cells, counterBits, bytes)
                : new CellArray(store, 0, cells, counterBits, bytes);
    }

    /** Room for {@code cells} cells of {@code counterBits} bits, rounded up to whole words. */
    public static NativeCells allocate(long cells, int counterBits) {
        return allocate(cells, counterBits, false);
    }

    /** As {@link #allocate(long, int)}; {@code singleWriter}: cells for one writing thread ({@link CellArray#singleWriter}). */
    public static NativeCells allocate(long cells, int counterBits, boolean singleWriter) {
        long words = (cells * counterBits + 63) / 64;
        return new NativeCells(cells, counterBits, words * 8, singleWriter);
    }

    public CellArray cells() {
        return cells;
    }

    /** The memory under {@link #cells()}. */
    public BytesStore<?, Void> store() {
        return store;
    }

    @Override
    public void close() {
        store.releaseLast();
    }
}
