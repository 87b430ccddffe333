package io.bloomstore;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.function.LongConsumer;

/**
 * What every kind of bloomstore filter file answers: a fixed {@link BloomFilter}, a
 * {@link GrowingBloomFilter} and a {@link WindowedBloomFilter}. Tools that only add and query
 * keys (the command line's add, contains, dedup) take this type and work on all three.
 *
 * <p>Keys are hashed once ({@link #hasher()}); the {@code *Hash} methods take such hashes, for
 * callers that hash keys themselves, e.g. in batches straight out of an I/O buffer.
 *
 * <p><b>One contract for managing any kind.</b> {@link #open} opens a file of any kind, and every
 * kind answers the same management questions: what it is and its shape ({@link #kind()},
 * {@link #shape()}: layout, hash, seed, sizing, size on disk), how full it is ({@link #stats()}:
 * estimated keys, fill, the false-positive rate now), its capacity ({@link #approximateKeys()},
 * {@link #isPastCapacity()}, {@link #headroom()}, {@link #growthRefusal()}) and whether it is
 * intact ({@link #verify}). The detail only one kind has comes as a typed record of the sealed
 * {@link FilterShape} (or {@link SegmentedStats}' parts), never by testing the handle's class: the
 * command line, the Spark module, merge, pack, checkpoint and the server ask only this interface.
 * The questions every kind of bloomstore file answers, a valued filter's and a Bloomier map's
 * included, are {@link StoredFile}'s, whose {@link StoredFile#open} opens a file of any kind.
 *
 * <p><b>How a new kind plugs in.</b> One class, plus its format code in {@code internal.format}:
 * <ol>
 *   <li>the class implements this interface (a class of regions extends {@code SegmentedFilter},
 *       which answers the statistics, verify and size questions for them, and delegates its adds
 *       and queries to its protocol, a subclass of {@code internal.segment.Regions}) and is added
 *       to the {@code permits} clause below;</li>
 *   <li>{@link FilterKind} gains a constant, and its recognition of a file's first bytes the case
 *       that tells the new kind (its format version or kind byte, docs/FORMAT.md);</li>
 *   <li>{@link #open} and {@link StoredFile#open} gain the case that opens it (in their shared
 *       opener, {@code FileOpener});</li>
 *   <li>if it has detail no other kind has, {@link FilterShape} gains a record for it and
 *       {@link FilterShape#map} a function: the compiler then names each caller that renders
 *       per-kind detail (the command line's {@code inspect} and one-line shape, the server's info),
 *       and no other. A kind without such detail answers with an existing record.</li>
 * </ol>
 * The command line's verbs (add, contains, dedup, verify, estimate, inspect's common lines) use
 * only the common questions, so they work on the new kind unchanged.
 */
public sealed interface MembershipFilter extends StoredFile permits CountingFilter, SegmentedFilter, UnmappedFilter {
    /**
     * Opens a filter file of any kind, as {@link #open(Path, OpenMode, Clock)} does, a windowed
     * filter's epochs read from the system clock: for callers that open fixed and growing files,
     * which read no clock, or that mean the system's time.
     *
     * @param path the filter file
     * @param mode as {@link #open(Path, OpenMode, Clock)}
     * @return the open filter, of the file's kind; close it when done
     * @throws InvalidFilterFileException if the file is damaged or not a filter
     */
    static MembershipFilter open(Path path, OpenMode mode) throws IOException {
        return open(path, mode, Clock.systemUTC());
    }

    /**
     * Opens a filter file of any kind: a fixed filter (format version 1), a growing or a windowed
     * one (version 2, told apart by the kind byte), as their own {@code open} would. The file is
     * opened once: its kind, its headers and its mapping are all read through that one descriptor,
     * so a file renamed over the path meanwhile is either wholly the one opened or not opened at all
     * (docs/RELIABILITY.md, "Inputs bound to one descriptor").
     *
     * @param path the filter file
     * @param mode {@link OpenMode#READ_ONLY} to query only, {@link OpenMode#READ_WRITE} to add too
     * @param clock the clock of a windowed filter's epochs (the system clock, normally); unused by the others
     * @return the open filter, of the file's kind; close it when done
     * @throws InvalidFilterFileException if the file is damaged or not a filter
     */
    static MembershipFilter open(Path path, OpenMode mode, Clock clock) throws IOException {
        return FileOpener.filter(path, mode, clock, false);
    }

    /**
     * The file.
     *
     * @return the path the filter was opened with
     */
    Path path();

