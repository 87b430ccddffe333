package io.bloomstore.internal.format;

import static io.bloomstore.internal.format.FilterFileDescriptor.*;

import net.openhft.chronicle.core.UnsafeMemory;

/**
 * The mutable state area of a mapped filter file (see {@link FilterFileDescriptor}), read and
 * written in place with the memory ordering named by each method, so every process mapping the
 * file sees the same values.
 */
public final class FilterState {
    private static final UnsafeMemory MEMORY = UnsafeMemory.MEMORY;

    private final long base;

    /** @param fileAddress the address of byte 0 of the mapped file */
    public FilterState(long fileAddress) {
        this.base = fileAddress;
    }

    /** Distinct-looking insertions recorded so far (adds that changed a cell), approximate. */
    public long getApproximateInsertionsVolatile() {
        return MEMORY.readVolatileLong(base + APPROXIMATE_INSERTIONS_OFFSET);
    }

    /** Atomically adds {@code delta} to the insertion count. */
    public void addApproximateInsertions(long delta) {
        if (delta != 0) {
            MEMORY.addLong(base + APPROXIMATE_INSERTIONS_OFFSET, delta);
        }
    }

    /** Handles open for writing; stays above zero after a writer crashed (advisory). */
    public int getOpenWritersVolatile() {
        return MEMORY.readVolatileInt(base + OPEN_WRITERS_OFFSET);
    }

    /** Atomically adds {@code delta} (+1 on open for writing, -1 on close) to the writer count. */
    public void addOpenWriters(int delta) {
        long at = base + OPEN_WRITERS_OFFSET;
        int current;
        do {
            current = MEMORY.readVolatileInt(at);
        } while (!MEMORY.compareAndSwapInt(at, current, Math.max(0, current + delta)));
    }

    /** {@link FilterFileDescriptor#SEALED} or {@link FilterFileDescriptor#UNSEALED}. */
    public int getSealStateVolatile() {
        return MEMORY.readVolatileInt(base + SEAL_STATE_OFFSET);
    }

    /** The cells checksum recorded by the last seal; meaningful only while sealed. */
    public long getCellsChecksumVolatile() {
        return MEMORY.readVolatileLong(base + CELLS_CHECKSUM_OFFSET);
    }

    /** Records the checksum, then marks the filter sealed (the order readers rely on). */
    public void sealOrdered(long cellsChecksum) {
        MEMORY.writeVolatileLong(base + CELLS_CHECKSUM_OFFSET, cellsChecksum);
        MEMORY.writeVolatileInt(base + SEAL_STATE_OFFSET, SEALED);
    }

    /** Marks the filter unsealed: done before any cell may change. */
    public void unsealVolatile() {
        if (getSealStateVolatile() != UNSEALED) {
            MEMORY.writeVolatileInt(base + SEAL_STATE_OFFSET, UNSEALED);
        }
    }
}
