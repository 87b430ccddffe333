package io.bloomstore.server;

import io.bloomstore.BloomFilter;
import io.bloomstore.MembershipFilter;
import io.bloomstore.ValuedFilter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One open filter file, shared by every connection: the filter's adds and queries are lock-free
 * compare-and-sets on its mapping, so event-loop threads use it at once. A count of users keeps
 * it from being closed (by DEL, a restore, or a file replaced behind the server) while a command
 * runs on it; closing waits for them, which takes the length of one command.
 */
final class Handle {
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
    /** Commands running on the handle; -1 once closed. */
    private final AtomicInteger users = new AtomicInteger();

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
        for (;;) {
            int count = users.get();
            if (count < 0) {
                return false;
            }
            if (users.compareAndSet(count, count + 1)) {
                return true;
            }
        }
    }

    void release() {
        users.decrementAndGet();
    }

    /** Closes the filter once no command uses it. */
    void closeWhenIdle() {
        while (!users.compareAndSet(0, -1)) {
            if (users.get() < 0) {
                return;
            }
            Thread.yield();
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
