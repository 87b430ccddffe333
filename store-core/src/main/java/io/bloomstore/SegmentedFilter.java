package io.bloomstore;

import io.bloomstore.internal.format.ContainerDescriptor;
import io.bloomstore.internal.format.ContainerHeader;
import io.bloomstore.internal.format.ContainerState;
import io.bloomstore.internal.segment.Segment;
import io.bloomstore.internal.segment.SegmentedFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongConsumer;

/**
 * What a growing chain and a windowed ring share: a {@link SegmentedFile} of regions, one hash per
 * key for all of them, the batch calls, statistics, sync and close. A subclass says which regions
 * a query probes and where an add goes.
 */
abstract sealed class SegmentedFilter implements MembershipFilter permits GrowingBloomFilter, WindowedBloomFilter {
    /** Keys per batch step, as in {@code internal.probe.BatchProber}: enough independent misses to fill the miss buffers. */
    private static final int BATCH = 16;
    /** Any value: {@link #keep} compares a load-ahead's sum with it. */
    private static final long KEEP_SENTINEL = 0x626C_6F6F_6D73_7472L;

    final SegmentedFile file;
    final ContainerHeader header;
    private final KeyHasher hasher;
    private final boolean writable;
    /** Sink of the load-ahead passes' loads; its value means nothing. */
    @SuppressWarnings("unused")
    private long kept;

    SegmentedFilter(SegmentedFile file) {
        this.file = file;
        this.header = file.header();
        this.hasher = new KeyHasher(header.hashAlgorithm(), header.seed());
        this.writable = !file.readOnly();
    }

    /** Every region of the file, mapped: the published segments of a chain, all slots of a ring. */
    abstract Segment[] regions();

    /** The epoch region {@code index} holds; 0 for a segment. */
    abstract long epochOf(int index);

