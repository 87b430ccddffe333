package io.bloomstore.server;

import io.bloomstore.BloomFilter;
import io.bloomstore.MembershipFilter;
import io.bloomstore.ValuedFilter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * One open filter file, shared by every connection: the filter's adds and queries are lock-free
 * compare-and-sets on its mapping, so event-loop threads use it at once. A count of users keeps
 * it from being closed (by DEL, a restore, or a file replaced behind the server) while a command
 * runs on it; closing waits for them, which takes the length of one command.
 */
final class Handle {
    /** Stripes of {@link #users}: a power of two above the event loops of the cores this runs on. */
    private static final int STRIPES = 16;
    /** Ints between stripes: 64 bytes, a cache line. */
    private static final int STRIPE_GAP = 16;

    /** The key as the cache knows it: its bytes as Latin-1 characters, one per byte. */
    final String id;
    /** The key's bytes, {@link #id}'s characters. */
    private final byte[] key;
    final Path path;
    final MembershipFilter filter;
    /** {@link #filter} if it is a fixed filter, else null: asked once, as every add of a fixed one asks it. */
    private final BloomFilter fixed;
    /** {@link #fixed}'s values if it is a valued filter (docs/FORMAT.md, "Cell rules"), else null. */
    private final ValuedFilter valued;
    /** Whether {@link #fixed} is a stable filter, which takes keys without end: its n is a lifetime, not a capacity. */
    private final boolean stable;
    /**
     * Whether the file's keys are numbers (an sbbf filter of a numeric Parquet type). Redis sends
     * every item as bytes; in such a file they are the text of a number, as the command line reads
     * its keys, so {@code BF.ADD ids 42} adds the number 42 that Parquet's writers hash.
     */
    private final boolean numericKeys;
    /** The file's identity when opened (its inode), to notice a file replaced or removed behind the server. */
    final Object fileKey;
    /** Whether adds since the last sync may still be only in the page cache. */
    volatile boolean dirty;
    /**
     * Commands running on the handle, counted apart by each thread (its stripe, its own cache line):
     * every command counts itself in and out, and one counter shared by the event loops had its
     * line passed between their cores at every command. A thread releases what it acquired.
     */
    private final AtomicIntegerArray users = new AtomicIntegerArray(STRIPES * STRIPE_GAP);
    private volatile boolean closed;

    Handle(String id, Path path, MembershipFilter filter, Object fileKey) {
        this.id = id;
        this.key = id.getBytes(StandardCharsets.ISO_8859_1);
        this.path = path;
        this.filter = filter;
        this.fixed = filter.asFixed().orElse(null);
        this.valued = fixed != null ? ValuedFilter.of(fixed).orElse(null) : null;
        this.stable = fixed != null && fixed.stableSpec().isPresent();
        this.numericKeys = fixed != null && fixed.spec().parquetType() != null && fixed.spec().parquetType().isNumeric();
        this.fileKey = fileKey;
    }

    /** Whether this is the handle of {@code key}. */
    boolean named(byte[] key) {
        return Arrays.equals(this.key, key);
    }

    /** Counts a user in; false if the handle is closed (the caller looks the key up again). */
    boolean acquire() {
        int stripe = stripe();
        users.getAndIncrement(stripe);
        // a closer sets closed before it reads the stripes: it sees this count, or this sees closed
        if (closed) {
            users.getAndDecrement(stripe);
            return false;
        }
        return true;
    }

    /** Counts the user out, on the thread that acquired. */
    void release() {
        users.getAndDecrement(stripe());
    }

    private static int stripe() {
        return (int) (Thread.currentThread().getId() & (STRIPES - 1)) * STRIPE_GAP;
    }

    /** Closes the filter once no command uses it; a second caller returns once it is closed. */
    synchronized void closeWhenIdle() {
        if (closed) {
            return;
        }
        closed = true;
        for (int i = 0; i < STRIPES * STRIPE_GAP; i += STRIPE_GAP) {
            while (users.get(i) != 0) {
                Thread.yield();
            }
        }
        filter.close();
    }

    void markDirty() {
        if (!dirty) {
            dirty = true;
        }
    }

    /**
     * Adds an item as a client sent it.
     *
     * @throws IllegalArgumentException if the file's keys are numbers and the item is not one
     */
    boolean add(byte[] item) {
        return numericKeys ? filter.addHash(filter.hasher().hashText(item, 0, item.length)) : filter.add(item);
    }

    /**
     * Asks for an item as a client sent it.
     *
     * @throws IllegalArgumentException if the file's keys are numbers and the item is not one
     */
    boolean mightContain(byte[] item) {
        return numericKeys ? filter.mightContainHash(filter.hasher().hashText(item, 0, item.length))
                : filter.mightContain(item);
    }

    /** The filter if it is a fixed one, for the commands only that kind answers; else null. */
    BloomFilter fixed() {
        return fixed;
    }

    /** Whether the file is a fixed filter with a capacity, which BF.ADD refuses to pass as RedisBloom's NONSCALING filters do. */
    boolean fills() {
        return fixed != null && !stable && fixed.spec().expectedKeys() > 0;
    }

    /** The filter's values if it is a valued filter (BS.ADDVALUE, BS.GETVALUE); else null. */
    ValuedFilter valued() {
        return valued;
    }

    /** The file's kind in a word, for errors and BS.INFO: stable, valued, or the filter's kind (fixed, growing, windowed). */
    String kindName() {
        if (valued != null) {
            return "valued";
        }
        if (stable) {
            return "stable";
        }
        return filter.kind().toString();
    }
}
