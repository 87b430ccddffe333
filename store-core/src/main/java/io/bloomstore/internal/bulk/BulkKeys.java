package io.bloomstore.internal.bulk;

import io.bloomstore.KeyHasher;
import java.io.IOException;
import java.util.function.LongConsumer;

/**
 * The loops over a {@link BatchSource}: each batch is hashed whole on the reading thread, then
 * added through an {@link AddPipeline}, queried with one batch call, or handed out key by key. The
 * keys reach the callbacks as slices of the reader's buffer, valid only during the call.
 */
public final class BulkKeys {
    private BulkKeys() {
    }

    /** How many keys a pass saw, and for how many the filter said yes (new for an add, maybe present for a query). */
    public record Counts(long keys, long hits) {
    }

    /**
     * Receives each key of a query with its answer. The API's {@code KeySource.AnswerConsumer}
     * comes in as a method reference, so that this package does not name the class that uses it.
     */
    @FunctionalInterface
    public interface KeyAnswers {
        void accept(byte[] bytes, int offset, int length, boolean mightContain) throws IOException;
    }

    /** Receives each key with its hash, as {@link KeyAnswers} for {@code KeySource.HashedKeyConsumer}. */
    @FunctionalInterface
    public interface HashedKeys {
        void accept(byte[] bytes, int offset, int length, long hash) throws IOException;
    }

    /** Queries a batch of hashes: {@code MembershipFilter::mightContainHashes}. */
    @FunctionalInterface
    public interface HashQuery {
        /** Answers {@code hashes[0 .. count)} into {@code answers}; returns how many may be present. */
        int mightContainHashes(long[] hashes, int count, boolean[] answers);
    }

    /**
     * Adds every key: this thread reads and hashes, {@code threads} adders add. See
     * {@link AddPipeline} for what concurrency does to the count of new keys.
     */
    public static Counts add(BatchSource source, KeyHasher hasher, AddPipeline.HashAdder filter, int threads,
            LongConsumer progress) throws IOException {
        KeyBatch batch = new KeyBatch();
        long keys = 0;
        try (AddPipeline adds = new AddPipeline(filter, KeyBatch.CAPACITY, threads)) {
            while (source.nextBatch(batch)) {
                batch.hashWith(hasher);
                batch.hashes = adds.submit(batch.hashes, batch.size);
                keys += batch.size;
                progress.accept(source.bytesRead());
            }
            return new Counts(keys, adds.finish());
        }
    }

    /** Queries every key, a batch per call, and hands each with its answer to {@code each} (if not null), in input order. */
    public static Counts query(BatchSource source, KeyHasher hasher, HashQuery filter, KeyAnswers each,
            LongConsumer progress) throws IOException {
        KeyBatch batch = new KeyBatch();
        long keys = 0;
        long present = 0;
        while (source.nextBatch(batch)) {
            batch.hashWith(hasher);
            present += filter.mightContainHashes(batch.hashes, batch.size, batch.answers);
            keys += batch.size;
            if (each != null) {
                for (int i = 0; i < batch.size; i++) {
                    each.accept(batch.bytes, batch.offsets[i], batch.lengths[i], batch.answers[i]);
                }
            }
            progress.accept(source.bytesRead());
        }
        return new Counts(keys, present);
    }

    /** Hands every key with its hash to {@code each}, in input order; returns how many there were. */
    public static long forEach(BatchSource source, KeyHasher hasher, HashedKeys each, LongConsumer progress)
            throws IOException {
        KeyBatch batch = new KeyBatch();
        long keys = 0;
        while (source.nextBatch(batch)) {
            batch.hashWith(hasher);
            for (int i = 0; i < batch.size; i++) {
                each.accept(batch.bytes, batch.offsets[i], batch.lengths[i], batch.hashes[i]);
            }
            keys += batch.size;
            progress.accept(source.bytesRead());
        }
        return keys;
    }

    /** Adds or queries one key from its bytes: {@code BloomFilter::add} or {@code BloomFilter::mightContain}. */
    @FunctionalInterface
    public interface KeyProbe {
        boolean probe(byte[] bytes, int offset, int length);
    }

    /**
     * Adds or queries every key one at a time on this thread, from its bytes, with no 64-bit hash
     * in between: for a filter whose probes need more (a guava filter of the 64-bit strategy).
     * Hands each key with its answer to {@code each} (if not null), in input order.
     */
    public static Counts eachKey(BatchSource source, KeyProbe filter, KeyAnswers each, LongConsumer progress)
            throws IOException {
        KeyBatch batch = new KeyBatch();
        long keys = 0;
        long hits = 0;
        while (source.nextBatch(batch)) {
            for (int i = 0; i < batch.size; i++) {
                boolean answer = filter.probe(batch.bytes, batch.offsets[i], batch.lengths[i]);
                hits += answer ? 1 : 0;
                if (each != null) {
                    each.accept(batch.bytes, batch.offsets[i], batch.lengths[i], answer);
                }
            }
            keys += batch.size;
            progress.accept(source.bytesRead());
        }
        return new Counts(keys, hits);
    }

    /** Counts the keys without hashing them. */
    public static long count(BatchSource source, LongConsumer progress) throws IOException {
        KeyBatch batch = new KeyBatch();
        long keys = 0;
        while (source.nextBatch(batch)) {
            keys += batch.size;
            progress.accept(source.bytesRead());
        }
        return keys;
    }
}
