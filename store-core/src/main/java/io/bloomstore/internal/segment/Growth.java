package io.bloomstore.internal.segment;

import io.bloomstore.internal.format.ContainerState;
import io.bloomstore.internal.format.StepLockHeldException;
import io.bloomstore.internal.format.StepLockWait;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;

/**
 * The growth protocol of a chain of segments (docs/FORMAT.md, "Growing"; docs/RELIABILITY.md):
 * keys go to the newest segment; at half its capacity the next one is prepared (written and
 * forced, not yet published) under the step lock; when it is full, whichever process sees it first
 * publishes the next one with one compare-and-set of the count, waiting for its writer if that is
 * not done yet. An unpublished segment is never read.
 */
public final class Growth extends Regions {
    /** The segment count at which this handle last tried to prepare the next segment. */
    private int preparedFor; // a hint: threads racing on it at worst both try
    /** {@link #canAppend}'s last answer: the segment count it was for, shifted left once, and 1 if it could. */
    private volatile long appendJudged = -2;
    /**
     * Why this handle refuses adds, or null: the growth it could not do. A
     * {@link StepLockHeldException} lasts only while that owner holds the lock.
     */
    private volatile IOException refusal;

    private Growth(SegmentedFile file, Refusals refusals) {
        super(file, refusals);
    }

    /**
     * The chain of {@code file}, which it takes over (closed here on failure). Writable, it first
     * finishes the preparation of the next segment that a crashed process left half done, and
     * judges a newest segment that was full when the file was last closed (its growth refused
     * then): judged now, or each restart's adds would go into it until their first publish.
     */
    public static Growth open(SegmentedFile file, Refusals refusals) {
        Growth growth = new Growth(file, refusals);
        if (file.readOnly()) {
            return growth;
        }
        try {
            if (file.lockHeldByCrashedOwner()) {
                try {
                    growth.prepare(growth.segments().length);
                } catch (IOException e) {
                    // tried again, and reported, when the newest segment is full
                }
            }
            Segment[] segments = growth.segments();
            if (segments[segments.length - 1].isFull()) {
                growth.judgeCapacity(segments[segments.length - 1], segments.length);
            }
        } catch (RuntimeException e) {
            file.close();
            throw e;
        }
        return growth;
    }

