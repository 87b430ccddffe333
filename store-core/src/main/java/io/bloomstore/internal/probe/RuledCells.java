package io.bloomstore.internal.probe;

import io.bloomstore.BloomSpec;
import io.bloomstore.internal.cells.CellArray;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongUnaryOperator;

/**
 * The per-key operations of the version 4 cell rules (docs/FORMAT.md, "Cell rules") on the mapped
 * cells: every change a compare-and-set of one word ({@link CellArray#raiseTo},
 * {@link CellArray#lowerTo}, {@link CellArray#decrementRun}), so any number of threads and
 * processes add at once. An add's steps are separate atomic steps, as a counting filter's are:
 * an add running beside another may see the other's decrements or sets or not, and the model
 * (internal.math.StableFilterMath) counts adds, not their order.
 */
public final class RuledCells extends CellQueries {
    private final CellArray array;
    /** Whether a valued add keeps the largest value (the max rule) rather than the smallest. */
    private final boolean keepMax;
    /** A stable filter's P; 0 for a valued one. */
    private final long decrements;
    private final long top;
    /** Draws a run's start in [0, m): a thread's own generator, or a seeded one for a test. */
    private final LongUnaryOperator starts;

    /**
     * The rule's operations on {@code cells}, runs starting at random.
     *
     * @param keepMax for a valued filter, whether it keeps the largest value (max rule)
     * @param decrements for a stable filter, P; 0 for a valued one
     */
    public RuledCells(BloomSpec spec, CellArray cells, boolean keepMax, long decrements) {
        this(spec, cells, keepMax, decrements, bound -> ThreadLocalRandom.current().nextLong(bound));
    }

    private RuledCells(BloomSpec spec, CellArray cells, boolean keepMax, long decrements, LongUnaryOperator starts) {
        super(spec, cells);
        this.array = cells;
        this.keepMax = keepMax;
        this.decrements = decrements;
        this.top = cells.maxValue();
        this.starts = starts;
    }

    /**
     * A stable filter's operations with runs drawn from a generator seeded with {@code seed}, for
     * one thread: a test's stream then gives the same cells each run.
     */
    public static RuledCells seededStable(BloomSpec spec, CellArray cells, long decrements, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        return new RuledCells(spec, cells, false, decrements, random::nextLong);
    }

    /**
     * A stable filter's add: whether the key read present, then P decrements from a random start,
     * then the key's k cells to the maximum.
     *
     * @return whether the key read absent before this add (new)
     */
    public boolean addStable(long hash) {
        boolean present = mightContain(hash);
        array.decrementRun(starts.applyAsLong(array.cells()), decrements);
        long base = probing.base(hash);
        long step = probing.step(hash);
        for (int i = 0; i < hashes; i++) {
            array.raiseTo(probing.index(base, step, i), top);
        }
        return !present;
    }

    /**
     * A valued filter's add of {@code value} (checked by the caller to fit the value bits): each of
     * the key's cells to max(cell, value + 1), or to min over the non-empty of (cell, value + 1).
     *
     * @return whether a cell changed: false when the file already answered this value or a better one
     */
    public boolean put(long hash, long value) {
        long held = value + 1;
        long base = probing.base(hash);
        long step = probing.step(hash);
        boolean changed = false;
        boolean max = keepMax;
        for (int i = 0; i < hashes; i++) {
            long index = probing.index(base, step, i);
            long before = max ? array.raiseTo(index, held) : array.lowerTo(index, held);
            changed |= max ? before < held : before == 0 || before > held;
        }
        return changed;
    }

    /**
     * A valued filter's read: the minimum (max rule) or maximum (min rule) of the key's k cells,
     * minus one; -1 when a cell is empty (the key is absent).
     */
    public long get(long hash) {
        long base = probing.base(hash);
        long step = probing.step(hash);
        boolean max = keepMax;
        long read = max ? Long.MAX_VALUE : 0;
        for (int i = 0; i < hashes; i++) {
            long cell = array.getVolatile(probing.index(base, step, i));
            if (cell == 0) {
                return -1;
            }
            read = max ? Math.min(read, cell) : Math.max(read, cell);
        }
        return read - 1;
    }
}
