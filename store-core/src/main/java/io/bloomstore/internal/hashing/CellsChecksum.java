package io.bloomstore.internal.hashing;

import net.openhft.hashing.LongHashFunction;

/**
 * The checksum a sealed filter records of its cells: XXH3-64 with seed 0 over the cell bytes, in
 * place (XXH3 reads memory at several GB/s, so verifying a 1 GiB filter costs well under a second
 * plus the reading). Independent of the filter's own seed, so any reader can check it.
 */
public final class CellsChecksum {
    private static final LongHashFunction XXH3 = LongHashFunction.xx3();

    private CellsChecksum() {
    }

    /** The checksum of {@code length} bytes of native memory at {@code address}. */
    public static long of(long address, long length) {
        return XXH3.hashMemory(address, length);
    }
}
