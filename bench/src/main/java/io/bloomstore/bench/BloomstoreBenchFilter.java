package io.bloomstore.bench;

import io.bloomstore.OpenMode;
import io.bloomstore.BloomFilter;
import io.bloomstore.CreateOption;
import io.bloomstore.Merge;
import io.bloomstore.MergeOp;
import io.bloomstore.BloomSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A bloomstore filter in a real mapped file, used through its public API only: {@code add} /
 * {@code mightContain} for single calls, {@code addAll} / {@code mightContainAll} for batches.
 */
final class BloomstoreBenchFilter implements BenchFilter {
    private final BloomFilter filter;

    private BloomstoreBenchFilter(BloomFilter filter) {
        this.filter = filter;
    }

    /** Creates an empty filter file (cells allocated on disk, as by default). */
    static BloomstoreBenchFilter create(Path file, BloomSpec spec) throws IOException {
        return new BloomstoreBenchFilter(BloomFilter.create(file, spec, CreateOption.REPLACE_EXISTING));
    }

    static BloomstoreBenchFilter open(Path file, OpenMode mode) throws IOException {
        return new BloomstoreBenchFilter(BloomFilter.open(file, mode));
    }

    BloomFilter filter() {
        return filter;
    }

    @Override
    public int addEach(KeyChunk keys) {
        int added = 0;
        if (keys.type() == KeyType.LONG) {
            for (long key : keys.longs()) {
                added += filter.add(key) ? 1 : 0;
            }
        } else {
            for (byte[] key : keys.bytes()) {
                added += filter.add(key) ? 1 : 0;
            }
        }
        return added;
    }

    @Override
    public int addBatch(KeyChunk keys) {
        return keys.type() == KeyType.LONG ? filter.addAll(keys.longs()) : filter.addAll(keys.bytes());
    }

    @Override
    public int mightContainEach(KeyChunk keys) {
        int present = 0;
        if (keys.type() == KeyType.LONG) {
            for (long key : keys.longs()) {
                present += filter.mightContain(key) ? 1 : 0;
            }
        } else {
            for (byte[] key : keys.bytes()) {
                present += filter.mightContain(key) ? 1 : 0;
            }
        }
        return present;
    }

    @Override
    public int mightContainBatch(KeyChunk keys) {
        return keys.type() == KeyType.LONG ? filter.mightContainAll(keys.longs(), keys.answerScratch())
                : filter.mightContainAll(keys.bytes(), keys.answerScratch());
    }

    @Override
    public long bits() {
        return filter.spec().cellBytes() * Byte.SIZE;
    }

    /**
     * Empties the cells in place by AND-merging an empty filter of the same shape into them: the
     * public API has no clear, and recreating the file would cost a disk write and fsync of every
     * cell each time.
     */
    @Override
    public void clear() throws IOException {
        Path empty = emptyTwin(filter.path(), filter.spec());
        try (BloomFilter zeros = BloomFilter.open(empty, OpenMode.READ_ONLY)) {
            Merge.inPlace(filter, zeros, MergeOp.AND, null);
        }
    }

    /** An empty filter of {@code spec} beside {@code file}, created on first use and shared by its siblings. */
    private static synchronized Path emptyTwin(Path file, BloomSpec spec) throws IOException {
        Path empty = file.resolveSibling("empty-m" + spec.cells() + "-k" + spec.hashes() + "-" + spec.layout().name().toLowerCase(java.util.Locale.ROOT)
                + "-w" + spec.counterBits() + ".bloom");
        if (!Files.exists(empty)) {
            BloomFilter.create(empty, spec).close();
        }
        return empty;
    }

    @Override
    public void saveAndClose(Path target) throws IOException {
        filter.sync();
        Path source = filter.path();
        filter.close();
        Files.move(source, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void close() {
        filter.close();
    }
}
