package io.bloomstore.bench.micro;

import io.bloomstore.bench.KeyChunk;
import io.bloomstore.bench.KeyType;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;

/**
 * A thread's walk over n key indices from {@link #firstIndex()}, one chunk per invocation, prepared
 * outside the measurement: the key source of the query benchmarks. Its subclasses are their JMH
 * states, each setting the walk up from its own benchmark's parameters ({@link #start}).
 */
public abstract class KeyWalk {
    KeyChunk chunk;
    private long n;
    private long offset;

    /** The index of the walk's first key. */
    abstract long firstIndex();

    /** Walks n keys of {@code type}; thread {@code thread} of {@code threads} starts at its own share. */
    void start(KeyType type, long n, int thread, int threads) {
        this.chunk = new KeyChunk(type);
        this.n = n;
        long chunksPerThread = n / KeyChunk.SIZE / threads;
        this.offset = chunksPerThread * thread * KeyChunk.SIZE;
    }

    /** Fills the chunk from key index {@code first} on: consecutive indices, unless a walk says otherwise. */
    void fill(long first) {
        chunk.fill(first);
    }

    @Setup(Level.Invocation)
    public void next() {
        fill(firstIndex() + offset);
        offset = (offset + KeyChunk.SIZE) % n;
    }
}