    /** The segments published so far, mapping those published since this handle's last call. */
    private Segment[] segments() {
        Segment[] mapped = file.mappedRegions();
        if (state.getCountVolatile() == mapped.length) {
            return mapped;
        }
        try {
            return file.regions(file.publishedRegions());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Segment[] regions() {
        return segments();
    }

    /** Every segment, the newest (largest, fullest) first, as {@link #mightContain} asks them. */
    @Override
    public Segment[] probedRegions() {
        Segment[] segments = segments();
        Segment[] newestFirst = new Segment[segments.length];
        for (int i = 0; i < segments.length; i++) {
            newestFirst[i] = segments[segments.length - 1 - i];
        }
        return newestFirst;
    }

    @Override
    public long epochOf(int index) {
        return 0;
    }

    @Override
    public boolean isProbed(int index) {
        return true;
    }

    /**
     * Adds a key: if some older segment may hold it, nothing is written (a chain does not store a
     * key twice) and false is returned; else it goes to the newest segment.
     *
     * @throws RuntimeException from {@link Refusals} if this handle's last growth was refused, or
     *     the newest segment is full and a live process has held the lock to write the next one for
     *     too long
     */
    @Override
    public boolean add(long hash) {
        IOException refused = refusal;
        if (refused instanceof StepLockHeldException held) {
            resumeAfter(held);
        } else if (refused != null) {
            throw refusals.full(refused);
        }
        Segment[] segments = segments();
        int newest = segments.length - 1;
        for (int i = 0; i < newest; i++) {
            if (segments[i].mightContain(hash)) {
                return false;
            }
        }
        boolean added = segments[newest].add(hash);
        if (added && segments[newest].countNew(1, hash)) {
            judgeCapacity(segments[newest], newest + 1);
        }
        return added;
    }

    /**
     * After this handle published its count into the newest segment: at half its capacity the
     * next segment is prepared (written and forced, not yet published), so that when the
     * segment is full the switch is one compare-and-set of the count. Writing and forcing a
     * segment takes milliseconds, in which other processes go on adding to the full segment: done
     * at the switch, three processes adding at full speed overfilled 1000-key segments 2.7 times.
     */
    private void judgeCapacity(Segment newest, int count) {
        long keys = newest.publishedKeys();
        if (newest.isFull()) {
            try {
                growFrom(count);
            } catch (IOException e) {
                refusal = e; // this key is in; the next add is refused before it changes anything
            }
        } else if (keys >= newest.capacity() / 2 && preparedFor != count) {
            preparedFor = count;
            try {
                prepare(count);
            } catch (IOException e) {
                // tried again at the switch, which reports it
            }
        }
    }

    /**
     * Lets adds resume after a growth given up on because a live process held the lock, once it
     * no longer does (or the segment it wrote is ready): the full segment's growth is then done
     * here, before this add. While it still holds the lock, the add is refused at once, adding
     * nothing: a full segment must not take more keys, and waiting again at every add would only
     * make the refusal slower.
     */
    private void resumeAfter(StepLockHeldException held) {
        Segment[] segments = segments();
        int count = segments.length;
        long owner = file.lockOwner();
        if (!file.isPrepared(count) && owner != 0 && ContainerState.ownerAlive(owner)) {
            throw refusals.busy(held);
        }
        refusal = null;
        Segment newest = segments[count - 1];
        if (newest.isFull()) {
            judgeCapacity(newest, count);
            IOException refused = refusal;
            if (refused != null) {
                throw refusals.of(refused);
            }
        }
    }

    /** Whether some segment may hold the key; the newest (largest, fullest) is asked first. */
    @Override
    public boolean mightContain(long hash) {
        Segment[] segments = segments();
        for (int i = segments.length - 1; i >= 0; i--) {
            if (segments[i].mightContain(hash)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Appends a segment now, whether or not the newest is full, and lets adds resume if a growth
     * had been refused.
     *
     * @throws IOException naming the limit if the file would pass its max size, or the disk's error
     */
    public void grow() throws IOException {
        growFrom(segments().length);
        refusal = null;
    }

    /**
     * Publishes segment {@code count} if the chain still has {@code count} segments, preparing it
     * first unless that is done. If a live process is preparing it, waits for it: adding on into
     * the full segment meanwhile would raise its rate past p_i (with the preparer's fsync slowed by
     * a loaded disk, three processes adding at full speed put twice its keys into a 32 000-key
     * segment). Only the thread whose publish found the segment full waits, and each handle's
     * threads publish every few hundred keys, so the overfill stays that small. The wait is
     * bounded ({@link StepLockWait}): a stopped or hung preparer ends it with a
     * {@link StepLockHeldException} naming that process.
     */
    private void growFrom(int count) throws IOException {
        StepLockWait wait = null;
        while (!file.isPrepared(count) && state.getCountVolatile() == count) {
            long owner = prepare(count);
            if (owner != 0 && !file.isPrepared(count)) {
                wait = wait != null ? wait : new StepLockWait(file.path(), "growing it");
                wait.pause(owner); // another process writes it
            }
        }
        state.compareAndSetCount(count, count + 1);
    }

    /**
     * Writes segment {@code count} unpublished, under the lock, unless a live process holds the
     * lock or the segment is prepared already; a crashed preparer's half-written segment is
     * written again.
     *
     * @return the stamp of the live process that holds the lock, or 0 if this call took it
     */
    private long prepare(int count) throws IOException {
        if (file.tryLock() == SegmentedFile.Lock.BUSY) {
            return file.lockOwner();
        }
        try {
            if (state.getCountVolatile() == count && !file.isPrepared(count)) {
                file.appendRegion(count);
            }
        } finally {
            file.unlock();
        }
        return 0;
    }

    /**
     * How many more new keys this handle's adds are sure to take before a refused growth stops
     * them. {@link Long#MAX_VALUE} while the chain can grow: the next segment is prepared, or the
     * table, the largest segment and the max size allow it (a full disk is found only when the
     * segment is written, so its refusal cannot be foreseen). Else the keys the newest segment
     * takes until it is full, counting this handle's adds not yet published; when that is 0, adds
     * are refused from then on.
     *
     * @return the keys, or {@link Long#MAX_VALUE}
     */
    public long headroom() {
        if (refusal != null) {
            return 0;
        }
        Segment[] segments = segments();
        int count = segments.length;
        if (file.isPrepared(count) || canAppend(count)) {
            return Long.MAX_VALUE;
        }
        Segment newest = segments[count - 1];
        long room = newest.keysUntilFull();
        if (room == 0) {
            newest.publish(); // so that the growth is judged, refused, and the next add refused with it
            judgeCapacity(newest, count);
        }
        return room;
    }

    /**
     * Whether segment {@code count} fits the table, the largest segment and the max size: fixed by
     * the header for each count, and remembered, as sizing a blocked segment takes milliseconds.
     */
    private boolean canAppend(int count) {
        long judged = appendJudged;
        if (judged >> 1 == count) {
            return (judged & 1) != 0;
        }
        try {
            boolean can = file.canAppend(count);
            appendJudged = (long) count << 1 | (can ? 1 : 0);
            return can;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The number of segments published, at least 1. */
    public int segmentCount() {
        return segments().length;
    }

    /** The message of the growth this handle could not do, which refuses its adds; empty if none. */
    public Optional<String> refusal() {
        IOException refused = refusal;
        return refused == null ? Optional.empty() : Optional.of(refused.getMessage());
    }
}
