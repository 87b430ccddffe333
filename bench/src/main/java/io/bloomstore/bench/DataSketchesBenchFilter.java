package io.bloomstore.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.datasketches.filters.bloomfilter.BloomFilter;
import org.apache.datasketches.filters.bloomfilter.BloomFilterBuilder;
import org.apache.datasketches.memory.Memory;

/**
 * Apache DataSketches' {@code BloomFilter} on the heap, as its docs create one:
 * {@code BloomFilterBuilder.createByAccuracy(n, p)} (m and k from the textbook formulas, a random
 * seed); it hashes long and byte[] keys itself (xxHash64, Kirsch-Mitzenmacher double hashing). An add
 * is {@code queryAndUpdate}, which answers whether the key was there before in the same pass; a query
 * is {@code query}. Stored with {@code toByteArray}, read back with {@code heapify}.
 */
final class DataSketchesBenchFilter extends PeerBenchFilter {
    private BloomFilter filter;

    private DataSketchesBenchFilter(BloomFilter filter) {
        this.filter = filter;
    }

    static DataSketchesBenchFilter create(long expectedKeys, double fpp, KeyType type) {
        return new DataSketchesBenchFilter(BloomFilterBuilder.createByAccuracy(expectedKeys, fpp));
    }

    static DataSketchesBenchFilter read(InputStream in, long expectedKeys, double fpp, KeyType type) throws IOException {
        return new DataSketchesBenchFilter(BloomFilter.heapify(Memory.wrap(in.readAllBytes())));
    }

    @Override
    boolean add(long key) {
        return !filter.queryAndUpdate(key);
    }

    @Override
    boolean add(byte[] key) {
        return !filter.queryAndUpdate(key);
    }

    @Override
    boolean mightContain(long key) {
        return filter.query(key);
    }

    @Override
    boolean mightContain(byte[] key) {
        return filter.query(key);
    }

    @Override
    void writeTo(OutputStream out) throws IOException {
        out.write(filter.toByteArray());
    }

    @Override
    public long bits() {
        return filter.getCapacity();
    }

    @Override
    public void clear() {
        filter.reset();
    }

    @Override
    public void close() {
        filter = null;
    }
}
