package io.bloomstore;

import io.bloomstore.internal.cells.CellArray;
import io.bloomstore.internal.cells.CellArrayGroup;
import io.bloomstore.internal.cells.MappingFaults;
import io.bloomstore.internal.format.CheckedFile;
import io.bloomstore.internal.format.ContainerDescriptor;
import io.bloomstore.internal.format.ContainerHeader;
import io.bloomstore.internal.format.ContainerState;
import io.bloomstore.internal.format.StepLockHeldException;
import io.bloomstore.internal.format.StepLockWait;
import io.bloomstore.internal.probe.LockstepQueries;
import io.bloomstore.internal.segment.Segment;
import io.bloomstore.internal.segment.SegmentedFile;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * A Bloom filter over a sliding time window: "have I seen this key in the last 24 hours?". One
 * mapped file holds a ring of L + 1 slots, one per epoch of E = window / L; a key goes into the
 * slot of the current epoch, and a query probes the slots of the L + 1 latest epochs.
 *
 * <p><b>What is promised.</b> A key added at time t (the clock's reading when the add starts) is
 * found at every time up to t + window: it is in the slot of epoch e = floor(t / E), which stays
 * live until epoch e + L ends, at (e + L + 1) E &gt; t + L E. It is forgotten after at most
 * window + E: from epoch e + L + 1 on no query probes that slot, and the slot is cleared before it
 * is reused. In between, for up to one epoch, it may still be found.
 *
 * <p><b>Time.</b> Epochs are numbered from wall-clock time, floor(epoch millis / E), read from the
 * {@link Clock} given to {@link #open}: filters with the same window, epochs and seed made on
 * different machines use the same slot for the same epoch and can be merged slot by slot. The
 * current epoch is a word in the file; whichever process first sees the time pass it clears the
 * slots that fall out of the window, then publishes the new epoch (docs/FORMAT.md, "Windowed").
 *
 * <p><b>One clock.</b> The file follows the clock of its first writer (its clock owner), recorded
 * as that clock's offset from the system clock, so every process on the machine reads it, however
 * long the file lay idle: a file unused for days rotates forward at its next add. Every other
 * process rotates and forgets by that clock, not its own, so a clock a little off cuts no key's
 * window short; a writer whose clock disagrees with it by more than an epoch, and a minute, is
 * refused with an {@link IllegalStateException} naming the skew (one far ahead would clear keys
 * still inside their window; one far behind would keep keys past theirs), as is a writer of a file
 * whose current epoch is that far ahead of its clock. The owner's own clock may jump (a
 * simulation; the system clock set): a jump forward days clears every expired slot, one back is
 * refused for adds until it catches up. A current-epoch word that no slot bears out (damage: no
 * checksum covers it) is refused when the file is opened, and by an add, rather than waited on.
 *
 * <p><b>Sharing and crashes</b> are as for {@link GrowingBloomFilter}: lock-free adds and queries,
 * a lock word for the rare rotation, taken over and the rotation redone when its holder died.
 *
 * <p><b>Cost.</b> A query, and an add's "seen within the window", asks the live slots in lockstep:
 * the first probe's line of every slot is read at once, so an absent key waits about as long as
 * one read of the slots' lines together, not a miss per slot in turn (in the blocked layout, beyond
 * the caches, about half the time of asking the slots in turn; docs/BENCHMARKS.md, "Windowed
 * filters"). Rings that outgrow the caches are best made with {@link Layout#BLOCKED}, whose k
 * cells per slot share that one line.
 */
public final class WindowedBloomFilter extends SegmentedFilter {
    /** This process's stamp, as the step lock's: whether the file's clock is this process's own. */
    private static final long THIS_PROCESS = ContainerState.stampOfThisProcess();
    /** The least disagreement with the file's clock that is refused; below it, scheduling and a clock's own jitter. */
    private static final long LEAST_REFUSED_SKEW_MILLIS = 60_000;

    private final ContainerState state;
    private final Clock clock;
    private final Segment[] slots;
    private final LockstepQueries slotQueries;
    private final int ring;
    private final int epochs;
    private final long epochMillis;
    /** The disagreement between this handle's clock and the file's that is refused: an epoch, at least a minute. */
    private final long refusedSkewMillis;

    private WindowedBloomFilter(SegmentedFile file, Clock clock) throws IOException {
        super(file);
        this.state = file.state();
        this.clock = clock;
        this.slots = file.regions(header.tableCapacity());
        this.slotQueries = slotQueries(file.path(), slots);
        this.ring = slots.length;
        this.epochs = header.epochs();
        this.epochMillis = header.epochMillis();
        this.refusedSkewMillis = Math.max(epochMillis, LEAST_REFUSED_SKEW_MILLIS);
    }

    /**
     * Creates a windowed filter file, atomically, with every slot, and opens it read-write.
     *
     * @param path the file to create; its directory must exist
     * @param spec the window's shape
     * @param clock the clock the epochs are read from; the system clock, normally
     * @param options {@link CreateOption#REPLACE_EXISTING}, or none; {@link CreateOption#SPARSE} is ignored (every slot is allocated)
     * @return the new filter, open read-write; close it when done
     * @throws FileAlreadyExistsException if the file exists and {@link CreateOption#REPLACE_EXISTING} is not given
     * @throws IllegalArgumentException if a parameter is out of range
     */
    public static WindowedBloomFilter create(Path path, WindowSpec spec, Clock clock, CreateOption... options)
            throws IOException {
        ContainerHeader header = ContainerHeader.windowed(spec.layout(), spec.seed(), spec.expectedKeys(), spec.fpp(),
                spec.window().toMillis(), spec.epochs(), clock.millis());
        int ring = header.tableCapacity();
        long now = Math.floorDiv(clock.millis(), header.epochMillis());
        long[] slotEpochs = new long[ring];
        for (int j = 0; j < ring; j++) {
            slotEpochs[j] = epochOfSlot(j, now, ring);
        }
        SegmentedFile.create(path, header, ring, slotEpochs, now, Arrays.asList(options).contains(CreateOption.REPLACE_EXISTING));
        return open(path, OpenMode.READ_WRITE, clock);
    }

    /**
     * Opens a windowed filter file. Read-write, it first finishes a rotation that a crashed
     * process left half done.
     *
     * @param path the filter file
     * @param mode {@link OpenMode#READ_ONLY} to query only, {@link OpenMode#READ_WRITE} to add too;
     *     {@link OpenMode#READ_ONLY_UNMAPPED} is taken as READ_ONLY (a segmented file is always mapped)
     * @param clock the clock the epochs are read from; every process sharing the file must read the same time
     * @return the open filter; close it when done
     * @throws InvalidFilterFileException if the file is damaged, not a filter, or not a windowed one
     */
    public static WindowedBloomFilter open(Path path, OpenMode mode, Clock clock) throws IOException {
        return open(path, CheckedFile.openChannel(path, mode != OpenMode.READ_WRITE), mode, clock);
    }

    /** Opens the windowed filter file already open on {@code channel}, which it takes over (closed here on failure). */
    static WindowedBloomFilter open(Path path, FileChannel channel, OpenMode mode, Clock clock) throws IOException {
        SegmentedFile file = SegmentedFile.open(path, channel, mode != OpenMode.READ_WRITE, ContainerDescriptor.KIND_WINDOWED);
        WindowedBloomFilter filter;
        try {
            filter = new WindowedBloomFilter(file, clock);
            filter.requireConsistentEpochWord();
            if (mode == OpenMode.READ_WRITE) {
                filter.claimClockIfUnowned();
                if (filter.file.lockHeldByCrashedOwner()) {
                    filter.advanceTo(filter.writerEpoch());
                }
            }
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
        return filter;
    }

    /**
     * Opens the file read-write if it exists, else creates it.
     *
     * @param path the filter file, existing or not
     * @param spec the shape to create with; an existing file keeps its own
     * @param clock as {@link #open}
     * @return the filter, open read-write
     * @throws InvalidFilterFileException if the existing file is damaged, not a filter, or not a windowed one
     * @throws IOException if the file cannot be created or read
     */
    public static WindowedBloomFilter openOrCreate(Path path, WindowSpec spec, Clock clock) throws IOException {
        if (!Files.exists(path)) {
            try {
                return create(path, spec, clock);
            } catch (FileAlreadyExistsException e) {
                // another process created it between our check and our create: open theirs
            }
        }
        return open(path, OpenMode.READ_WRITE, clock);
    }

    /**
     * The query of the slots together, which probes all of them at slot 0's positions: refused
     * unless every slot has slot 0's shape, as every slot of an intact ring has ({@link #verify}
     * checks that shape against the ring's sizing, which takes too long for every open).
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
     * The epoch slot j holds when the current epoch is {@code current}: the one of
     * current - L .. current that is j modulo L + 1.
     */
    static long epochOfSlot(int j, long current, int ring) {
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
    private long liveEpoch() {
        return Math.max(Math.floorDiv(fileMillis(), epochMillis), state.getCountVolatile());
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
     * @throws FilterBusyException if the epoch must advance and a live process has held the lock
     *     to rotate it for too long (stopped or hung)
     */
    @Override
    public boolean addHash(long hash) {
        ensureWritable();
        return add(hash, false);
    }

    /**
     * Whether the key was seen within the window, and if so, adds it into the current epoch's slot
     * (unless that slot has it already), so its window starts anew; a key not seen is not added.
     * What a stream that must not pass a repeat, but marks a new key only later (when its line is
     * delivered), asks of each key: a key that keeps coming is then never forgotten. As cheap as
     * {@link #mightContainHash} for a new key, and cheaper for a repeat already in the current slot.
     *
     * @param hash the key's hash, from {@link #hasher()}
     * @return true if a live slot may hold the key (it is now in the current slot); false if none does (nothing changed)
     * @throws IllegalStateException if the filter is read-only or closed, or as {@link #addHash} for a clock the file refuses
     */
    @Override
    public boolean refreshHash(long hash) {
        ensureWritable();
        return add(hash, true);
    }

    /**
     * An add into the current slot: {@link #addHash}'s answer, or, to {@code refresh} only, whether
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
    public boolean mightContainHash(long hash) {
        ensureOpen();
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
     * @throws FilterBusyException if that process holds the lock too long ({@link StepLockWait}):
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
                    throw new FilterBusyException(e.getMessage(), e);
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
    Segment[] regions() {
        ensureOpen();
        return slots;
    }

    /** The live slots, read once, as {@link #mightContainHash} judges them for one key. */
    @Override
    Segment[] probedRegions() {
        ensureOpen();
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
    long epochOf(int index) {
        return state.getSlotEpochVolatile(index);
    }

    @Override
    boolean isProbed(int index) {
        return isLive(index, liveEpoch());
    }

    /**
     * Whether a slot of the live window holds more keys than an epoch's share of the window, n / L,
     * the most each slot was sized for, counted as {@link BloomFilter#approximateKeys()} counts
     * (every handle's published count plus this handle's own). A ring keeps a query's rate under P
     * for up to n keys per window arriving evenly; an epoch that takes more (a burst, or traffic
     * grown past n) raises the rate of every query until its slot leaves the window, and for a
     * dedup index each false positive is a new key taken for a repeat. {@link #stats()} then says
     * how far, from a scan of the cells. Reads a counter per slot: cheap enough after every batch.
     *
     * @return true if a live slot is past n / L keys
     */
    @Override
    public boolean isPastCapacity() {
        ensureOpen();
        long current = liveEpoch();
        for (int j = 0; j < ring; j++) {
            if (isLive(j, current) && slots[j].approximateKeys() > slots[j].capacity()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The epoch the file holds as current: the latest it rotated to, which lags the clock while
     * nobody adds ({@link FilterShape.Windowed#queryEpoch()} is the one a query judges by).
     *
     * @return the epoch number: epoch millis / E, rounded down
     */
    public long currentEpoch() {
        ensureOpen();
        return state.getCountVolatile();
    }

    /**
     * The epoch a query judges the window by now: the file's clock's (the one its epochs follow:
     * this handle's clock if this process owns the file's clock, else the owner's), or the file's
     * current epoch if that is later. A query probes the slots holding this epoch and the L before
     * it; the next add rotates the file to it.
     *
     * @return the epoch number: epoch millis / E, rounded down
     */
    long queryEpoch() {
        ensureOpen();
        return liveEpoch();
    }

    @Override
    public FilterKind kind() {
        return FilterKind.WINDOWED;
    }

    @Override
    public FilterShape.Windowed shape() {
        return new FilterShape.Windowed(spec(), header.hashAlgorithm(), queryEpoch(), currentEpoch(), fileBytes(),
                stepLock());
    }

    /**
     * The shape this filter was created with.
     *
     * @return the spec from the header
     */
    public WindowSpec spec() {
        return new WindowSpec(header.expectedKeys(), header.targetFpp(), java.time.Duration.ofMillis(header.windowMillis()),
                epochs, header.layout(), header.seed());
    }
}
