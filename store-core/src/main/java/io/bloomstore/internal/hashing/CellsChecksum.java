package io.bloomstore.internal.hashing;

import java.util.Objects;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.hashing.LongHashFunction;

/**
 * The checksum a sealed filter records of its cells: XXH3-64 over the cell bytes, in place (XXH3
 * keeps up with memory, so verifying a filter costs little more than reading its cells), seeded
 * with the file identity (0 for a version 1 file, which has none): the same cells
 * under another file's header give another checksum. Independent of the filter's own key seed.
 */
public final class CellsChecksum {
    /** The version 1 checksum's function, kept so that its verification allocates nothing. */
    private static final LongHashFunction UNSEEDED = LongHashFunction.xx3();

    private CellsChecksum() {
    }

    /**
     * The checksum of bytes {@code [offset, offset + length)} of a native store, hashed in place:
     * XXH3 with seed {@code identity} reads the memory the store lends for that (checked) range.
     */
    public static long of(BytesStore<?, ?> store, long offset, long length, long identity) {
        Objects.checkFromIndexSize(offset, length, store.capacity());
        if (length > LongInputXxh3.MAX_SHORT_INPUT) {
            return LongInputXxh3.hash(store, offset, length, identity);
        }
        LongHashFunction xxh3 = identity == 0 ? UNSEEDED : LongHashFunction.xx3(identity);
        return xxh3.hashMemory(store.addressForRead(offset), length);
    }
}
