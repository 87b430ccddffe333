package io.bloomstore.bench;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Guava's {@code BloomFilter}, the filter a JVM user would otherwise pick: created with
 * {@code create(funnel, n, p)}, {@code Funnels.longFunnel()} for long keys and
 * {@code Funnels.byteArrayFunnel()} for 16-byte keys. Guava has no batch calls, so its "batch" is
 * the loop of single calls a Guava user would write.
 */
final class GuavaBenchFilter implements BenchFilter {
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

    /** Reads a filter written by {@link #saveAndClose} ({@code BloomFilter.writeTo}). */
    static GuavaBenchFilter load(Path file, long expectedKeys, double fpp, KeyType type) throws IOException {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            return type == KeyType.LONG
                    ? new GuavaBenchFilter(expectedKeys, fpp, BloomFilter.readFrom(in, Funnels.longFunnel()), null)
                    : new GuavaBenchFilter(expectedKeys, fpp, null, BloomFilter.readFrom(in, Funnels.byteArrayFunnel()));
        }
    }

    @Override
    public int addEach(KeyChunk keys) {
        int added = 0;
        if (longs != null) {
            BloomFilter<Long> filter = longs;
            for (long key : keys.longs()) {
                added += filter.put(key) ? 1 : 0;
            }
        } else {
            BloomFilter<byte[]> filter = bytes;
            for (byte[] key : keys.bytes()) {
                added += filter.put(key) ? 1 : 0;
            }
        }
        return added;
    }

    @Override
    public int addBatch(KeyChunk keys) {
        return addEach(keys);
    }

    @Override
    public int mightContainEach(KeyChunk keys) {
        int present = 0;
        if (longs != null) {
            BloomFilter<Long> filter = longs;
            for (long key : keys.longs()) {
                present += filter.mightContain(key) ? 1 : 0;
            }
        } else {
            BloomFilter<byte[]> filter = bytes;
            for (byte[] key : keys.bytes()) {
                present += filter.mightContain(key) ? 1 : 0;
            }
        }
        return present;
    }

    @Override
    public int mightContainBatch(KeyChunk keys) {
        return mightContainEach(keys);
    }

    @Override
    public void clear() {
        if (longs != null) {
            longs = BloomFilter.create(Funnels.longFunnel(), expectedKeys, fpp);
        } else {
            bytes = BloomFilter.create(Funnels.byteArrayFunnel(), expectedKeys, fpp);
        }
    }

    @Override
    public void saveAndClose(Path target) throws IOException {
        Path partial = target.resolveSibling(target.getFileName() + ".partial");
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(partial), 1 << 16)) {
            if (longs != null) {
                longs.writeTo(out);
            } else {
                bytes.writeTo(out);
            }
        }
        Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        close();
    }

    @Override
    public void close() {
        longs = null;
        bytes = null;
    }
}
