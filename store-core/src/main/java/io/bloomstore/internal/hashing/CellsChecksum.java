package io.bloomstore.internal.hashing;

import java.util.Objects;
import net.openhft.chronicle.bytes.BytesStore;
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

    /**
     * The checksum of bytes {@code [offset, offset + length)} of a native store, hashed in place:
     * XXH3 reads the memory the store lends for that (checked) range.
     */
    public static long of(BytesStore<?, ?> store, long offset, long length) {
        Objects.checkFromIndexSize(offset, length, store.capacity());
        return XXH3.hashMemory(store.addressForRead(offset), length);
    }
}
