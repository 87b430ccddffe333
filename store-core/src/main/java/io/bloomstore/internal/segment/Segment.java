package io.bloomstore.internal.segment;

import io.bloomstore.BloomSpec;
import io.bloomstore.internal.cells.CellArray;
import io.bloomstore.internal.cells.FileMapping;
import io.bloomstore.internal.format.CheckedFile;
import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.internal.format.FilterHeader;
import io.bloomstore.internal.format.FilterState;
import io.bloomstore.internal.probe.BatchProber;
import io.bloomstore.internal.probe.CellProbes;
import io.bloomstore.internal.probe.FillEstimates;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;

/**
 * One region of a segmented file, mapped on its own: a version 1 filter image (header page, state
 * area, cells) at some offset of the file. The segments of a chain and the slots of a ring are all
 * this.
 *
 * <p>This is the one class of the segmented filters that builds mappings ({@link #map}) and cell
 * arrays; the per-key loops are the single filter's ({@link CellProbes}).
 *
 * <p>Each handle counts the new keys it added to this region in its own memory and publishes the
 * count into the region's approximate-insertions word ({@link #publish}) often enough for every
 * process to judge the region's capacity while it works, not only at close.
 */
public final class Segment implements AutoCloseable {
    private final FileMapping mapping;
    private final FilterHeader header;
    private final BloomSpec spec;
    private final FilterState state;
    private final CellArray cells;
    private final CellProbes probes;
    /** The region's batch queries: the fixed filter's engine ({@link BatchProber}) over its cells. */
    private final BatchProber batches;
    /**
     * Publish the count when a new key's hash has these low bits all zero: on average every
     * mask + 1 new keys, with no shared counter read per add. A power of two near capacity / 64 (at
     * most 256), so that each handle's unpublished keys overshoot a region by at most ~1.6% of its
     * capacity, which moves its rate by about k times that, relatively (k &lt;= 20 here: well under
     * the slack the chain's bound keeps).
     */
    private final long publishMask;
    private final LongAdder unpublished = new LongAdder();

    private Segment(FileMapping mapping, FilterHeader header) {
        this.mapping = mapping;
        this.header = header;
        this.spec = header.spec();
        this.state = new FilterState(mapping.store());
        this.cells = new CellArray(mapping.store(), FilterFileDescriptor.CELLS_START, spec.cells(),
                spec.counterBits(), spec.cellBytes());
        this.probes = new CellProbes(spec, cells);
        this.batches = new BatchProber(spec, probes);
        long every = Long.highestOneBit(Math.max(1, Math.min(256, spec.expectedKeys() / 64)));
        this.publishMask = every - 1;
    }

    /**
     * Maps {@code length} bytes of the file from {@code offset}: the one place mappings are made.
     * The mapping shares {@code channel} with the file's other mappings; closing any closes it, so
     * they are all closed together, by the file.
     */
    static FileMapping map(Path path, FileChannel channel, long offset, long length, boolean readOnly) throws IOException {
        return FileMapping.map(path, channel, offset, length, readOnly);
    }

    /**
     * Reads and checks the header of the region of {@code length} bytes at {@code offset}, as a
     * version 1 file of that length.
     *
     * @throws io.bloomstore.InvalidFilterFileException if the region's header is damaged
     */
    static FilterHeader readHeader(Path path, FileChannel channel, long offset, long length) throws IOException {
        return FilterHeader.decodeRegion(path, readHeaderBytes(channel, offset), length);
    }

    /** Maps the region at {@code offset} whose header, {@code header}, was read and checked there. */
    static Segment open(Path path, FileChannel channel, long offset, FilterHeader header, boolean readOnly)
            throws IOException {
        return new Segment(map(path, channel, offset, header.fileLength(), readOnly), header);
    }

    /** The header bytes at {@code offset} (a region's, or the container's at 0); fewer at the end of the file. */
    static byte[] readHeaderBytes(FileChannel channel, long offset) throws IOException {
        return CheckedFile.readAt(channel, offset, FilterFileDescriptor.HEADER_LENGTH);
    }

    /** The region's shape, from its own header. */
    public BloomSpec spec() {
        return spec;
    }

    /** The region's own (version 1) header. */
    public FilterHeader header() {
        return header;
    }

    /** The region's cells: what a merge reads. */
    public CellArray cells() {
        return cells;
    }

    /** The keys this region was sized for. */
    public long capacity() {
        return spec.expectedKeys();
    }