    /**
     * The hasher that turns keys into the hashes the {@code *Hash} methods take.
     *
     * @return the hasher, with the filter's algorithm and seed
     */
    KeyHasher hasher();

    /**
     * Whether this handle was opened read-only.
     *
     * @return true if adds are refused
     */
    boolean isReadOnly();

    /**
     * Adds the key whose hash is {@code hash}.
     *
     * @param hash the key's hash, from {@link #hasher()}
     * @return true if the key was definitely absent before this call (for a windowed filter: not
     *     seen within the window); false if it may have been present
     */
    boolean addHash(long hash);

    /**
     * Adds the keys whose hashes are {@code hashes[0 .. count)}; returns how many were definitely new.
     *
     * @param hashes the hashes, from {@link #hasher()}
     * @param count how many of them to add, from 0 to {@code hashes.length}
     * @return the count of new keys, from 0 to {@code count}
     */
    int addHashes(long[] hashes, int count);

    /**
     * Whether the key whose hash is {@code hash} may have been added: false is certain.
     *
     * @param hash the key's hash, from {@link #hasher()}
     * @return true if it may be present
     */
    boolean mightContainHash(long hash);

    /**
     * Queries the keys whose hashes are {@code hashes[0 .. count)}; {@code results[i]} answers
     * {@code hashes[i]}.
     *
     * @param hashes the hashes, from {@link #hasher()}
     * @param count how many of them to query, from 0 to {@code hashes.length}
     * @param results receives the answers in {@code results[0 .. count)}; the rest is left as it is
     * @return how many may be present
     * @throws IllegalArgumentException if {@code results} is shorter than {@code count}
     */
    int mightContainHashes(long[] hashes, int count, boolean[] results);

    /**
     * Adds a long key (its 8 little-endian bytes).
     *
     * @param key any long, 0 and negative ones included
     * @return as {@link #addHash(long)}
     * @see #addHash(long)
     */
    default boolean add(long key) {
        return addHash(hasher().hash(key));
    }

    /**
     * Adds a byte[] key.
     *
     * @param key the key's bytes; empty is a key too
     * @return as {@link #addHash(long)}
     * @see #addHash(long)
     */
    default boolean add(byte[] key) {
        return addHash(hasher().hash(key));
    }

    /**
     * Adds the UTF-8 bytes of {@code key}.
     *
     * @param key the key, not null; the empty string is a key too
     * @return as {@link #addHash(long)}
     * @see #addHash(long)
     */
    default boolean add(CharSequence key) {
        return addHash(hasher().hash(key));
    }

    /**
     * Adds the key {@code key[offset .. offset + length)}.
     *
     * @param key the array holding the key
     * @param offset where the key starts in {@code key}, from 0
     * @param length the key's length in bytes; 0 is the empty key
     * @return as {@link #addHash(long)}
     * @see #addHash(long)
     */
    default boolean add(byte[] key, int offset, int length) {
        return addHash(hasher().hash(key, offset, length));
    }

    /**
     * Adds the buffer's remaining bytes as a key; its position and limit are left as they were.
     *
     * @param key the key's bytes, from position to limit; none remaining is the empty key
     * @return as {@link #addHash(long)}
     * @see #addHash(long)
     */
    default boolean add(ByteBuffer key) {
        return addHash(hasher().hash(key));
    }

    /**
     * Whether a long key (its 8 little-endian bytes) may have been added.
     *
     * @param key any long, 0 and negative ones included
     * @return false if certainly absent
     * @see #mightContainHash(long)
     */
    default boolean mightContain(long key) {
        return mightContainHash(hasher().hash(key));
    }

    /**
     * Whether a byte[] key may have been added.
     *
     * @param key the key's bytes; empty is a key too
     * @return false if certainly absent
     * @see #mightContainHash(long)
     */
    default boolean mightContain(byte[] key) {
        return mightContainHash(hasher().hash(key));
    }

    /**
     * Whether the UTF-8 bytes of {@code key} may have been added.
     *
     * @param key the key, not null; the empty string is a key too
     * @return false if certainly absent
     * @see #mightContainHash(long)
     */
    default boolean mightContain(CharSequence key) {
        return mightContainHash(hasher().hash(key));
    }

    /**
     * Whether the key {@code key[offset .. offset + length)} may have been added.
     *
     * @param key the array holding the key
     * @param offset where the key starts in {@code key}, from 0
     * @param length the key's length in bytes; 0 is the empty key
     * @return false if certainly absent
     * @see #mightContainHash(long)
     */
    default boolean mightContain(byte[] key, int offset, int length) {
        return mightContainHash(hasher().hash(key, offset, length));
    }

