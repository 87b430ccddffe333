package io.bloomstore;

/**
 * The 64-bit hash applied to a key's canonical bytes. Stored by an id in the file header
 * (docs/FORMAT.md, "Header"), so a file says how it must be probed.
 */
public enum HashAlgorithm {
    /** XXH3-64 (xxHash 0.8) keyed with the file's seed. */
    XXH3_64,
    /** XXH64 with seed 0: the hash of Apache Parquet's split-block Bloom filters ({@link Layout#SBBF}). */
    XXH64,
    /**
     * MurmurHash3_x64_128 with seed 0, as Guava's {@code Hashing.murmur3_128()}: its two 64-bit
     * halves, or the first alone, as the {@link Layout#GUAVA} strategy takes them.
     */
    MURMUR3_X64_128,
    /**
     * MurmurHash3_x86_32 as Spark's sketch module computes it (a tail shorter than 4 bytes mixed
     * byte by byte, unlike the reference), twice: h1 with the sketch's seed, h2 with h1 as the seed;
     * for {@link Layout#SPARK_SKETCH} only.
     */
    MURMUR3_X86_32;
}
