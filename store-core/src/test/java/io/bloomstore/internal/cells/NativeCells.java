package io.bloomstore.internal.cells;

import net.openhft.chronicle.core.UnsafeMemory;

/**
 * A {@link CellArray} over zeroed native memory, for tests of the packing and the counters without
 * a file. Closing frees the memory; the array must not be used afterwards.
 */
public final class NativeCells implements AutoCloseable {
    private final long address;
    private final long bytes;
    private final CellArray cells;

    private NativeCells(long cells, int counterBits, long bytes) {
        this.bytes = bytes;
        this.address = UnsafeMemory.MEMORY.allocate(bytes); // malloc: 16-byte aligned
        UnsafeMemory.MEMORY.setMemory(address, bytes, (byte) 0);
        this.cells = new CellArray(address, cells, counterBits, bytes);
    }

    /** Room for {@code cells} cells of {@code counterBits} bits, rounded up to whole words. */
    public static NativeCells allocate(long cells, int counterBits) {
        long words = (cells * counterBits + 63) / 64;
        return new NativeCells(cells, counterBits, words * 8);
    }

    public CellArray cells() {
        return cells;
    }

    @Override
    public void close() {
        UnsafeMemory.MEMORY.freeMemory(address, bytes);
    }
}
