package io.bloomstore.spark;

import io.bloomstore.KeyHasher;
import io.bloomstore.SlicedFilter;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.spark.sql.catalyst.InternalRow;
import scala.Tuple2;

/**
 * The map side of a blocked build: one input partition's keys hashed and grouped by the slice
 * their block falls in, handed out as (slice, chunk) pairs as the chunks fill, so a task holds at
 * most one partly filled chunk per slice, never its partition's hashes at once.
 */
final class HashesBySlice implements Iterator<Tuple2<Integer, HashChunk>> {
    /** Hashes per chunk: 32 KiB, large enough that a chunk's own overhead in the shuffle is noise. */
    static final int CHUNK = 4096;

    private final Iterator<InternalRow> rows;
    private final KeyColumn column;
    private final KeyHasher hasher;
    private final SlicedFilter plan;
    private final long[][] buffers;
    private final int[] filled;
    private final ArrayDeque<Tuple2<Integer, HashChunk>> ready = new ArrayDeque<>();
    private long nullKeys;
    private boolean drained;

    HashesBySlice(Iterator<InternalRow> rows, KeyColumn column, KeyHasher hasher, SlicedFilter plan) {
        this.rows = rows;
        this.column = column;
        this.hasher = hasher;
        this.plan = plan;
        this.buffers = new long[plan.sliceCount()][];
        this.filled = new int[plan.sliceCount()];
    }

    @Override
    public boolean hasNext() {
        while (ready.isEmpty() && !drained) {
            if (rows.hasNext()) {
                take(rows.next());
            } else {
                drain();
            }
        }
        return !ready.isEmpty();
    }

    @Override
    public Tuple2<Integer, HashChunk> next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return ready.poll();
    }

    private void take(InternalRow row) {
        if (row.isNullAt(0)) {
            nullKeys++;
            return;
        }
        long hash = column.hash(row, 0, hasher);
        int slice = plan.sliceOf(hash);
        long[] buffer = buffers[slice];
        if (buffer == null) {
            buffer = buffers[slice] = new long[CHUNK];
        }
        buffer[filled[slice]++] = hash;
        if (filled[slice] == CHUNK) {
            ready.add(new Tuple2<>(slice, HashChunk.of(buffer, CHUNK)));
            filled[slice] = 0;
        }
    }

    private void drain() {
        drained = true;
        for (int slice = 0; slice < buffers.length; slice++) {
            if (filled[slice] > 0) {
                ready.add(new Tuple2<>(slice, HashChunk.of(buffers[slice], filled[slice])));
            }
        }
        if (nullKeys > 0) {
            ready.add(new Tuple2<>(0, HashChunk.nulls(nullKeys)));
        }
    }
}
