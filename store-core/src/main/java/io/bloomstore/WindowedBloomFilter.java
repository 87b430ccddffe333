package io.bloomstore;

import io.bloomstore.internal.format.CheckedFile;
import io.bloomstore.internal.format.ContainerDescriptor;
import io.bloomstore.internal.format.ContainerHeader;
import io.bloomstore.internal.segment.Rotation;
import io.bloomstore.internal.segment.SegmentedFile;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
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
    /** The rotation protocol, with the container code: this handle checks and delegates. */
    private final Rotation rotation;

    private WindowedBloomFilter(SegmentedFile file, Rotation rotation) {
        super(file, rotation);
        this.rotation = rotation;
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
            slotEpochs[j] = Rotation.epochOfSlot(j, now, ring);
        }
        SegmentedFile.create(path, header, ring, slotEpochs, now, Arrays.asList(options).contains(CreateOption.REPLACE_EXISTING));
        return open(path, OpenMode.READ_WRITE, clock);
    }

    /**
     * Opens a windowed filter file. Read-write, it first finishes a rotation that a crashed
     * process left half done.
     *
     * @param path the filter file
     * @param mode {@link OpenMode#READ_ONLY} to query only, {@link OpenMode#READ_WRITE} to add too
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
        return new WindowedBloomFilter(file, Rotation.open(file, clock, REFUSALS));
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
        return addThroughProtocol(hash);
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
        return rotation.refresh(hash);
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
        return rotation.isPastCapacity();
    }

    /**
     * The epoch the file holds as current: the latest it rotated to, which lags the clock while
     * nobody adds ({@link FilterShape.Windowed#queryEpoch()} is the one a query judges by).
     *
     * @return the epoch number: epoch millis / E, rounded down
     */
    public long currentEpoch() {
        ensureOpen();
        return rotation.currentEpoch();
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
        return rotation.liveEpoch();
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
        return new WindowSpec(header.expectedKeys(), header.targetFpp(), Duration.ofMillis(header.windowMillis()),
                header.epochs(), header.layout(), header.seed());
    }
}
