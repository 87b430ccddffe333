package io.bloomstore.internal.format;

import static io.bloomstore.internal.format.FilterFileDescriptor.*;

import io.bloomstore.internal.cells.MappingFaults;
import java.util.Objects;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * The mutable state area of a mapped filter file (see {@link FilterFileDescriptor}), read and
 * written in place through a Chronicle Bytes store with the memory ordering named by each method,
 * so every process mapping the file sees the same values.
 */
public final class FilterState {
    private final BytesStore<?, ?> file;

    /**
     * @param file the mapped file, byte 0 its first byte; it must outlive this object and hold the
     *     state area
     */
    public FilterState(BytesStore<?, ?> file) {
        Objects.checkFromIndexSize(0, STATE_OFFSET + STATE_LENGTH, file.capacity());
        this.file = file;
    }

    /**
     * Distinct-looking insertions recorded so far (adds that changed a cell), approximate. The u64
     * word saturates at {@link Long#MAX_VALUE} (docs/FORMAT.md, "The mutable state"); a larger
     * stored value, which bloomstore never writes, is read as that.
     */
    public long getApproximateInsertionsVolatile() {
        long count = file.readVolatileLong(APPROXIMATE_INSERTIONS_OFFSET);
        return count < 0 ? Long.MAX_VALUE : count;
    }

    /**
     * Atomically adds {@code delta} to the insertion count, saturating at {@link Long#MAX_VALUE}:
     * a count that wrapped to a negative number would read as an empty filter.
     *
     * @param delta new keys to count, not negative
     */
    public void addApproximateInsertions(long delta) {
        if (delta <= 0) {
            return;
        }
        for (int failures = 1; ; failures++) {
            long count = file.readVolatileLong(APPROXIMATE_INSERTIONS_OFFSET);
            if (count < 0 || count == Long.MAX_VALUE) {
                return;
            }
            if (file.compareAndSwapLong(APPROXIMATE_INSERTIONS_OFFSET, count, saturatingSum(count, delta))) {
                return;
            }
            MappingFaults.afterFailedAttempt(failures);
        }
    }

    /** Sets the insertion count to 0: a ring's slot being cleared for a new epoch. */
    public void resetApproximateInsertions() {
        file.writeVolatileLong(APPROXIMATE_INSERTIONS_OFFSET, 0);
    }

    /** {@code a + b} for counts (not negative), {@link Long#MAX_VALUE} where it would overflow. */
    public static long saturatingSum(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    /** How many times a writer lowered cells (docs/FORMAT.md, "The mutable state"). */
    public long getLoweringsVolatile() {
        return file.readVolatileLong(LOWERINGS_OFFSET);
    }

    /**
     * Counts a lowering of cells, once they are lowered: a checkpoint that read this word before then
     * finds it raised by the time a later checkpoint compares the lowered cells with its copy.
     */
    public void countLowering() {
        file.addAndGetLong(LOWERINGS_OFFSET, 1);
    }

    /** Handles open for writing; stays above zero after a writer crashed (advisory). */
    public int getOpenWritersVolatile() {
        return file.readVolatileInt(OPEN_WRITERS_OFFSET);
    }

    /** Atomically adds {@code delta} (+1 on open for writing, -1 on close) to the writer count. */
    public void addOpenWriters(int delta) {
        for (int failures = 1; ; failures++) {
            int current = file.readVolatileInt(OPEN_WRITERS_OFFSET);
            if (file.compareAndSwapInt(OPEN_WRITERS_OFFSET, current, Math.max(0, current + delta))) {
                return;
            }
            MappingFaults.afterFailedAttempt(failures);
        }
    }

    /** {@link FilterFileDescriptor#SEALED} or {@link FilterFileDescriptor#UNSEALED}. */
    public int getSealStateVolatile() {
        return file.readVolatileInt(SEAL_STATE_OFFSET);
    }

    /** The seal now: the state, then the checksum its ordered write published (see {@link #sealOrdered}). */
    public Seal sealVolatile() {
        boolean sealed = getSealStateVolatile() == SEALED;
        return new Seal(sealed, sealed ? getCellsChecksumVolatile() : 0);
    }

    /** The cells checksum recorded by the last seal; meaningful only while sealed. */
    public long getCellsChecksumVolatile() {
        return file.readVolatileLong(CELLS_CHECKSUM_OFFSET);
    }

    /**
     * The copy of the file identity the state area was created with (version 3): equal to the
     * header's unless the header came from another file. Written once, at creation.
     */
    public long getIdentityCopyVolatile() {
        return file.readVolatileLong(IDENTITY_COPY_OFFSET);
    }

    /**
     * Records the checksum, then marks the filter sealed (the order readers rely on): the seal's
     * volatile write publishes the ordered write of the checksum before it to every reader that
     * sees the seal.
     */
    public void sealOrdered(long cellsChecksum) {
        file.writeOrderedLong(CELLS_CHECKSUM_OFFSET, cellsChecksum);
        file.writeVolatileInt(SEAL_STATE_OFFSET, SEALED);
    }

    /** Marks the filter unsealed: done before any cell may change. */
    public void unsealVolatile() {
        if (getSealStateVolatile() != UNSEALED) {
            file.writeVolatileInt(SEAL_STATE_OFFSET, UNSEALED);
        }
    }
}
