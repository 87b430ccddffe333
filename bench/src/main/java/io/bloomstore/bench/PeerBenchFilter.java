package io.bloomstore.bench;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A peer's filter on the heap (Guava's, DataSketches', FastFilter's, Commons Collections', Spark's),
 * seen through its single-key calls. The chunk loops are written once, here: a JMH fork loads one
 * peer only, so the calls below stay monomorphic and inline as if each peer had its own loop.
 *
 * <p>None of the peers has a batch call for a batch of distinct keys (DataSketches'
 * {@code update(long[])} adds the array as one item), so the batch operations are the loop of
 * single calls a user of the peer would write, the twin bloomstore's batch calls are compared with.
 */
abstract class PeerBenchFilter implements BenchFilter {
    /** Adds one key; whether it was new, where the peer says so, else true (the peer's add answers nothing). */
    abstract boolean add(long key);

    /** As {@link #add(long)}, for a 16-byte key. */
    abstract boolean add(byte[] key);

    abstract boolean mightContain(long key);

    abstract boolean mightContain(byte[] key);

    /**
     * Writes the filter in the peer's own serial form, the one {@link ComparedFilter#load} reads; a peer
     * without one ({@link ComparedFilter#storable()} false) refuses.
     */
    void writeTo(OutputStream out) throws IOException {
        throw new UnsupportedOperationException(getClass().getSimpleName() + ": the peer has no serial form");
    }

    @Override
    public final int addEach(KeyChunk keys) {
        int added = 0;
        if (keys.type() == KeyType.LONG) {
            for (long key : keys.longs()) {
                added += add(key) ? 1 : 0;
            }
        } else {
            for (byte[] key : keys.bytes()) {
                added += add(key) ? 1 : 0;
            }
        }
        return added;
    }

    @Override
    public final int addBatch(KeyChunk keys) {
        return addEach(keys);
    }

    @Override
    public final int mightContainEach(KeyChunk keys) {
        int present = 0;
        if (keys.type() == KeyType.LONG) {
            for (long key : keys.longs()) {
                present += mightContain(key) ? 1 : 0;
            }
        } else {
            for (byte[] key : keys.bytes()) {
                present += mightContain(key) ? 1 : 0;
            }
        }
        return present;
    }

    @Override
    public final int mightContainBatch(KeyChunk keys) {
        return mightContainEach(keys);
    }

    /** Writes {@link #writeTo} to a sibling and renames it onto {@code target}, so a killed run leaves no half file. */
    @Override
    public final void saveAndClose(Path target) throws IOException {
        Path partial = target.resolveSibling(target.getFileName() + ".partial");
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(partial), 1 << 16)) {
            writeTo(out);
        }
        Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        close();
    }
}
