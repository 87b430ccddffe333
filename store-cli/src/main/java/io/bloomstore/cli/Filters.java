package io.bloomstore.cli;

import io.bloomstore.BloomFilter;
import io.bloomstore.OpenMode;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Opening filter files and feeding them keys, the way every verb does it. */
final class Filters {
    private Filters() {
    }

    /** How many keys an add saw, and how many of them were definitely new. */
    record Added(long keys, long newKeys) {
    }

    /** Opens {@code file}; a missing file gets a message saying how to make one. */
    static BloomFilter open(Path file, OpenMode mode) throws IOException {
        try {
            return BloomFilter.open(file, mode);
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(file.toString(), null,
                    "no such filter file; make one with 'bloomstore create' or 'bloomstore build'");
        }
    }

    /**
     * Adds every key of {@code keys}, a batch at a time, reporting input bytes to {@code progress}:
     * this thread reads and hashes, an {@link AddPipeline} adds.
     */
    static Added addAll(BloomFilter filter, KeySource keys, Progress progress) throws IOException {
        KeyBatch batch = new KeyBatch();
        long total = 0;
        try (AddPipeline adds = new AddPipeline(filter, KeyBatch.CAPACITY)) {
            while (keys.nextBatch(batch)) {
                batch.hashWith(filter.hasher());
                batch.hashes = adds.submit(batch.hashes, batch.size);
                total += batch.size;
                progress.update(keys.bytesRead());
            }
            return new Added(total, adds.finish());
        }
    }

    /** "3 keys" / "1 key". */
    static String keys(long n) {
        return Human.count(n) + (n == 1 ? " key" : " keys");
    }
}
