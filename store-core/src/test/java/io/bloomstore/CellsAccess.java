package io.bloomstore;

import io.bloomstore.internal.cells.CellArray;

/**
 * A filter's cells for the tests of other packages (the format's test vectors, the soak's replay):
 * {@link BloomFilter#cells()} is for this package only.
 */
public final class CellsAccess {
    private CellsAccess() {
    }

    public static CellArray cells(BloomFilter filter) {
        return filter.cells();
    }
}
