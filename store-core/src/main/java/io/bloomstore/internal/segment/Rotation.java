package io.bloomstore.internal.segment;

import io.bloomstore.BloomSpec;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.internal.cells.CellArray;
import io.bloomstore.internal.cells.CellArrayGroup;
import io.bloomstore.internal.cells.MappingFaults;
import io.bloomstore.internal.format.ContainerDescriptor;
import io.bloomstore.internal.format.ContainerState;
import io.bloomstore.internal.format.StepLockHeldException;
import io.bloomstore.internal.format.StepLockWait;
import io.bloomstore.internal.probe.LockstepQueries;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * The rotation protocol of a ring of L + 1 slots, one per epoch (docs/FORMAT.md, "Windowed";
 * docs/RELIABILITY.md): a key goes into the current epoch's slot, a query probes the slots of the
 * L + 1 latest epochs. Whichever process first sees the file's clock pass the current epoch takes
 * the step lock, marks each slot falling out of the window {@link ContainerDescriptor#CLEARING},
 * zeroes it, gives it its new epoch, and then publishes the new current epoch. The file follows
 * one process's clock, its clock owner's; a writer whose clock disagrees with it too far is refused.
 */
public final class Rotation extends Regions {
    /** This process's stamp, as the step lock's: whether the file's clock is this process's own. */
    private static final long THIS_PROCESS = ContainerState.stampOfThisProcess();
    /** The least disagreement with the file's clock that is refused; below it, scheduling and a clock's own jitter. */
    private static final long LEAST_REFUSED_SKEW_MILLIS = 60_000;

    private final Clock clock;
    private final Segment[] slots;
    private final LockstepQueries slotQueries;
    private final int ring;
    private final int epochs;
    private final long epochMillis;
    /** The disagreement between this handle's clock and the file's that is refused: an epoch, at least a minute. */
    private final long refusedSkewMillis;

    private Rotation(SegmentedFile file, Clock clock, Refusals refusals) throws IOException {
        super(file, refusals);
        this.clock = clock;
        this.slots = file.regions(header.tableCapacity());
        this.slotQueries = slotQueries(file.path(), slots);
        this.ring = slots.length;
        this.epochs = header.epochs();
        this.epochMillis = header.epochMillis();
        this.refusedSkewMillis = Math.max(epochMillis, LEAST_REFUSED_SKEW_MILLIS);
    }

    /**
     * The ring of {@code file}, which it takes over (closed here on failure), its epochs read from
     * {@code clock}. Refused if its current-epoch word is damaged. Writable, it first makes this
     * process's clock the file's if none is, and finishes a rotation that a crashed process left
     * half done.
     *
     * @throws RuntimeException from {@link Refusals} if a live process holds the lock to rotate for too long
     * @throws InvalidFilterFileException if the slots' shapes or the current-epoch word are damaged
     */
    public static Rotation open(SegmentedFile file, Clock clock, Refusals refusals) throws IOException {
        try {
            Rotation rotation = new Rotation(file, clock, refusals);
            rotation.requireConsistentEpochWord();
            if (!file.readOnly()) {
                rotation.claimClockIfUnowned();
                if (file.lockHeldByCrashedOwner()) {
                    rotation.advanceTo(rotation.writerEpoch());
                }
            }
            return rotation;
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    /**
     * The query of the slots together, which probes all of them at slot 0's positions: refused
     * unless every slot has slot 0's shape, as every slot of an intact ring has (verify checks that
     * shape against the ring's sizing, which takes too long for every open).
     */
    private static LockstepQueries slotQueries(Path path, Segment[] slots) throws InvalidFilterFileException {
        BloomSpec shape = slots[0].spec();
        CellArray[] cells = new CellArray[slots.length];
        for (int j = 0; j < slots.length; j++) {
            BloomSpec spec = slots[j].spec();
            if (!spec.equals(shape)) {
                throw new InvalidFilterFileException(path, InvalidFilterFileException.Problem.BAD_FIELD, "slot " + j
                        + "'s header differs from slot 0's in " + shapeDifference(spec, shape) + ", and every slot"
                        + " of a ring has the same; restore the file from a pack");
            }
            cells[j] = slots[j].cells();
        }
        return new LockstepQueries(shape, new CellArrayGroup(cells));
    }

    /**
     * The first field in which a region's header differs from {@code expected}, as
     * {@code "name: region vs expected"}: its shape ({@link BloomSpec#differenceFrom}), else the n
     * or p it was sized for, which the shape's comparison leaves out. For two specs that differ.
     */
    private static String shapeDifference(BloomSpec region, BloomSpec expected) {
        return region.differenceFrom(expected).orElseGet(() -> region.expectedKeys() != expected.expectedKeys()
                ? "keys (n): " + region.expectedKeys() + " vs " + expected.expectedKeys()
                : "false-positive rate (p): " + region.targetFpp() + " vs " + expected.targetFpp());
    }

    /**
     * The epoch slot j holds when the current epoch is {@code current}: the one of
     * current - L .. current that is j modulo L + 1.
     */
    public static long epochOfSlot(int j, long current, int ring) {
        return current - Math.floorMod(current - j, ring);
    }

    /**
     * The time this handle judges epochs by, in ms: the file's clock. The file follows one
     * process's clock, its clock owner's (docs/FORMAT.md, "Windowed: time"): the owner works by its
     * own clock, and every other process by the owner's, as the system clock carries it on from the
     * owner's last reading. So every process rotates and forgets at the same moments, and a key is
     * kept a whole window whatever the skew of the clock of the process that added it, or of the
     * one that rotates, up to the skew refused ({@link #writerEpoch}).
     */
    private long fileMillis() {
        long owner = state.getClockOwnerVolatile();
        if (owner == THIS_PROCESS || owner == 0) {
            return clock.millis();
        }
        return System.currentTimeMillis() + state.getClockOffsetVolatile();
    }

    /**
     * The epoch whose window queries and load-aheads judge liveness by: the file's time's, or the
     * file's current epoch if a writer has advanced it further already.
     */
    public long liveEpoch() {
        return Math.max(Math.floorDiv(fileMillis(), epochMillis), state.getCountVolatile());
    }

    /** The epoch the file holds as current: the latest it rotated to, which lags the clock while nobody adds. */
    public long currentEpoch() {
        return state.getCountVolatile();
    }

    /**
     * The epoch a writer makes current, the file's time's ({@link #fileMillis}): refused, before it
     * changes anything, when this handle's clock disagrees with the file's by more than an epoch
     * (and a minute), or the file's current epoch is that far ahead of its time (the owner's clock
     * was set back, or a process that ignores the clock words rotated it by a clock ahead).
     *
     * @throws IllegalStateException naming the file, the skew and what to do
     */
    private long writerEpoch() {
        long own = clock.millis();
        long time = fileMillis();
        long skew = own - time;
        if (Math.abs(skew) > refusedSkewMillis) {
            throw new IllegalStateException(file.path() + ": this process's clock reads " + Instant.ofEpochMilli(own)
                    + ", " + seconds(Math.abs(skew)) + (skew > 0 ? " ahead of" : " behind") + " the clock this windowed"
                    + " file follows (its first writer's, carried on by the system clock: " + Instant.ofEpochMilli(time)
                    + "); every process sharing the file must read the same clock: fix this one");
        }
        long current = state.getCountVolatile();
        long timeEpoch = Math.floorDiv(time, epochMillis);
        // compared in epochs first: a damaged word's epoch times E may not fit a long
        if (current > timeEpoch + refusedSkewMillis / epochMillis + 1 || current * epochMillis - time > refusedSkewMillis) {
            requireConsistentEpochWordUnchecked(); // a damaged word is reported as such, not as a clock behind
            String ahead = current > Long.MAX_VALUE / epochMillis ? "never" : "only in "
                    + seconds(current * epochMillis - time);
            throw new IllegalStateException(file.path() + ": the file's current epoch is " + current + " (of "
                    + Duration.ofMillis(epochMillis) + "), which its clock (" + Instant.ofEpochMilli(time) + ") reaches "
                    + ahead + ": a clock ahead rotated it, or the clock was set back, and adds now would keep keys past"
                    + " their window; fix the clock, or if it is right, create the file again");
        }
        return timeEpoch;
    }

    /** A skew as messages give it: whole seconds (only skews of a minute or more are refused). */
    private static Duration seconds(long millis) {
        return Duration.ofSeconds(millis / 1000);
    }

    /**
     * Makes this process's clock the file's if no process's is (a new file, or one written before
     * files recorded it): the owner word first, so of two claimers only the winner writes its offset
     * (a reader in between takes offset 0, the system clock, for that moment).
     */
    private void claimClockIfUnowned() {
        if (state.getClockOwnerVolatile() == 0) {
            long offset = clock.millis() - System.currentTimeMillis();
            if (state.compareAndSetClockOwner(0, THIS_PROCESS)) {
                state.setClockOffsetVolatile(offset);
            }
        }
    }

    /**
     * Refuses a ring whose current-epoch word no slot bears out: with no rotation under way (the
     * step lock free), slot {@code current mod (L + 1)} holds the current epoch, as every rotation
     * leaves it; a word damaged ahead of the slots would make every key read absent and every add
     * wait for a slot that never comes. Judged twice, a millisecond apart, with the lock free and
     * the word unchanged throughout each look, so a rotation racing the look is never taken for damage.
     */
    private void requireConsistentEpochWord() throws InvalidFilterFileException {
        for (int look = 0; ; look++) {
            long lock = state.getLockVolatile();
            long current = state.getCountVolatile();
            int slot = Math.floorMod(current, ring);
            long held = state.getSlotEpochVolatile(slot);
            if (lock != 0 || held == current || state.getLockVolatile() != 0 || state.getCountVolatile() != current) {
                return;
            }
            if (look == 1) {
                long latest = Long.MIN_VALUE;
                for (int j = 0; j < ring; j++) {
                    latest = Math.max(latest, state.getSlotEpochVolatile(j));
                }
                throw new InvalidFilterFileException(file.path(), InvalidFilterFileException.Problem.BAD_FIELD,
                        "its current-epoch word (offset " + ContainerDescriptor.COUNT_OFFSET + ") holds epoch "
                                + current + " but slot " + slot + ", where that epoch's keys go, holds epoch " + held
                                + " (the latest slot holds " + latest + ") and no rotation is under way: the word is"
                                + " damaged; restore the file from a pack or a checkpoint copy, or create it again");
            }
            LockSupport.parkNanos(1_000_000);
        }
    }

    /**
     * Adds a key into the current epoch's slot, first advancing the epoch if the clock has passed
     * it; re-adds it into the new current slot if a rotation reused its slot meanwhile (a writer
     * asleep for a whole window).
     *
     * @return true if the key was not seen within the window (no live slot may hold it)
     * @throws RuntimeException from {@link Refusals} if the epoch must advance and a live process
     *     has held the lock to rotate it for too long (stopped or hung)
     * @throws IllegalStateException for a clock the file refuses, or a damaged current-epoch word
     */
    @Override
    public boolean add(long hash) {
        return add(hash, false);
    }

    /**
     * Whether the key was seen within the window, and if so, adds it into the current epoch's slot
     * (unless that slot has it already), so its window starts anew; a key not seen is not added.
     *
     * @return true if a live slot may hold the key (it is now in the current slot); false if none does (nothing changed)
     * @throws RuntimeException as {@link #add}
     */
    public boolean refresh(long hash) {
        return add(hash, true);
    }

    /**
     * An add into the current slot: {@link #add}'s answer, or, to {@code refresh} only, whether
     * the key was seen (and then added). Its slot's epoch is read again after the add, which a
     * rotation reusing the slot meanwhile would have changed: then it is done again.
     */
    private boolean add(long hash, boolean refresh) {
        long current = advanceTo(writerEpoch());
        for (int failures = 1; ; failures++) {
            int slot = Math.floorMod(current, ring);
            boolean inCurrent = refresh && slots[slot].mightContain(hash);
            boolean seen = inCurrent || anyLiveSlotHolds(hash, current, slot);
            if (refresh && !seen) {
                return false;
            }
            if (state.getSlotEpochVolatile(slot) == current) {
                boolean added = !inCurrent && slots[slot].add(hash);
                if (state.getSlotEpochVolatile(slot) == current) {
                    if (added) {
                        slots[slot].countNew(1, hash);
                    }
                    return refresh || added && !seen;
                }
            }
            MappingFaults.afterFailedAttempt(failures);
            requireConsistentEpochWordUnchecked();
            current = advanceTo(writerEpoch()); // the slot was being reused: add again where adds go now
        }
    }

    /** {@link #requireConsistentEpochWord}, for an add, whose signature has no checked exception. */
    private void requireConsistentEpochWordUnchecked() {
        try {
            requireConsistentEpochWord();
        } catch (InvalidFilterFileException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /**
     * Whether a slot of the live window may hold the key. The live slots are asked together, not
     * one after another, so that their cache misses overlap (docs/BENCHMARKS.md, "Windowed filters").
     */
    @Override
    public boolean mightContain(long hash) {
        return anyLiveSlotHolds(hash, liveEpoch(), -1);
    }

    /**
     * Whether a slot live at epoch {@code current}, other than slot {@code except}, may hold the
     * key: the slots asked in lockstep ({@link LockstepQueries} says why), in groups
     * of 64, the most one call asks (a ring has at most 65 slots).
     */
    private boolean anyLiveSlotHolds(long hash, long current, int except) {
        for (int first = 0; first < ring; first += Long.SIZE) {
            long live = 0;
            for (int j = first, end = Math.min(ring, first + Long.SIZE); j < end; j++) {
                live |= (isLive(j, current) && j != except ? 1L : 0L) << (j - first);
            }
            if (slotQueries.anyHolds(hash, first, live)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The lines the adds will read and write: every probe's line in the current slot, and the
     * first probe's line in each other live slot (where asking whether the key was seen stops for
     * most keys: at its first zero, half the time the first probe in a half-full slot). Loading
     * every line of every slot, as a chain does, loaded L + 1 times the lines an add writes, k per
     * slot, most of which it never reads.
     */
    @Override
    long loadForAdds(long[] hashes, int from, int to) {
        long current = liveEpoch();
        int slot = Math.floorMod(current, ring);
        long sum = slots[slot].loadLines(hashes, from, to);
        for (int j = 0; j < ring; j++) {
            if (j != slot && isLive(j, current)) {
                sum += slots[j].loadFirstLines(hashes, from, to);
            }
        }
        return sum;
    }

    /**
     * Whether slot j holds one of the epochs current - L .. current. A slot being cleared holds
     * {@link ContainerDescriptor#CLEARING}, below every epoch, and so is never probed; by the
     * clock, a slot the file has not rotated out yet is not probed once its epoch has ended the window.
     */
    private boolean isLive(int j, long current) {
        long epoch = state.getSlotEpochVolatile(j);
        return epoch >= current - epochs && epoch <= current;
    }

    /**
     * Makes {@code target} (or a later epoch) current and returns the current epoch: at once if it
     * is, else by rotating under the lock, or by waiting for the live process rotating already.
     *
     * @throws RuntimeException from {@link Refusals} if that process holds the lock too long ({@link StepLockWait}):
     *     stopped or hung, it is never taken over, as its zeroing, resumed, would clear a reused slot
     */
    private long advanceTo(long target) {
        StepLockWait wait = null;
        while (true) {
            long current = state.getCountVolatile();
            if (current >= target && (state.getLockVolatile() == 0 || !file.lockHeldByCrashedOwner())) {
                return current;
            }
            SegmentedFile.Lock lock = file.tryLock();
            if (lock == SegmentedFile.Lock.BUSY) {
                // a rotation clears at most a window's slots: it ends soon, unless its process is stopped or hung
                wait = wait != null ? wait : new StepLockWait(file.path(), "rotating its window");
                try {
                    wait.pause(file.lockOwner());
                } catch (StepLockHeldException e) {
                    throw refusals.busy(e);
                }
                continue;
            }
            try {
                rotate(Math.max(target, state.getCountVolatile()));
            } finally {
                file.unlock();
            }
        }
    }

    /**
     * Under the lock: gives every slot the epoch it must hold when {@code target} is current,
     * clearing those that held another (expired, or half cleared by a crashed rotation), then
     * publishes {@code target}. Each slot is marked {@link ContainerDescriptor#CLEARING} before
     * its cells are zeroed, so no query probes it and no writer adds to it meanwhile, and gets its
     * new epoch only once empty. Idempotent: redone from any point, it ends in the same state.
     */
    private void rotate(long target) {
        if (state.getClockOwnerVolatile() == THIS_PROCESS) {
            state.setClockOffsetVolatile(clock.millis() - System.currentTimeMillis()); // this clock's jumps are time passing
        }
        for (int j = 0; j < ring; j++) {
            long epoch = epochOfSlot(j, target, ring);
            if (state.getSlotEpochVolatile(j) != epoch) {
                state.setSlotEpochVolatile(j, ContainerDescriptor.CLEARING);
                slots[j].clear();
                state.setSlotEpochVolatile(j, epoch);
            }
        }
        state.setCountVolatile(target);
    }

    @Override
    public Segment[] regions() {
        return slots;
    }

    /** The live slots, read once, as {@link #mightContain} judges them for one key. */
    @Override
    public Segment[] probedRegions() {
        long current = liveEpoch();
        Segment[] live = new Segment[ring];
        int count = 0;
        for (int j = 0; j < ring; j++) {
            if (isLive(j, current)) {
                live[count++] = slots[j];
            }
        }
        return Arrays.copyOf(live, count);
    }

    @Override
    public long epochOf(int index) {
        return state.getSlotEpochVolatile(index);
    }

    @Override
    public boolean isProbed(int index) {
        return isLive(index, liveEpoch());
    }

    /**
     * Whether a slot of the live window holds more keys than it was sized for, n / L, counted as
     * {@link Segment#approximateKeys} counts. Reads a counter per slot.
     */
    public boolean isPastCapacity() {
        long current = liveEpoch();
        for (int j = 0; j < ring; j++) {
            if (isLive(j, current) && slots[j].approximateKeys() > slots[j].capacity()) {
                return true;
            }
        }
        return false;
    }
}