    /**
     * Whether the buffer's remaining bytes may have been added as a key; its position and limit
     * are left as they were.
     *
     * @param key the key's bytes, from position to limit; none remaining is the empty key
     * @return false if certainly absent
     * @see #mightContainHash(long)
     */
    default boolean mightContain(ByteBuffer key) {
        return mightContainHash(hasher().hash(key));
    }

    /**
     * Adds many long keys: hashed a chunk at a time, each chunk added by {@link #addHashes}, which
     * overlaps their cache misses.
     *
     * @param keys the keys; empty adds nothing and returns 0
     * @return how many of them were definitely new
     */
    default int addAll(long[] keys) {
        KeyHasher hasher = hasher();
        return HashChunks.addAll(this, keys.length, i -> hasher.hash(keys[i]));
    }

    /**
     * Adds many byte[] keys, as {@link #addAll(long[])} does.
     *
     * @param keys the keys; empty adds nothing and returns 0
     * @return how many of them were definitely new
     */
    default int addAll(byte[][] keys) {
        KeyHasher hasher = hasher();
        return HashChunks.addAll(this, keys.length, i -> hasher.hash(keys[i]));
    }

    /**
     * Adds the UTF-8 bytes of every key, as {@link #addAll(long[])} does: a chunk of keys is
     * hashed before any of them is added.
     *
     * @param keys the keys; empty adds nothing and returns 0
     * @return how many of them were definitely new
     */
    default int addAll(Iterable<? extends CharSequence> keys) {
        return HashChunks.addAll(this, keys);
    }

    /**
     * Queries many long keys: hashed a chunk at a time, each chunk queried by
     * {@link #mightContainHashes}, which overlaps their cache misses; {@code results[i]} answers
     * {@code keys[i]}.
     *
     * @param keys the keys; empty queries nothing and returns 0
     * @param results receives one answer per key, from index 0; the rest is left as it is
     * @return how many may be present
     * @throws IllegalArgumentException if {@code results} is shorter than {@code keys}
     */
    default int mightContainAll(long[] keys, boolean[] results) {
        KeyHasher hasher = hasher();
        return HashChunks.mightContainAll(this, keys.length, i -> hasher.hash(keys[i]), results);
    }

    /**
     * Queries many byte[] keys, as {@link #mightContainAll(long[], boolean[])} does.
     *
     * @param keys the keys; empty queries nothing and returns 0
     * @param results receives one answer per key, from index 0; the rest is left as it is
     * @return how many may be present
     * @throws IllegalArgumentException if {@code results} is shorter than {@code keys}
     */
    default int mightContainAll(byte[][] keys, boolean[] results) {
        KeyHasher hasher = hasher();
        return HashChunks.mightContainAll(this, keys.length, i -> hasher.hash(keys[i]), results);
    }

    /**
     * Whether the key whose hash is {@code hash} may have been added, and if so keeps it as if it
     * were added now: a windowed filter adds it to the current epoch (so it stays found for a whole
     * window more) only when it is found; the kinds without time just query.
     *
     * @param hash the key's hash, from {@link #hasher()}
     * @return true if it may be present (before this call)
     * @throws IllegalStateException if a windowed filter is open read-only
     */
    default boolean refreshHash(long hash) {
        return mightContainHash(hash);
    }

    // ---------------------------------------------------------------- the management questions

    /**
     * The kind of file.
     *
     * @return its kind, as the file's first bytes tell it
     */
    FilterKind kind();

    /**
     * {@inheritDoc} Here: {@code filter}, applied to this filter; a valued file opened as a filter
     * ({@link #open}) is one too, its values reached by {@link ValuedFilter#of}.
     */
    @Override
    default <R, X extends Exception> R match(KindFunction<? super MembershipFilter, ? extends R, X> filter,
            KindFunction<? super ValuedFilter, ? extends R, X> valued, KindFunction<? super BloomierMap, ? extends R, X> map)
            throws X {
        return filter.apply(this);
    }

    /**
     * This filter as a fixed {@link BloomFilter}, for what only that kind does (count and remove
     * keys, seal, estimate set sizes against another): the same handle, closed with it.
     *
     * @return the fixed filter; empty for any other kind
     */
    Optional<BloomFilter> asFixed();

    /**
     * What the file is and its shape, from its headers, without scanning its cells.
     *
     * @return the common answers, and the record of its kind for the detail only it has
     */
    FilterShape shape();