    /**
     * Increments the k cells of the key hashing to {@code hash}.
     *
     * @return whether one of them was zero before: the key was definitely absent from this region
     */
    public boolean add(long hash) {
        return probes.increment(hash);
    }

    /** Whether the key hashing to {@code hash} may be in this region. */
    public boolean mightContain(long hash) {
        return probes.mightContain(hash);
    }

    /**
     * Queries the keys whose hashes are {@code hashes[0 .. count)} here, into {@code results[0 .. count)},
     * as a fixed filter's batch query does, its cache misses overlapped.
     *
     * @return how many may be here
     */
    public int mightContainHashes(long[] hashes, int count, boolean[] results) {
        return batches.mightContainHashes(hashes, count, results);
    }

    /** Loads the lines the keys of {@code keyHashes[from .. to)} probe here; returns a sum the caller must keep. */
    public long loadLines(long[] keyHashes, int from, int to) {
        return probes.loadLines(keyHashes, from, to);
    }

    /** Loads the line of each key's first probe here (in the blocked layout its one line); returns a sum to keep. */
    public long loadFirstLines(long[] keyHashes, int from, int to) {
        return probes.loadFirstLines(keyHashes, from, to);
    }

    /**
     * Counts {@code added} new keys of this handle; if {@code hash} (that of the last one) says so,
     * publishes the count.
     *
     * @return whether the count was published
     */
    public boolean countNew(long added, long hash) {
        unpublished.add(added);
        if ((hash & publishMask) == 0) {
            publish();
            return true;
        }
        return false;
    }

    /** Adds this handle's unpublished count to the region's shared count. */
    public void publish() {
        state.addApproximateInsertions(unpublished.sumThenReset());
    }

    /** The new keys published into this region by every handle so far. */
    public long publishedKeys() {
        return state.getApproximateInsertionsVolatile();
    }

    /**
     * The new keys counted into this region: those every handle has published plus this handle's
     * own, not yet published. Reads one shared counter.
     */
    public long approximateKeys() {
        return FilterState.saturatingSum(publishedKeys(), unpublished.sum());
    }

    /**
     * Whether the published count says the region is full: within four publishing periods of its
     * capacity. Each handle publishes its count every period of keys (on average), so the count
     * seen lags the keys added by about a period per handle, and the keys that arrive before the
     * next segment takes over land here too; a chain whose segments each end a few periods past
     * capacity breaks its bound (at growth 1.5 from 1000 keys, 1.026 % for a 1 % chain). Switching
     * four periods early ends most segments at their capacity. A period is at most 1/64 of the
     * capacity, and 1 key (exact, no slack needed) for capacities under 128.
     */
    public boolean isFull() {
        return publishedKeys() >= fullAt();
    }

    /** The published count at which the region is full ({@link #isFull}). */
    private long fullAt() {
        long period = publishMask + 1;
        return capacity() - (period > 1 ? 4 * period : 0);
    }

    /** The new keys this handle may add before the region is full: counting those it has not published yet; at least 0. */
    public long keysUntilFull() {
        return Math.max(0, fullAt() - publishedKeys() - unpublished.sum());
    }

    /**
     * Zeroes every cell and the count: for a slot about to hold a new epoch, which nobody queries
     * meanwhile. Plain 8-byte stores; the caller's volatile write that publishes the slot orders them.
     */
    public void clear() {
        long words = cells.words();
        for (long w = 0; w < words; w++) {
            cells.putWord(w, 0);
            if (w == words / 2) {
                CrashPoint.reach(CrashPoint.CLEAR);
            }
        }
        state.resetApproximateInsertions();
        unpublished.reset();
    }

    /**
     * One scan of the cells: the region's fill and rates.
     *
     * @param bytesScanned told the bytes of this region's cells scanned so far; or null
     */
    public RegionScan scan(LongConsumer bytesScanned) {
        long set = cells.countNonZero(bytesScanned);
        double keys = FillEstimates.estimateKeys(spec, set);
        return new RegionScan(set, keys, FillEstimates.currentFpp(spec, set, keys), publishedKeys());
    }

    /** What one scan found. */
    public record RegionScan(long setCells, double estimatedKeys, double currentFpp, long publishedKeys) {
    }

    /** Forces the file (all its regions: one descriptor). */
    void sync() throws IOException {
        mapping.sync();
    }

    @Override
    public void close() {
        mapping.close();
    }
}
