package io.bloomstore;

import io.bloomstore.internal.files.TemporaryFile;
import io.bloomstore.internal.format.CheckedFile;
import io.bloomstore.internal.format.ContainerDescriptor;
import io.bloomstore.internal.format.ContainerHeader;
import io.bloomstore.internal.format.ContainerState;
import io.bloomstore.internal.format.StepLockHeldException;
import io.bloomstore.internal.format.StepLockWait;
import io.bloomstore.internal.segment.Segment;
import io.bloomstore.internal.segment.SegmentedFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/**
 * A Bloom filter that never fills: a chain of segments in one mapped file (a scalable Bloom filter,
 * Almeida, Baquero, Preguiça &amp; Hutchison 2007). Keys go to the newest segment; when it holds
 * the keys it was sized for, a larger segment with a tighter rate is appended, so the rate of a
 * query, which probes every segment with one hash of the key, stays below P however many keys
 * arrive ({@link GrowingSpec}).
 *
 * <pre>{@code
 * try (GrowingBloomFilter seen = GrowingBloomFilter.openOrCreate(Path.of("seen.bloom"), GrowingSpec.of(1_000_000, 0.001))) {
 *     if (seen.add("order-42")) {
 *         process("order-42");          // definitely the first time
 *     }
 * }
 * }</pre>
 *
 * <p><b>Sharing.</b> As with {@link BloomFilter}, any number of threads and processes may add and
 * query at once. Each handle publishes its count of new keys into the newest segment every few
 * hundred keys (docs/FORMAT.md, "Growing"), so every process judges the capacity from the same
 * counter. One process at a time writes the next segment, under a lock word in the file, when the
 * newest is half full; the others go on adding meanwhile. When the newest is full, whichever
 * process sees it first publishes the next one (waiting for its writer if that is not done yet), and every handle maps it at its next call. A handle
 * opened before a growth sees every key added after it. That wait is bounded: a writer stopped
 * (Ctrl-Z) or hung while it holds the lock makes adds throw {@link FilterBusyException}, naming it,
 * until it is resumed or ended; its lock is never taken from it while it lives, as its writes,
 * resumed, would land on a segment already taking keys.
 *
 * <p><b>Limits.</b> When the next segment would take the file past its {@link GrowingSpec#maxBytes()},
 * or the disk cannot hold it, the growth is refused: from then on this handle's adds throw
 * {@link FilterFullException} (naming the limit, or the disk's error) before they change anything,
 * and queries go on answering everything the filter holds. A dedup index that silently kept
 * filling a full segment would turn ever more new records into false positives, each a lost
 * record; stopping with a clear error lets its operator move on to a larger file. After freeing
 * disk space, {@link #grow()} (or reopening) resumes. A file reopened with its newest segment full
 * judges the growth at once, so a file at its cap refuses the first add; {@link #headroom()} says
 * beforehand how many keys it still takes.
 *
 * <p><b>Crashes.</b> A process killed while writing a segment leaves the lock word naming a process
 * that no longer runs; the next handle opened read-write, or the next add that needs the segment,
 * takes the lock over and writes it again. An unpublished segment is never read.
 */
public final class GrowingBloomFilter extends SegmentedFilter {
    private final ContainerState state;
    /** The segment count at which this handle last tried to prepare the next segment. */
    private int preparedFor; // a hint: threads racing on it at worst both try
    /** {@link #canAppend}'s last answer: the segment count it was for, shifted left once, and 1 if it could. */
    private volatile long appendJudged = -2;
    /**
     * Why this handle refuses adds, or null: the growth it could not do. A
     * {@link StepLockHeldException} lasts only while that owner holds the lock.
     */
    private volatile IOException refusal;

    private GrowingBloomFilter(SegmentedFile file) {
        super(file);
        this.state = file.state();
    }

