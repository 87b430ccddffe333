package io.bloomstore;

import io.bloomstore.internal.files.TemporaryFile;
import io.bloomstore.internal.format.CheckedFile;
import io.bloomstore.internal.format.ContainerDescriptor;
import io.bloomstore.internal.format.ContainerHeader;
import io.bloomstore.internal.segment.Growth;
import io.bloomstore.internal.segment.SegmentedFile;
import java.io.IOException;
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
    /** The growth protocol, with the container code: this handle checks and delegates. */
    private final Growth growth;

    private GrowingBloomFilter(SegmentedFile file, Growth growth) {
        super(file, growth);
        this.growth = growth;
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
     * @param mode {@link OpenMode#READ_ONLY} to query only, {@link OpenMode#READ_WRITE} to add too
     * @return the open filter; close it when done
     * @throws InvalidFilterFileException if the file is damaged, not a filter, or not a growing one
     */
    public static GrowingBloomFilter open(Path path, OpenMode mode) throws IOException {
        return open(path, CheckedFile.openChannel(path, mode != OpenMode.READ_WRITE), mode);
    }

    /** Opens the growing filter file already open on {@code channel}, which it takes over (closed here on failure). */
    static GrowingBloomFilter open(Path path, FileChannel channel, OpenMode mode) throws IOException {
        SegmentedFile file = SegmentedFile.open(path, channel, mode != OpenMode.READ_WRITE, ContainerDescriptor.KIND_GROWING);
        return new GrowingBloomFilter(file, Growth.open(file, REFUSALS));
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
        return addThroughProtocol(hash);
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
        growth.grow();
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
        return growth.headroom();
    }

    /**
     * The number of segments published.
     *
     * @return the count, at least 1
     */
    public int segmentCount() {
        ensureOpen();
        return growth.segmentCount();
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
        return growth.refusal();
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
