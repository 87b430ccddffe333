package io.bloomstore;

/** Options for {@link BloomFilter#create} and the operations that write a new file (merge, pack, unpack). */
public enum CreateOption {
    /**
     * Do not allocate the cells on disk: creation is instant, but a disk that fills up later makes
     * the first write to an unallocated page fail with SIGBUS, which the JVM reports as an
     * InternalError. Without it, a disk too small fails the create, cleanly.
     */
    SPARSE,
    /** Replace an existing file at the path (atomically: readers of the old file keep their mapping). */
    REPLACE_EXISTING;

    /**
     * Whether {@code options} ask to replace an existing file, for an operation that writes every
     * byte of its file and so has nothing to leave unallocated.
     *
     * @throws IllegalArgumentException if they ask for {@link #SPARSE}, naming {@code operation}
     */
    static boolean replaceExisting(String operation, CreateOption... options) {
        boolean replace = false;
        for (CreateOption option : options) {
            if (option == SPARSE) {
                throw new IllegalArgumentException(operation + " writes every cell, so its file cannot be sparse: leave out SPARSE");
            }
            replace |= option == REPLACE_EXISTING;
        }
        return replace;
    }
}