    /**
     * Creates a growing filter file, atomically, with its first segment, and opens it read-write.
     *
     * @param path the file to create; its directory must exist
     * @param spec the chain's shape
     * @param options {@link CreateOption#REPLACE_EXISTING}, or none; {@link CreateOption#SPARSE} is ignored (a segment is allocated whole)
     * @return the new filter, open read-write; close it when done
     * @throws FileAlreadyExistsException if the file exists and {@link CreateOption#REPLACE_EXISTING} is not given
     * @throws IllegalArgumentException if a parameter is out of range or the first segment exceeds the max size
     * @throws IOException if the disk cannot hold the first segment
     */
    public static GrowingBloomFilter create(Path path, GrowingSpec spec, CreateOption... options) throws IOException {
        SegmentedFile.create(path, newHeader(spec), 1, new long[1], 1,
                Arrays.asList(options).contains(CreateOption.REPLACE_EXISTING));
        return open(path, OpenMode.READ_WRITE);
    }

    /**
     * A new growing filter written into {@code building} and opened read-write through its
     * descriptor, as {@link #create} makes one at a path: for {@link FilterBuilder}, which fills
     * it and publishes it.
     */
    static GrowingBloomFilter createIn(TemporaryFile building, GrowingSpec spec) throws IOException {
        SegmentedFile.createIn(building, newHeader(spec), 1, new long[1], 1);
        return open(building.path(), building.reopen(), OpenMode.READ_WRITE);
    }

    /**
     * The header of a new chain of {@code spec}, created now: one segment, the first, in slot 0.
     * Refused if its table of segments could fill ({@link GrowingSpec#keysBeforeTableFull}): a
     * growing filter promises to take keys until its max size or the disk stops it.
     */
    private static ContainerHeader newHeader(GrowingSpec spec) {
        ContainerHeader header = ContainerHeader.growing(spec.layout(), spec.seed(), spec.expectedKeys(), spec.fpp(),
                spec.growthFactor(), spec.tighteningRatio(), spec.maxBytes(), System.currentTimeMillis());
        long limit = header.keysBeforeTableFull();
        if (limit != Long.MAX_VALUE) {
            throw new IllegalArgumentException("growth factor " + spec.growthFactor() + " with " + spec.expectedKeys()
                    + " keys in the first segment would fill the file's table of " + header.tableCapacity()
                    + " segments after " + limit + " keys, and adds would then fail: give a growth factor of 1.5 or"
                    + " more (2 is the default)");
        }
        return header;
    }

    /**
     * Opens a growing filter file. Read-write, it first finishes the preparation of the next
     * segment that a crashed process left half done.
     *
     * @param path the filter file
     * @param mode {@link OpenMode#READ_ONLY} to query only, {@link OpenMode#READ_WRITE} to add too;
     *     {@link OpenMode#READ_ONLY_UNMAPPED} is taken as READ_ONLY (a segmented file is always mapped)
     * @return the open filter; close it when done
     * @throws InvalidFilterFileException if the file is damaged, not a filter, or not a growing one
     */
    public static GrowingBloomFilter open(Path path, OpenMode mode) throws IOException {
        return open(path, CheckedFile.openChannel(path, mode != OpenMode.READ_WRITE), mode);
    }

    /** Opens the growing filter file already open on {@code channel}, which it takes over (closed here on failure). */
    static GrowingBloomFilter open(Path path, FileChannel channel, OpenMode mode) throws IOException {
        GrowingBloomFilter filter = new GrowingBloomFilter(
                SegmentedFile.open(path, channel, mode != OpenMode.READ_WRITE, ContainerDescriptor.KIND_GROWING));
        if (mode == OpenMode.READ_WRITE && filter.file.lockHeldByCrashedOwner()) {
            try {
                filter.prepare(filter.segments().length);
            } catch (IOException e) {
                // tried again, and reported, when the newest segment is full
            }
        }
        Segment[] segments = filter.segments();
        if (mode == OpenMode.READ_WRITE && segments[segments.length - 1].isFull()) {
            // full when it was last closed (its growth refused then): judged now, or each restart's
            // adds would go into it until their first publish
            try {
                filter.judgeCapacity(segments[segments.length - 1], segments.length);
            } catch (RuntimeException e) {
                filter.close();
                throw e;
            }
        }
        return filter;
    }

