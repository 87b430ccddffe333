package io.bloomstore.spark;

import java.io.Serializable;
import java.util.Arrays;

/**
 * What the shuffle of a blocked build moves: the hashes of up to {@link HashesBySlice#CHUNK} keys bound
 * for one slice (8 bytes a key, plus a few bytes a chunk), and the null keys a map task skipped,
 * counted here so that a retried map task's count replaces, not adds to, the failed one's.
 */
record HashChunk(long[] hashes, long nullKeys) implements Serializable {
    static HashChunk of(long[] buffer, int count) {
        return new HashChunk(Arrays.copyOf(buffer, count), 0);
    }

    static HashChunk nulls(long count) {
        return new HashChunk(new long[0], count);
    }
}
