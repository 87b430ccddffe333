package io.bloomstore.bench;

/** The two key shapes benchmarked: a 64-bit id, and a 16-byte binary key (a UUID, say). */
public enum KeyType {
    /** {@code long} keys: bloomstore's {@code add(long)}, Guava's {@code Funnels.longFunnel()}. */
    LONG,
    /** 16-byte {@code byte[]} keys: bloomstore's {@code add(byte[])}, Guava's {@code Funnels.byteArrayFunnel()}. */
    BYTES16
}
