package io.bloomstore;

import io.bloomstore.internal.format.CheckedFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Clock;

/**
 * What every kind of bloomstore filter file answers: a fixed {@link BloomFilter}, a
 * {@link GrowingBloomFilter} and a {@link WindowedBloomFilter}. Tools that only add and query
 * keys (the command line's add, contains, dedup) take this type and work on all three.
 *
 * <p>Keys are hashed once ({@link #hasher()}); the {@code *Hash} methods take such hashes, for
 * callers that hash keys themselves, e.g. in batches straight out of an I/O buffer.
 */
public interface MembershipFilter extends AutoCloseable {
    /**
     * Opens a filter file of any kind: a fixed filter (format version 1), a growing or a windowed
     * one (version 2, told apart by the kind byte), as their own {@code open} would. The file is
     * opened once: its kind, its headers and its mapping are all read through that one descriptor,
     * so a file renamed over the path meanwhile is either wholly the one opened or not opened at all
     * (docs/RELIABILITY.md, "Inputs bound to one descriptor").
     *
     * <p>With {@link OpenMode#READ_ONLY_UNMAPPED} a fixed filter is not mapped: its queries read the
     * file, a few system calls each (the mode says when that pays); a growing or windowed file is
     * then opened as with {@link OpenMode#READ_ONLY}.
     *
     * @param path the filter file
     * @param mode {@link OpenMode#READ_ONLY} to query only, {@link OpenMode#READ_WRITE} to add too,
     *     {@link OpenMode#READ_ONLY_UNMAPPED} for a few queries without mapping a fixed filter
     * @param clock the clock of a windowed filter's epochs (the system clock, normally); unused by the others
     * @return the open filter, of the file's kind; close it when done
     * @throws InvalidFilterFileException if the file is damaged or not a filter
     */
    static MembershipFilter open(Path path, OpenMode mode, Clock clock) throws IOException {
        boolean readOnly = mode != OpenMode.READ_WRITE;
        FileChannel channel = CheckedFile.openChannel(path, readOnly);
        FilterKind kind;
        try {
            kind = FilterKind.of(channel);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        OpenMode mapped = readOnly ? OpenMode.READ_ONLY : OpenMode.READ_WRITE;
        // each opener takes the channel over, and closes it if the file fails its checks
        return switch (kind) {
            case MAP -> {
                channel.close();
                throw notAFilter(path);
            }
            case WINDOWED -> WindowedBloomFilter.open(path, channel, mapped, clock);
            case GROWING -> GrowingBloomFilter.open(path, channel, mapped);
            case FIXED -> mode == OpenMode.READ_ONLY_UNMAPPED
                    ? UnmappedFilter.open(path, channel) // checks and reports as BloomFilter.open does
                    : BloomFilter.open(path, channel, mode); // checks and reports everything else
        };
    }

    /** The refusal of a Bloomier map where a filter is needed: a map answers values, not membership. */
    private static InvalidFilterFileException notAFilter(Path path) {
        return new InvalidFilterFileException(path, InvalidFilterFileException.Problem.UNSUPPORTED_VERSION,
                "is a Bloomier map (format version 4), not a filter: read it with 'bloomstore get' (BloomierMap in Java)");
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
     * Forces every change made so far, through any handle, to the storage device.
     *
     * @throws IOException if the device reports an error
     */
    void sync() throws IOException;

    /** Publishes this handle's counts and unmaps the file. Idempotent. */
    @Override
    void close();
}