    /**
     * Scans the cells (one pass over the file) and reports how full the filter is.
     *
     * @return the fill, the estimated keys and the false-positive rate now
     */
    default FillStats stats() {
        return stats(null);
    }

    /**
     * {@link #stats()}, telling {@code bytesScanned} how many bytes were scanned so far (every few
     * MiB, and at the end), up to {@link FilterShape#scanBytes()}: for a progress display over a
     * large file.
     *
     * @param bytesScanned told the bytes scanned so far, on the calling thread; or null
     * @return as {@link #stats()}
     */
    FillStats stats(LongConsumer bytesScanned);

    /**
     * The distinct keys added so far, as the adds that returned "new" count them: those every
     * handle of every process has published plus this handle's own; of a windowed filter, those of
     * the slots a query probes now. Reads a counter per region: cheap enough to call after every
     * batch, unlike {@link #stats()}.
     *
     * @return the count, 0 for an empty filter
     */
    long approximateKeys();

    /**
     * Whether the filter holds more keys than it was sized for, so that its false-positive rate
     * is above the one it was sized for: a fixed filter past its expected keys, a windowed one with
     * an epoch past its share of the window. A growing filter, and a fixed one sized by cells and
     * hashes, are never past capacity. Cheap, as {@link #approximateKeys()}.
     *
     * @return true if past capacity
     */
    boolean isPastCapacity();

    /**
     * How many more new keys this handle's adds are sure to take before they are refused: for a
     * program that must not take in what it cannot add. Only a growing filter whose growth is
     * refused (by its max size, its table or the disk) refuses adds.
     *
     * @return the keys, or {@link Long#MAX_VALUE} while adds cannot be refused (always, for the
     *     kinds that do not grow)
     * @throws IllegalStateException if the filter is open read-only
     */
    default long headroom() {
        if (isReadOnly()) {
            throw new IllegalStateException(path() + " is open read-only; open it READ_WRITE to change it");
        }
        return Long.MAX_VALUE;
    }

    /**
     * Why adds are refused, if they are.
     *
     * @return the refused growth's message; empty while adds are taken (and always for the kinds
     *     that do not grow)
     */
    default Optional<String> growthRefusal() {
        return Optional.empty();
    }

    /**
     * Makes room for more keys now, where the kind can: a growing filter appends a segment,
     * whether or not the newest is full, and lets adds resume if a growth had been refused.
     *
     * @throws IOException naming the limit if the file would pass its max size, or the disk's error
     * @throws UnsupportedOperationException for a kind that does not grow (fixed, windowed)
     * @throws IllegalStateException if the filter is open read-only
     */
    default void grow() throws IOException {
        throw new UnsupportedOperationException(path() + " is a " + kind() + " filter, which does not grow; a growing "
                + "filter does (GrowingBloomFilter)");
    }

    /**
     * Checks the file beyond what opening it checked (docs/FORMAT.md, "What verify detects"): of a
     * fixed filter, its padding and, when it is sealed, its cells against their checksum; of a
     * growing or windowed file, every region's header, shape and padding and its table of regions.
     *
     * <p>A sealed fixed filter's cells are hashed whole, which reports nothing until it ends; for a
     * progress display over a large file, {@link #verify(LongConsumer)} reads them through first.
     *
     * @return what was checked, when no damage was found
     * @throws InvalidFilterFileException naming the first damage found
     * @throws IOException if the file cannot be read
     */
    CellsCheck verify() throws IOException;

    /**
     * {@link #verify()}, telling {@code bytesRead} how far it got: a sealed fixed filter's cells are
     * first read through in order (where the time goes for a file not yet in memory), reporting up
     * to {@link FilterShape#scanBytes()}, then hashed from memory, so a file larger than the memory
     * that caches it is read twice. Nothing is reported where no cells are read.
     *
     * @param bytesRead told the bytes of cells read so far, on the calling thread
     * @return as {@link #verify()}
     * @throws InvalidFilterFileException as {@link #verify()}
     * @throws IOException if the file cannot be read
     */
    CellsCheck verify(LongConsumer bytesRead) throws IOException;

    /**
     * The file's length, read through the descriptor the filter was opened on: not whatever file
     * the path names by now.
     *
     * @return its size on disk, in bytes
     */
    long fileBytes();

    /**
     * Forces every change made so far, through any handle, to the storage device.
     *
     * @throws IOException if the device reports an error
     */
    void sync() throws IOException;

    /** Publishes this handle's counts and unmaps the file. Idempotent. */
    @Override
    void close();
}
