package io.bloomstore;

/**
 * The 64-bit hash applied to a key's canonical bytes. Stored by id in the file header, so a file
 * says how it must be probed; a future algorithm gets a new id, never a reused one.
 */
public enum HashAlgorithm {
    /** XXH3-64 (xxHash 0.8) keyed with the file's seed. */
    XXH3_64(1),
    /** XXH64 with seed 0: the hash of Apache Parquet's split-block Bloom filters ({@link Layout#SBBF}). */
    XXH64(2),
    /**
     * MurmurHash3_x64_128 with seed 0, as Guava's {@code Hashing.murmur3_128()}: its two 64-bit
     * halves, or the first alone, as the {@link Layout#GUAVA} strategy takes them.
     */
    MURMUR3_X64_128(3),
    /**
     * MurmurHash3_x86_32 as Spark's sketch module computes it (a tail shorter than 4 bytes mixed
     * byte by byte, unlike the reference), twice: h1 with the sketch's seed, h2 with h1 as the seed;
     * for {@link Layout#SPARK_SKETCH} only.
     */
    MURMUR3_X86_32(4);

    private final int id;

    HashAlgorithm(int id) {
        this.id = id;
    }

    /**
     * The byte stored in the file header.
     *
     * @return the id, from 1 (0 is never used); 1 for {@link #XXH3_64}, 2 for {@link #XXH64}, 3 for
     *     {@link #MURMUR3_X64_128}, 4 for {@link #MURMUR3_X86_32}
     */
    public int id() {
        return id;
    }

    /**
     * The algorithm stored under {@code id}.
     *
     * @param id the byte from a file header
     * @return the algorithm, never null
     * @throws IllegalArgumentException naming the id and the known ones
     */
    public static HashAlgorithm ofId(int id) {
        for (HashAlgorithm algorithm : values()) {
            if (algorithm.id == id) {
                return algorithm;
            }
        }
        throw new IllegalArgumentException("unknown hash algorithm id " + id
                + " (known: 1 xxh3-64, 2 xxh64, 3 murmur3-x64-128, 4 murmur3-x86-32)");
    }
}
