package io.bloomstore;

/**
 * Where the k cells of one key may lie in the cell array.
 *
 * <p>The id of each constant is written into the file header (see {@code docs/FORMAT.md}); never
 * renumber them.
 */
public enum Layout {
    /**
     * k cells anywhere in the array: the classic Bloom filter. k cache misses per operation when the
     * filter is larger than the CPU caches; the textbook false-positive rate (1 - e^(-kn/m))^k.
     */
    STANDARD(0),
    /**
     * All k cells inside one 64-byte cache line (Putze, Sanders &amp; Singler 2007): one cache miss
     * per operation. Keys spread unevenly over the blocks (Poisson), so the same m and k give a
     * slightly higher false-positive rate; {@link BloomSpec.Builder#build()} sizes for it.
     */
    BLOCKED(1),
    /**
     * All k cells of a key in one 64-byte cache line, as {@link #BLOCKED}, but gathered into S
     * distinct 64-bit words of it ("sectors", b bits in each, k = S b): an add is S loads and at
     * most S word compare-and-sets, a query S loads and one comparison. 1-bit cells only. S and b
     * follow from k (docs/FORMAT.md, "Sectorized layout"); {@link BloomSpec.Builder#build()} sizes
     * for its own false-positive rate.
     */
    SECTORIZED(2),
    /**
     * Apache Parquet's split-block Bloom filter, bit for bit (docs/FORMAT.md, "Split-block layout"):
     * 256-bit blocks of eight 32-bit words, one bit set in each word by a salted multiply of the
     * key's XXH64; k is 8, the hash {@link HashAlgorithm#XXH64} with seed 0, 1-bit cells, and the
     * Parquet physical type of the keys ({@link ParquetType}) is part of the shape. Its cells are the
     * bitset Parquet stores, so {@link ParquetFilters} moves filters in and out of Parquet files.
     */
    SBBF(3);

    private final int id;

    Layout(int id) {
        this.id = id;
    }

    /**
     * The byte stored in the file header.
     *
     * @return 0 for {@link #STANDARD}, 1 for {@link #BLOCKED}, 2 for {@link #SECTORIZED}, 3 for {@link #SBBF}
     */
    public int id() {
        return id;
    }

    /**
     * The layout stored under {@code id}.
     *
     * @param id the byte from a file header
     * @return the layout, never null
     * @throws IllegalArgumentException naming the id and the known ones
     */
    public static Layout ofId(int id) {
        for (Layout layout : values()) {
            if (layout.id == id) {
                return layout;
            }
        }
        throw new IllegalArgumentException("unknown layout id " + id
                + " (known: 0 standard, 1 blocked, 2 sectorized, 3 sbbf); a newer bloomstore may read it");
    }
}
