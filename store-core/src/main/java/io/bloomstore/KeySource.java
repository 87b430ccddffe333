package io.bloomstore;

import io.bloomstore.internal.bulk.AddPipeline;
import io.bloomstore.internal.bulk.BatchSource;
import io.bloomstore.internal.bulk.BulkKeys;
import io.bloomstore.internal.bulk.KeyLineReader;
import io.bloomstore.internal.bulk.ListedKeys;
import io.bloomstore.internal.bulk.SequenceSource;
import java.io.Closeable;
import java.io.Flushable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * Many keys at once, at the speed of {@code bloomstore build}: the lines of a file, a stream or a
 * channel (or keys given one by one), added to a filter or queried in it.
 *
 * <pre>{@code
 * try (BloomFilter filter = BloomFilter.open(Path.of("ids.bloom"), OpenMode.READ_WRITE);
 *         KeySource ids = KeySource.lines(Path.of("ids.txt"))) {
 *     KeySource.Added added = ids.addTo(filter);
 * }
 * }</pre>
 *
 * <p><b>Keys.</b> One key per line: a line ends at {@code \n}, a trailing {@code \r} is dropped
 * (CRLF files), empty lines are skipped, and every other byte (NUL and invalid UTF-8 included) is
 * part of the key. A key is hashed by its bytes, so a line {@code alice} is the same key as
 * {@code filter.add("alice")} and {@code filter.add("alice".getBytes(UTF_8))}. In a filter of the
 * {@link Layout#SBBF} layout whose Parquet type is numeric, every key of a source (lines and
 * {@link #of} keys alike) is text: the number it writes, as {@code filter.add("42")} reads it
 * ({@link KeyHasher#hashText}).
 *
 * <p><b>Filters.</b> {@link #addTo} and {@link #queryIn} take any {@link MembershipFilter}: a fixed
 * {@link BloomFilter}, a {@link GrowingBloomFilter} or a {@link WindowedBloomFilter}.
 *
 * <p><b>How it is fast.</b> Lines are split eight bytes at a time out of one reused buffer, with no
 * copy and no String per key; keys are hashed in batches of about a thousand, and each batch goes to
 * the filter's batch calls ({@link MembershipFilter#addHashes}, {@link MembershipFilter#mightContainHashes}),
 * which overlap the cache misses of different keys. {@link #addTo} adds on adder threads while the
 * calling thread reads and hashes the next batch.
 *
 * <p>A source is read once: each operation consumes what is left of it. It is not thread-safe.
 * {@link #close()} closes the underlying file, stream or channel.
 */
public final class KeySource implements Closeable {
    private static final LongConsumer NO_PROGRESS = bytes -> {
    };

    private final BatchSource batches;
    private LongConsumer progress = NO_PROGRESS;

    private KeySource(BatchSource batches) {
        this.batches = batches;
    }

    /**
     * The lines of {@code file}; opens it now.
     *
     * @param file a file of keys, one per line
     * @return the source, which owns the opened file
     * @throws IOException if the file cannot be opened
     */
    public static KeySource lines(Path file) throws IOException {
        return lines(Files.newInputStream(file), null);
    }

    /**
     * The lines of {@code in}, read in large blocks until its end.
     *
     * @param in the stream of keys, one per line; the source owns it
     * @return the source, not yet read
     */
    public static KeySource lines(InputStream in) {
        return lines(in, null);
    }

    /**
     * The lines of {@code in}, flushing {@code beforeEachRead} before each read from it (which may
     * block): a caller that writes output per key (a stream filter) flushes it there, so a consumer
     * sees it as soon as the input pauses, without a system call per key.
     *
     * @param in the stream of keys, one per line; the source owns it
     * @param beforeEachRead flushed before each read, or null
     * @return the source, not yet read
     */
    public static KeySource lines(InputStream in, Flushable beforeEachRead) {
        return new KeySource(new KeyLineReader(Objects.requireNonNull(in, "in"), KeyLineReader.DEFAULT_BUFFER,
                beforeEachRead));
    }

    /**
     * The lines of {@code channel}, read in large blocks until its end.
     *
     * @param channel the channel of keys, one per line; the source owns it
     * @return the source, not yet read
     */
    public static KeySource lines(ReadableByteChannel channel) {
        return lines(Channels.newInputStream(channel), null);
    }

    /**
     * Keys given one by one, each exactly its bytes: not split into lines, nothing dropped. The
     * arrays are copied now; an empty key is refused.
     *
     * @param keys the keys, each at least one byte; an empty list is a source of no keys
     * @return the source, not yet read
     * @throws IllegalArgumentException if a key is empty
     */
    public static KeySource of(List<byte[]> keys) {
        for (byte[] key : keys) {
            if (key.length == 0) {
                throw new IllegalArgumentException("an empty key is not a key (a key has at least one byte)");
            }
        }
        return new KeySource(new ListedKeys(keys));
    }

    /**
     * The keys of {@code sources}, one source after the other; closing the result closes them all.
     * The sources' own progress callbacks are not called; the result's is, with their bytes in total.
     *
     * @param sources the sources, read in list order; an empty list is a source of no keys
     * @return the joined source
     */
    public static KeySource concat(List<KeySource> sources) {
        List<BatchSource> parts = new ArrayList<>(sources.size());
        for (KeySource source : sources) {
            parts.add(source.batches);
        }
        return new KeySource(new SequenceSource(parts));
    }

    /**
     * Calls {@code bytesRead} with the number of input bytes consumed so far, once per batch (about a
     * thousand keys), during every later operation: the measure of progress. Returns this.
     *
     * @param bytesRead told the input bytes consumed so far, on the thread that reads; not null
     * @return this source
     */
    public KeySource onProgress(LongConsumer bytesRead) {
        this.progress = Objects.requireNonNull(bytesRead, "bytesRead");
        return this;
    }

    /**
     * How many keys an add saw, and how many of them were new to the filter.
     *
     * @param keys the keys read from the source, repeats included
     * @param newKeys those that were definitely new to the filter, at most {@code keys}
     */
    public record Added(long keys, long newKeys) {
    }

    /**
     * How many keys a query saw, and how many of them may be present (the rest are certainly absent).
     *
     * @param keys the keys read from the source, repeats included
     * @param present those the filter may contain, at most {@code keys}
     */
    public record Queried(long keys, long present) {
        /**
         * Whether every key may be present: no key is certainly absent.
         *
         * @return true if {@code present == keys}, also when there were no keys
         */
        public boolean allPresent() {
            return present == keys;
        }
    }

    /** Receives each key of a query with its answer. */
    @FunctionalInterface
    public interface AnswerConsumer {
        /**
         * Key {@code bytes[offset .. offset + length)} and its answer. The bytes are the reader's
         * buffer: valid only during this call, and not to be changed.
         *
         * @param bytes the reader's buffer, holding the key
         * @param offset where the key starts in {@code bytes}
         * @param length the key's length in bytes, at least 1
         * @param mightContain the filter's answer: false if the key is certainly absent
         * @throws IOException to end the query; {@link KeySource#queryIn} rethrows it
         */
        void accept(byte[] bytes, int offset, int length, boolean mightContain) throws IOException;
    }

    /** Receives each key with its hash, for operations the bulk calls do not cover. */
    @FunctionalInterface
    public interface HashedKeyConsumer {
        /**
         * Key {@code bytes[offset .. offset + length)} and its hash, ready for the filter's
         * {@code *Hash} methods. The bytes are the reader's buffer: valid only during this call,
         * and not to be changed.
         *
         * @param bytes the reader's buffer, holding the key
         * @param offset where the key starts in {@code bytes}
         * @param length the key's length in bytes, at least 1
         * @param hash the key's hash by the hasher given to {@link KeySource#forEach}
         * @throws IOException to end the walk; {@link KeySource#forEach} rethrows it
         */
        void accept(byte[] bytes, int offset, int length, long hash) throws IOException;
    }

    /**
     * Adds every key to {@code filter} with the default number of adder threads: one per
     * processor, at most four. See {@link #addTo(MembershipFilter, int)}.
     *
     * @param filter the filter to add to, open for writing
     * @return the keys read and how many were new
     * @throws IOException if the input cannot be read
     */
    public Added addTo(MembershipFilter filter) throws IOException {
        return addTo(filter, AddPipeline.defaultThreads());
    }

    /**
     * Adds every key to {@code filter}: this thread reads and hashes batches of keys while
     * {@code threads} adder threads add them. An add's cost is its cache misses, and an adder
     * waiting on them leaves the memory path's other slots idle: two adders on two cores nearly
     * double the rate of adds. Returns when every key is added, and no adder outlives the call
     * (also when it fails).
     *
     * <p><b>The counts under concurrency.</b> The filter's content is exactly that of adding every
     * key one by one; {@link Added#keys()} is exact. {@link Added#newKeys()} counts the keys whose
     * cells were not all set when the key arrived, and with several adders (or other writers of the
     * same file) the keys arrive in a slightly different order each run. So it can differ from a
     * sequential add's count by the few keys whose answer depends on order (about 2 in 100 M keys
     * in a measured build), and a key that appears twice in the input, in two batches being added
     * at the same moment, can be counted new twice. With {@code threads = 1} and no other writer
     * the count is that of a sequential add.
     *
     * @param filter the filter to add to, open for writing
     * @param threads adder threads, at least 1
     * @return the keys read and how many were new, as above
     * @throws IllegalStateException if the filter is read-only or closed (from an adder, rethrown here)
     * @throws IOException if the input cannot be read
     */
    public Added addTo(MembershipFilter filter, int threads) throws IOException {
        BulkKeys.Counts counts = filter instanceof BloomFilter fixed && fixed.probesKeysOnly()
                ? BulkKeys.eachKey(batches, fixed::add, null, progress)
                : BulkKeys.add(batches, filter.hasher(), filter::addHashes, threads, progress);
        return new Added(counts.keys(), counts.hits());
    }

    /**
     * Queries every key in {@code filter}, a batch per call, and hands each key with its answer to
     * {@code each}, in input order, on this thread.
     *
     * @param filter the filter to query
     * @param each receives every key and its answer; null when only the counts matter
     * @return the keys read and how many may be present
     * @throws IOException if the input cannot be read, or as {@code each} throws
     */
    public Queried queryIn(MembershipFilter filter, AnswerConsumer each) throws IOException {
        BulkKeys.Counts counts = filter instanceof BloomFilter fixed && fixed.probesKeysOnly()
                ? BulkKeys.eachKey(batches, fixed::mightContain, each == null ? null : each::accept, progress)
                : BulkKeys.query(batches, filter.hasher(), filter::mightContainHashes, each == null ? null : each::accept,
                        progress);
        return new Queried(counts.keys(), counts.hits());
    }

    /**
     * Hands every key with its hash by {@code hasher} to {@code each}, in input order, on this
     * thread: for per-key work such as {@link MembershipFilter#addHash} in a stream filter that prints
     * only new keys, {@link BloomFilter#countHash} or {@link BloomFilter#removeHash}.
     *
     * @param hasher the hasher of the filter the hashes are for ({@link MembershipFilter#hasher()})
     * @param each receives every key and its hash
     * @return the number of keys
     * @throws IOException if the input cannot be read, or as {@code each} throws
     */
    public long forEach(KeyHasher hasher, HashedKeyConsumer each) throws IOException {
        return BulkKeys.forEach(batches, hasher, each::accept, progress);
    }

    /**
     * Counts the keys (without hashing them): what a filter must be sized for.
     *
     * @return the number of keys left in the source; 0 if none
     * @throws IOException if the input cannot be read
     */
    public long count() throws IOException {
        return BulkKeys.count(batches, progress);
    }

    /**
     * Input bytes consumed so far (keys given by {@link #of} count none).
     *
     * @return the count, from 0
     */
    public long bytesRead() {
        return batches.bytesRead();
    }

    /** Closes the file, stream or channel the keys come from. */
    @Override
    public void close() throws IOException {
        batches.close();
    }
}