    /** Whether a query now probes region {@code index}. */
    abstract boolean isProbed(int index);

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
     * Adds keys in groups of 16: first the lines the group's adds will probe are loaded, all at once
     * ({@code loadForAdds}: so a key's misses in all regions overlap, as do different keys'), then
     * each key is added as by {@link #addHash}.
     */
    @Override
    public int addHashes(long[] hashes, int count) {
        ensureWritable();
        int added = 0;
        for (int from = 0; from < count; from += BATCH) {
            int to = Math.min(count, from + BATCH);
            keep(loadForAdds(hashes, from, to));
            for (int i = from; i < to; i++) {
                added += addHash(hashes[i]) ? 1 : 0;
            }
        }
        return added;
    }

    /**
     * The regions a query probes now, in the order it asks them. A batch query reads this once per
     * call, not once per key: a slot rotated out during the call holds only expired keys (probing it
     * can only add a false positive), and a region published during the call holds only keys added
     * while the query ran.
     */
    abstract Segment[] probedRegions();

    /**
     * Queries keys in groups of 16 against the regions probed at the start of the call: first the
     * line of each key's first probe in every probed region is loaded, all at once, then each key is
     * asked of the regions in turn. An absent key's probing stops in a region at its first zero cell,
     * its first probe half the time in a half-full region, so the pass loads one line a key and
     * region (all k of them, in the standard layout, cost 2 to 3 times the CPU a key at 10 M:
     * docs/BENCHMARKS-HISTORY.md, "Growing and windowed filters").
     */
    @Override
    public int mightContainHashes(long[] hashes, int count, boolean[] results) {
        ensureOpen();
        HashChunks.requireRoom(count, results);
        Segment[] probed = probedRegions();
        int present = 0;
        for (int from = 0; from < count; from += BATCH) {
            int to = Math.min(count, from + BATCH);
            long sum = 0;
            for (Segment region : probed) {
                sum += region.loadFirstLines(hashes, from, to);
            }
            keep(sum);
            for (int i = from; i < to; i++) {
                results[i] = anyMightContain(probed, hashes[i]);
                present += results[i] ? 1 : 0;
            }
        }
        return present;
    }

    private static boolean anyMightContain(Segment[] probed, long hash) {
        for (Segment region : probed) {
            if (region.mightContain(hash)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Loads the lines that adding the keys of {@code hashes[from .. to)} will probe, and returns the
     * sum of the words, which the caller keeps: here every line of every region (a chain's add asks
     * every segment before it adds to the newest).
     */
    long loadForAdds(long[] hashes, int from, int to) {
        long sum = 0;
        for (Segment region : regions()) {
            sum += region.loadLines(hashes, from, to);
        }
        return sum;
    }

    /** Keeps the loads of a load-ahead pass from being dropped by the JIT, without writing on every batch. */
    private void keep(long sum) {
        if (sum == KEEP_SENTINEL) {
            kept = sum;
        }
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
        long owner = file.lockOwner();
        long pid = ContainerState.pidOf(owner);
        return switch (ContainerState.ownerState(owner)) {
            case NONE -> "free";
            case RUNNING -> "held by process " + pid + ", running (a growth or rotation under way)";
            case STOPPED -> "held by process " + pid + ", stopped: adds that need a growth or rotation are refused until"
                    + " it is resumed (kill -CONT " + pid + ") or ended";
            case GONE -> "held by process " + pid + ", which no longer runs: the next writer finishes its step";
        };
    }

    /**
     * Scans every mapped region (one pass over the file) and reports each one's fill and rates,
     * and the compound rate of a query now.
     *
     * @return each region's fill and rates, and the compound false-positive rate
     */
    public CompositeStats stats() {
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
    public CompositeStats stats(LongConsumer bytesScanned) {
        ensureOpen();
        publishCounts();
        Segment[] regions = regions();
        List<SegmentStats> parts = new ArrayList<>();
        double allClear = 1;
        long done = 0;
        for (int i = 0; i < regions.length; i++) {
            Segment region = regions[i];
            long before = done;
            Segment.RegionScan scan = region.scan(bytesScanned == null ? null : bytes -> bytesScanned.accept(before + bytes));
            BloomSpec spec = region.spec();
            done += spec.cellBytes();
            boolean probed = isProbed(i);
            parts.add(new SegmentStats(i, epochOf(i), probed, spec.cells(), spec.hashes(), region.capacity(),
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
        return new CompositeStats(parts, 1 - allClear, header.targetFpp(), bytes, ContainerDescriptor.FIRST_REGION,
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
    public void verify() throws IOException {
        ensureOpen();
        Segment[] regions = regions();
        BloomSpec checked = null;
        for (int i = 0; i < regions.length; i++) {
            BloomSpec actual = regions[i].spec();
            if (!actual.equals(checked)) { // a ring's slots share one shape, checked once
                header.checkRegion(file.path(), i, actual);
                checked = header.isGrowing() ? null : actual;
            }
            long paddingWord = regions[i].cells().firstWordWithPaddingSet();
            if (paddingWord >= 0) {
                throw new InvalidFilterFileException(file.path(), InvalidFilterFileException.Problem.CELLS_PADDING,
                        (header.isGrowing() ? "segment " : "slot ") + i + ": cells are damaged: bits after its last of "
                                + actual.cells() + " cells (padding, in its cell word " + paddingWord + ") are set, which"
                                + " no operation writes; restore the file from a pack");
            }
        }
        file.verifyTable();
    }

    /** {@inheritDoc} Here: {@link #verify()}; regions are written live, never sealed, so no cells are read. */
    @Override
    public CellsCheck verify(LongConsumer bytesRead) throws IOException {
        verify();
        return CellsCheck.LIVE;
    }

    @Override
    public Optional<BloomFilter> asFixed() {
        return Optional.empty();
    }

    @Override
    public long approximateKeys() {
        long keys = 0;
        for (Segment region : probedRegions()) {
            keys += region.approximateKeys();
        }
        return keys;
    }

    /**
     * The first field in which a region's header differs from {@code expected}, as
     * {@code "name: region vs expected"}: its shape ({@link BloomSpec#differenceFrom}), else the n
     * or p it was sized for, which the shape's comparison leaves out. For two specs that differ.
     */
    static String shapeDifference(BloomSpec region, BloomSpec expected) {
        return region.differenceFrom(expected).orElseGet(() -> region.expectedKeys() != expected.expectedKeys()
                ? "keys (n): " + region.expectedKeys() + " vs " + expected.expectedKeys()
                : "false-positive rate (p): " + region.targetFpp() + " vs " + expected.targetFpp());
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
