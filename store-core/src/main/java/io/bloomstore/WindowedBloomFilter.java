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
import java.util.Arrays;

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
 * current epoch is a word in the file; whichever process first sees the clock pass it clears the
 * slots that fall out of the window, then publishes the new epoch (docs/FORMAT.md, "Windowed").
 * Processes sharing a file must share a clock (one machine); a clock that jumps forward days
 * clears every expired slot, one that goes back is ignored until it catches up.
 *
 * <p><b>Sharing and crashes</b> are as for {@link GrowingBloomFilter}: lock-free adds and queries,
 * a lock word for the rare rotation, taken over and the rotation redone when its holder died.
 *
 * <p><b>Cost.</b> A query, and an add's "seen within the window", asks the live slots in lockstep:
 * the first probe's line of every slot is read at once, so an absent key waits about as long as
 * one read of the slots' lines together, not a miss per slot in turn (in the blocked layout at 64 M
 * keys a window, 2.7 misses' time against 5.2 before; docs/BENCHMARKS.md, LOCKSTEP). Rings that
 * outgrow the caches are best made with {@link Layout#BLOCKED}, whose k cells per slot share that
 * one line.
 */
public final class WindowedBloomFilter extends SegmentedFilter {
    private final ContainerState state;
    private final Clock clock;
    private final Segment[] slots;
    private final LockstepQueries slotQueries;
    private final int ring;
    private final int epochs;
    private final long epochMillis;

    private WindowedBloomFilter(SegmentedFile file, Clock clock) throws IOException {
        super(file);
        this.state = file.state();
        this.clock = clock;
        this.slots = file.regions(header.tableCapacity());
        this.slotQueries = slotQueries(file.path(), slots);
        this.ring = slots.length;
        this.epochs = header.epochs();
        this.epochMillis = header.epochMillis();
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
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
        if (mode == OpenMode.READ_WRITE && filter.file.lockHeldByCrashedOwner()) {
            filter.advanceTo(filter.clockEpoch());
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
                        + " has " + spec.cells() + " cells and " + spec.hashes() + " hashes where slot 0 has "
                        + shape.cells() + " and " + shape.hashes() + ", and every slot of a ring has the same;"
                        + " restore the file from a pack");
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

    private long clockEpoch() {
        return Math.floorDiv(clock.millis(), epochMillis);
    }

    /**
     * The epoch whose window queries and load-aheads judge liveness by: the clock's, or the file's
     * current epoch if a process with a clock ahead of ours has advanced it already.
     */
    private long liveEpoch() {
        return Math.max(clockEpoch(), state.getCountVolatile());
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
        long current = advanceTo(clockEpoch());
        for (int failures = 1; ; failures++) {
            int slot = Math.floorMod(current, ring);
            boolean seen = anyLiveSlotHolds(hash, current, slot);
            boolean added = false;
            if (state.getSlotEpochVolatile(slot) == current) {
                added = slots[slot].add(hash);
                if (state.getSlotEpochVolatile(slot) == current) {
                    if (added) {
                        slots[slot].countNew(1, hash);
                    }
                    return added && !seen;
                }
            }
            current = advanceTo(clockEpoch()); // the slot was being reused: add again where adds go now
            MappingFaults.afterFailedAttempt(failures);
        }
    }

    /**
     * Whether a slot of the live window may hold the key. The live slots are asked together, not
     * one after another, so that their cache misses overlap (docs/BENCHMARKS.md, LOCKSTEP).
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
     * The epoch the file holds as current (it may lag the clock until the next add).
     *
     * @return the epoch number: epoch millis / E, rounded down
     */
    public long currentEpoch() {
        ensureOpen();
        return state.getCountVolatile();
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
