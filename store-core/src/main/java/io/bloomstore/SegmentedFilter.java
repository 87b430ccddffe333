package io.bloomstore;

import io.bloomstore.internal.format.ContainerDescriptor;
import io.bloomstore.internal.format.ContainerHeader;
import io.bloomstore.internal.format.StepLockHeldException;
import io.bloomstore.internal.segment.Refusals;
import io.bloomstore.internal.segment.Regions;
import io.bloomstore.internal.segment.Segment;
import io.bloomstore.internal.segment.SegmentedFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongConsumer;

/**
 * What a growing chain and a windowed ring share: a {@link SegmentedFile} of regions, one hash per
 * key for all of them, statistics, verify, sync and close. Which regions a query probes, where an
 * add goes and the batch calls are the kind's protocol ({@link Regions}: a growth or a rotation,
 * with the container code in {@code internal.segment}); a handle checks that it is open (and
 * writable) and delegates to it.
 */
abstract sealed class SegmentedFilter implements MembershipFilter permits GrowingBloomFilter, WindowedBloomFilter {
    final SegmentedFile file;
    final ContainerHeader header;
    private final Regions protocol;
    private final KeyHasher hasher;
    private final boolean writable;

    SegmentedFilter(SegmentedFile file, Regions protocol) {
        this.file = file;
        this.header = file.header();
        this.protocol = protocol;
        this.hasher = new KeyHasher(header.hashAlgorithm(), header.seed());
        this.writable = !file.readOnly();
    }

    /** Every region of the file, mapped: the published segments of a chain, all slots of a ring. */
    Segment[] regions() {
        ensureOpen();
        return protocol.regions();
    }

    /** The epoch region {@code index} holds; 0 for a segment. */
    long epochOf(int index) {
        return protocol.epochOf(index);
    }

    @Override
    public Path path() {
        return file.path();
    }

    @Override
    public KeyHasher hasher() {
        return hasher;
    }

    @Override
    public boolean isReadOnly() {
        return !writable;
    }

    /**
     * The exceptions the protocols refuse an add with: {@link FilterBusyException} while a live
     * process holds the step lock, {@link FilterFullException} when the chain cannot grow; each
     * with the refusal's message, and the refusal as its cause.
     */
    static final Refusals REFUSALS = new Refusals() {
        @Override
        public RuntimeException busy(StepLockHeldException held) {
            return new FilterBusyException(held.getMessage(), held);
        }

        @Override
        public RuntimeException full(IOException refusal) {
            return new FilterFullException(refusal.getMessage(), refusal);
        }
    };

    /** The handle's {@code addHash}: the protocol's add. */
    final boolean addThroughProtocol(long hash) {
        ensureWritable();
        return protocol.add(hash);
    }

    /**
     * Adds keys in groups of 16 ({@code internal.segment.Regions}): first the lines the
     * group's adds will probe are loaded, all at once (so a key's misses in all regions overlap, as
     * do different keys'), then each key is added as by {@link #addHash}.
     */
    @Override
    public int addHashes(long[] hashes, int count) {
        ensureWritable();
        return protocol.addHashes(hashes, count);
    }

    @Override
    public boolean mightContainHash(long hash) {
        ensureOpen();
        return protocol.mightContain(hash);
    }

    /**
     * Queries keys in groups of 16 against the regions probed at the start of the call: first the
     * line of each key's first probe in every probed region is loaded, all at once, then each key is
     * asked of the regions in turn.
     */
    @Override
    public int mightContainHashes(long[] hashes, int count, boolean[] results) {
        ensureOpen();
        HashChunks.requireRoom(count, results);
        return protocol.mightContainHashes(hashes, count, results);
    }

    /**
     * Who holds the file's step lock, taken for the few moments of a growth or a rotation: for
     * {@code verify} and {@code inspect} to tell why adds wait or are refused
     * ({@link FilterBusyException}).
     *
     * @return "free", or which process holds it and whether it runs, is stopped (and how to
     *     resume it) or has ended (its step is finished by the next writer)
     */
    String stepLock() {
        ensureOpen();
        return protocol.stepLock();
    }

    /**
     * Scans every mapped region (one pass over the file) and reports each one's fill and rates,
     * and the compound rate of a query now.
     *
     * @return each region's fill and rates, and the compound false-positive rate
     */
    public SegmentedStats stats() {
        return stats(null);
    }