    /**
     * Opens the file read-write if it exists, else creates it: the restart case of a dedup index.
     *
     * @param path the filter file, existing or not
     * @param spec the shape to create with; an existing file keeps its own
     * @return the filter, open read-write
     * @throws InvalidFilterFileException if the existing file is damaged, not a filter, or not a growing one
     * @throws IOException if the file cannot be created or read
     */
    public static GrowingBloomFilter openOrCreate(Path path, GrowingSpec spec) throws IOException {
        if (!Files.exists(path)) {
            try {
                return create(path, spec);
            } catch (FileAlreadyExistsException e) {
                // another process created it between our check and our create: open theirs
            }
        }
        return open(path, OpenMode.READ_WRITE);
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
    Segment[] regions() {
        ensureOpen();
        return segments();
    }

    /** Every segment, the newest (largest, fullest) first, as {@link #mightContainHash} asks them. */
    @Override
    Segment[] probedRegions() {
        Segment[] segments = segments();
        Segment[] newestFirst = new Segment[segments.length];
        for (int i = 0; i < segments.length; i++) {
            newestFirst[i] = segments[segments.length - 1 - i];
        }
        return newestFirst;
    }

    @Override
    long epochOf(int index) {
        return 0;
    }

    @Override
    boolean isProbed(int index) {
        return true;
    }

    /**
     * Adds a key: if some older segment may hold it, nothing is written (a chain does not store a
     * key twice) and false is returned; else it goes to the newest segment.
     *
     * @throws FilterFullException if this handle's last growth was refused (see the class comment)
     * @throws FilterBusyException if the newest segment is full and a live process has held the
     *     lock to write the next one for too long (see the class comment)
     */
    @Override
    public boolean addHash(long hash) {
        ensureWritable();
        IOException refused = refusal;
        if (refused instanceof StepLockHeldException held) {
            resumeAfter(held);
        } else if (refused != null) {
            throw new FilterFullException(refused.getMessage(), refused);
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
            throw new FilterBusyException(held.getMessage(), held);
        }
        refusal = null;
        Segment newest = segments[count - 1];
        if (newest.isFull()) {
            judgeCapacity(newest, count);
            IOException refused = refusal;
            if (refused != null) {
                throw refused instanceof StepLockHeldException
                        ? new FilterBusyException(refused.getMessage(), refused)
                        : new FilterFullException(refused.getMessage(), refused);
            }
        }
    }

    /** Whether some segment may hold the key; the newest (largest, fullest) is asked first. */
    @Override
    public boolean mightContainHash(long hash) {
        ensureOpen();
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
    @Override
    public void grow() throws IOException {
        ensureWritable();
        int count = segments().length;
        growFrom(count);
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
     * them: for a program that must not take in what it cannot add (dedup prints a line only if
     * its key can then be marked seen). {@link Long#MAX_VALUE} while the chain can grow: the next
     * segment is prepared, or the table, the largest segment and the max size allow it (a full disk
     * is found only when the segment is written, so its refusal cannot be foreseen). Else the keys
     * the newest segment takes until it is full, counting this handle's adds not yet published;
     * when that is 0, adds are refused from then on ({@link FilterFullException}).
     *
     * @return the keys, or {@link Long#MAX_VALUE}
     */
    @Override
    public long headroom() {
        ensureWritable();
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

    /**
     * The number of segments published.
     *
     * @return the count, at least 1
     */
    public int segmentCount() {
        ensureOpen();
        return segments().length;
    }

    /**
     * The shape this filter was created with.
     *
     * @return the spec from the header
     */
    public GrowingSpec spec() {
        return new GrowingSpec(header.expectedKeys(), header.targetFpp(), header.growthFactor(),
                header.tighteningRatio(), header.maxBytes(), header.layout(), header.seed());
    }

    @Override
    public Optional<String> growthRefusal() {
        ensureOpen();
        IOException refused = refusal;
        return refused == null ? Optional.empty() : Optional.of(refused.getMessage());
    }

    @Override
    public FilterKind kind() {
        return FilterKind.GROWING;
    }

    @Override
    public FilterShape.Growing shape() {
        int segments = segmentCount();
        return new FilterShape.Growing(spec(), header.hashAlgorithm(), segments, fileBytes(),
                file.preparedLength(segments), stepLock());
    }

    /** {@inheritDoc} A growing filter holds as many keys as come, under its rate: never past capacity. */
    @Override
    public boolean isPastCapacity() {
        ensureOpen();
        return false;
    }
}
