package io.bloomstore.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.spark.util.sketch.BloomFilter;

/**
 * Spark's sketch {@code BloomFilter}, as its Javadoc creates one: {@code BloomFilter.create(n, p)},
 * which since Spark 4.1 makes the V2 filter (64-bit bit indices, so it keeps its rate past 2^31
 * bits). It hashes keys itself: {@code putLong} / {@code putBinary}, which answer whether a bit
 * changed, and {@code mightContainLong} / {@code mightContainBinary}. Stored with {@code writeTo},
 * read back with {@code readFrom}.
 */
final class SparkBenchFilter extends PeerBenchFilter {
    private final long expectedKeys;
    private final double fpp;
    private BloomFilter filter;

    private SparkBenchFilter(long expectedKeys, double fpp, BloomFilter filter) {
        this.expectedKeys = expectedKeys;
        this.fpp = fpp;
        this.filter = filter;
    }

    static SparkBenchFilter create(long expectedKeys, double fpp, KeyType type) {
        return new SparkBenchFilter(expectedKeys, fpp, BloomFilter.create(expectedKeys, fpp));
    }

    static SparkBenchFilter read(InputStream in, long expectedKeys, double fpp, KeyType type) throws IOException {
        return new SparkBenchFilter(expectedKeys, fpp, BloomFilter.readFrom(in));
    }

    @Override
    boolean add(long key) {
        return filter.putLong(key);
    }

    @Override
    boolean add(byte[] key) {
        return filter.putBinary(key);
    }

    @Override
    boolean mightContain(long key) {
        return filter.mightContainLong(key);
    }

    @Override
    boolean mightContain(byte[] key) {
        return filter.mightContainBinary(key);
    }

    @Override
    void writeTo(OutputStream out) throws IOException {
        filter.writeTo(out);
    }

    @Override
    public long bits() {
        return filter.bitSize();
    }

    /** Spark's filter has no clear: a new one, as a user would make. */
    @Override
    public void clear() {
        filter = BloomFilter.create(expectedKeys, fpp);
    }

    @Override
    public void close() {
        filter = null;
    }
}