    /**
     * {@link #stats()}, telling {@code bytesScanned} how many bytes of cells were scanned so far,
     * over all regions in order (every few MiB, and at the end of each region), for a progress
     * display over a large file; the last call reports the file's size, the total to show.
     *
     * @param bytesScanned told the bytes scanned so far, on the calling thread; or null
     * @return as {@link #stats()}
     */
    public SegmentedStats stats(LongConsumer bytesScanned) {
        ensureOpen();
        publishCounts();
        Segment[] regions = regions();
        List<RegionStats> parts = new ArrayList<>();
        double allClear = 1;
        long done = 0;
        for (int i = 0; i < regions.length; i++) {
            Segment region = regions[i];
            long before = done;
            Segment.RegionScan scan = region.scan(bytesScanned == null ? null : bytes -> bytesScanned.accept(before + bytes));
            BloomSpec spec = region.spec();
            done += spec.cellBytes();
            boolean probed = protocol.isProbed(i);
            parts.add(new RegionStats(i, epochOf(i), probed, spec.cells(), spec.hashes(), region.capacity(),
                    scan.publishedKeys(), scan.setCells(), (double) scan.setCells() / spec.cells(),
                    scan.estimatedKeys(), spec.targetFpp(), scan.currentFpp(), region.header().fileLength()));
            if (probed) {
                allClear *= 1 - scan.currentFpp();
            }
        }
        long bytes = fileBytes();
        if (bytesScanned != null) {
            bytesScanned.accept(bytes); // done: the headers between the regions count too
        }
        return new SegmentedStats(parts, 1 - allClear, header.targetFpp(), bytes, ContainerDescriptor.FIRST_REGION,
                file.preparedLength(regions.length));
    }

    /**
     * The length of the file this handle maps, read through its descriptor: not whatever file the
     * path names by now.
     *
     * @return the length in bytes
     */
    public long fileBytes() {
        ensureOpen();
        try {
            return file.length();
        } catch (IOException e) {
            throw new UncheckedIOException(file.path() + ": cannot read its length", e);
        }
    }

    /**
     * Checks the file beyond what opening it checked (docs/FORMAT.md, "What verify detects"):
     * that every region has exactly the shape the container's sizing gives its place (as opening
     * checks the regions it maps), that no region has a
     * padding bit set, and the region table: a chain's prepared but unpublished segment is empty, a
     * ring's slots hold the epochs the current epoch gives them. Regions are written live, never
     * sealed, so there is no checksum of their cells to check.
     *
     * @throws InvalidFilterFileException naming the first region whose shape or table entry is
     *     wrong ({@code BAD_FIELD}) or whose padding is set ({@code CELLS_PADDING})
     * @throws IOException if the file cannot be read
     */
    @Override
    public CellsCheck verify() throws IOException {
        ensureOpen();
        protocol.verify();
        return CellsCheck.LIVE;
    }

    /** {@inheritDoc} Here: {@link #verify()}; regions are written live, never sealed, so no cells are read. */
    @Override
    public CellsCheck verify(LongConsumer bytesRead) throws IOException {
        Objects.requireNonNull(bytesRead, "bytesRead");
        return verify();
    }

    @Override
    public Optional<BloomFilter> asFixed() {
        return Optional.empty();
    }

    @Override
    public long approximateKeys() {
        ensureOpen();
        return protocol.approximateKeys();
    }

    /** Publishes this handle's counts, then forces the file to the device. */
    @Override
    public void sync() throws IOException {
        ensureOpen();
        if (writable) {
            publishCounts();
            file.sync();
        }
    }

    /** Publishes this handle's counts and unmaps the file. Idempotent. */
    @Override
    public void close() {
        if (file.isClosed()) {
            return;
        }
        if (writable) {
            publishCounts();
        }
        file.close();
    }

    private void publishCounts() {
        if (writable) {
            for (Segment region : file.mappedRegions()) {
                region.publish();
            }
        }
    }

    void ensureOpen() {
        if (file.isClosed()) {
            throw new IllegalStateException(file.path() + " is closed");
        }
    }

    void ensureWritable() {
        ensureOpen();
        if (!writable) {
            throw new IllegalStateException(file.path() + " is open read-only; open it READ_WRITE to change it");
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + file.path() + (writable ? ", read-write" : ", read-only") + "]";
    }
}
