package io.bloomstore;

/**
 * Where the k cells of one key may lie in the cell array.
 *
 * <p>A file's header stores its layout by an id (docs/FORMAT.md, "Header").
 */
public enum Layout {
    /**
     * k cells anywhere in the array: the classic Bloom filter. k cache misses per operation when the
     * filter is larger than the CPU caches; the textbook false-positive rate (1 - e^(-kn/m))^k.
     */
    STANDARD,
    /**
     * All k cells inside one 64-byte cache line (Putze, Sanders &amp; Singler 2007): one cache miss
     * per operation. Keys spread unevenly over the blocks (Poisson), so the same m and k give a
     * slightly higher false-positive rate; {@link BloomSpec.Builder#build()} sizes for it.
     */
    BLOCKED,
    /**
     * All k cells of a key in one 64-byte cache line, as {@link #BLOCKED}, but gathered into S
     * distinct 64-bit words of it ("sectors", b bits in each, k = S b): an add is S loads and at
     * most S word compare-and-sets, a query S loads and one comparison. 1-bit cells only. S and b
     * follow from k (docs/FORMAT.md, "Sectorized layout"); {@link BloomSpec.Builder#build()} sizes
     * for its own false-positive rate.
     */
    SECTORIZED,
    /**
     * Apache Parquet's split-block Bloom filter, bit for bit (docs/FORMAT.md, "Split-block layout"):
     * 256-bit blocks of eight 32-bit words, one bit set in each word by a salted multiply of the
     * key's XXH64; k is 8, the hash {@link HashAlgorithm#XXH64} with seed 0, 1-bit cells, and the
     * Parquet physical type of the keys ({@link ParquetType}) is part of the shape. Its cells are the
     * bitset Parquet stores, so {@link ParquetFilters} moves filters in and out of Parquet files.
     */
    SBBF,
    /**

     * Guava's {@code BloomFilter} bit array, bit for bit, probed as Guava's strategies probe it
     * (docs/FORMAT.md, "Imported layouts"): made by {@link GuavaFilters#importStream}, never sized.
     * 1-bit cells, {@link HashAlgorithm#MURMUR3_X64_128}; the seed field holds Guava's strategy ordinal.
     */
    GUAVA,
    /**
     * Spark's {@code org.apache.spark.util.sketch.BloomFilter} bit array, bit for bit, probed as its
     * version 1 or 2 probes it (docs/FORMAT.md, "Imported layouts"): made by
     * {@link SparkSketches#importStream}, never sized. 1-bit cells, {@link HashAlgorithm#MURMUR3_X86_32};
     * the seed field holds the sketch's version and its murmur seed.
     */
    SPARK_SKETCH;

    /**
     * Whether this layout holds another library's filter as it is ({@link #GUAVA},
     * {@link #SPARK_SKETCH}): made by an import, with the library's m and k, never sized from n and p,
     * and so not a layout for {@link BloomSpec#forExpected} or a growing or windowed file's regions.
     *
     * @return true for the imported layouts
     */
    public boolean isImported() {
        return this == GUAVA || this == SPARK_SKETCH;
    }
}
