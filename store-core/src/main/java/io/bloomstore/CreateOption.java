package io.bloomstore;

/** Options for {@link BloomFilter#create}. */
public enum CreateOption {
    /**
     * Do not allocate the cells on disk: creation is instant, but a disk that fills up later makes
     * the first write to an unallocated page fail with SIGBUS, which the JVM reports as an
     * InternalError. Without it, a disk too small fails the create, cleanly.
     */
    SPARSE,
    /** Replace an existing file at the path (atomically: readers of the old file keep their mapping). */
    REPLACE_EXISTING
}
