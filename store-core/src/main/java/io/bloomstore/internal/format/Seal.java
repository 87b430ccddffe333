package io.bloomstore.internal.format;

import static io.bloomstore.internal.format.FilterFileDescriptor.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A filter's seal as read at one moment: whether it is sealed, and the cells checksum the seal
 * vouches for. Whoever reads a sealed file's cells reads the seal before and after: a handle
 * opened for writing withdraws the seal before it changes any cell, so the cells read in between
 * are the sealed ones exactly when the seal read after is the one read before ({@link #heldUntil}).
 *
 * @param sealed whether the seal state is {@link FilterFileDescriptor#SEALED}
 * @param checksum the recorded cells checksum; 0 when not sealed (the stored word means nothing then)
 */
public record Seal(boolean sealed, long checksum) {
    /** How many of a file's first bytes hold its seal: up to the end of the state area. */
    public static final int AREA_END = STATE_OFFSET + STATE_LENGTH;

    /**
     * The seal recorded in the state area of {@code start}, a file's first bytes; none (not
     * sealed) if they end before the state area does: the file was cut short.
     */
    public static Seal in(byte[] start) {
        if (start.length < AREA_END) {
            return new Seal(false, 0);
        }
        ByteBuffer bytes = ByteBuffer.wrap(start).order(ByteOrder.LITTLE_ENDIAN);
        boolean sealed = bytes.getInt(SEAL_STATE_OFFSET) == SEALED;
        return new Seal(sealed, sealed ? bytes.getLong(CELLS_CHECKSUM_OFFSET) : 0);
    }

    /**
     * Whether this seal, read before a pass over the cells, still stood unchanged at {@code later},
     * read after it: then no handle could have changed a cell during the pass without withdrawing
     * the seal first (a handle open for writing since before the seal was made excepted:
     * {@code BloomFilter.seal()} leaves that to its caller).
     */
    public boolean heldUntil(Seal later) {
        return sealed && equals(later);
    }
}
