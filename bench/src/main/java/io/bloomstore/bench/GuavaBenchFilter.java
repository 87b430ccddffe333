package io.bloomstore.bench;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Guava's {@code BloomFilter}, the filter a JVM user would otherwise pick: created with
 * {@code create(funnel, n, p)}, {@code Funnels.longFunnel()} for long keys and
 * {@code Funnels.byteArrayFunnel()} for 16-byte keys; stored with {@code writeTo}.
 */
final class GuavaBenchFilter extends PeerBenchFilter {
    /** writeTo's header before the words: strategy (1 byte), k (1 byte), word count (4 bytes). */
    private static final int SERIAL_HEADER_BYTES = 6;

    private final long expectedKeys;
    private final double fpp;
    // Exactly one of the two is non-null, by key type. Not final: clear() replaces it (Guava has no clear).
    private BloomFilter<Long> longs;
    private BloomFilter<byte[]> bytes;

    private GuavaBenchFilter(long expectedKeys, double fpp, BloomFilter<Long> longs, BloomFilter<byte[]> bytes) {
        this.expectedKeys = expectedKeys;
        this.fpp = fpp;
        this.longs = longs;
        this.bytes = bytes;
    }

    static GuavaBenchFilter create(long expectedKeys, double fpp, KeyType type) {
        return type == KeyType.LONG
                ? new GuavaBenchFilter(expectedKeys, fpp, BloomFilter.create(Funnels.longFunnel(), expectedKeys, fpp), null)
                : new GuavaBenchFilter(expectedKeys, fpp, null, BloomFilter.create(Funnels.byteArrayFunnel(), expectedKeys, fpp));
    }

    /** Reads a filter written by {@link #writeTo} ({@code BloomFilter.readFrom}). */
    static GuavaBenchFilter read(InputStream in, long expectedKeys, double fpp, KeyType type) throws IOException {
        return type == KeyType.LONG
                ? new GuavaBenchFilter(expectedKeys, fpp, BloomFilter.readFrom(in, Funnels.longFunnel()), null)
                : new GuavaBenchFilter(expectedKeys, fpp, null, BloomFilter.readFrom(in, Funnels.byteArrayFunnel()));
    }

    @Override
    boolean add(long key) {
        return longs.put(key);
    }

    @Override
    boolean add(byte[] key) {
        return bytes.put(key);
    }

    @Override
    boolean mightContain(long key) {
        return longs.mightContain(key);
    }

    @Override
    boolean mightContain(byte[] key) {
        return bytes.mightContain(key);
    }

    @Override
    public void clear() {
        if (longs != null) {
            longs = BloomFilter.create(Funnels.longFunnel(), expectedKeys, fpp);
        } else {
            bytes = BloomFilter.create(Funnels.byteArrayFunnel(), expectedKeys, fpp);
        }
    }

    /** Guava does not say its bit count; its serial form does: the words after a fixed header. */
    @Override
    public long bits() throws IOException {
        long[] written = {0};
        writeTo(new OutputStream() {
            @Override
            public void write(int b) {
                written[0]++;
            }

            @Override
            public void write(byte[] b, int off, int len) {
                written[0] += len;
            }
        });
        return (written[0] - SERIAL_HEADER_BYTES) * Byte.SIZE;
    }

    @Override
    void writeTo(OutputStream out) throws IOException {
        if (longs != null) {
            longs.writeTo(out);
        } else {
            bytes.writeTo(out);
        }
    }

    @Override
    public void close() {
        longs = null;
        bytes = null;
    }
}
