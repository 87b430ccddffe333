package io.bloomstore;

import io.bloomstore.internal.format.ContainerDescriptor;
import io.bloomstore.internal.format.ContainerHeader;
import java.util.Objects;

/**
 * The shape of a {@link GrowingBloomFilter}: the first segment holds {@code expectedKeys} keys,
 * segment i holds n s^i at rate P (1 - r) r^i, so a query over any number of segments stays below
 * P (docs/FORMAT.md, "Sizing the segments").
 *
 * @param expectedKeys n, the keys the first segment holds (at least 1)
 * @param fpp P, the bound on the false-positive rate of a query however many keys arrive (0 &lt; P &lt; 1)
 * @param growthFactor s, each segment's keys over the previous one's (1 to 16; default 2)
 * @param tighteningRatio r, each segment's rate over the previous one's (0 &lt; r &lt; 1; default 0.85)
 * @param maxBytes the most bytes the file may grow to; 0 for no limit
 * @param layout the cell layout of every segment
 * @param seed the hash seed (filters must share it to be merged)
 */
public record GrowingSpec(long expectedKeys, double fpp, double growthFactor, double tighteningRatio, long maxBytes,
        Layout layout, long seed) implements SegmentedSpec {
    /** s = 2: the number of segments grows as log2 of the keys, and half the bytes are in the newest. */
    public static final double DEFAULT_GROWTH = 2;
    /**
     * r = 0.85: each segment costs log2(1/r) = 0.23 bits per key more than the one before and the
     * first is sized at P (1 - r) = 0.15 P. Over 7 segments (127 n keys) at P = 1% the chain spends
     * 15.24 bits per key, against 15.28 at r = 0.8 and 15.49 at r = 0.9 (one fixed filter for all
     * the keys at P: 9.59): a tighter r pays more on the first segment, a looser one on the later,
     * larger ones (Almeida et al. also find 0.8 to 0.9 best).
     */
    public static final double DEFAULT_TIGHTENING = 0.85;
    /**
     * The rate P from which a growing file's segments are one cache line a key by default
     * ({@link Layout#SECTORIZED}, before it {@link Layout#BLOCKED}): {@value}.
     *
     * @see #defaultLayout(double)
     */
    public static final double ONE_LINE_LAYOUT_FROM_FPP = 1e-3;

    /**
     * The layout a growing file of rate P gets when none is asked for: sectorized for P of
     * {@value #ONE_LINE_LAYOUT_FROM_FPP} or more, standard below.
     *
     * <p>Speed: a query of a growing file asks every segment, newest first, and a dedup index asks
     * mostly new (absent) keys, each of which every segment must refuse. A blocked or sectorized
     * segment refuses it after one cache line; a standard one reads a line per probe until it meets
     * a clear bit, about two lines on average at the fill a segment is sized for (half its bits
     * set), each a miss beyond the caches. A sectorized segment tests its line's few words with one
     * comparison where a blocked one tests each bit: dedup of 10 M new lines into a chain from
     * 100 k keys at 0.1% took 0.66 of blocked segments' CPU at equal bytes (docs/BENCHMARKS.md).
     *
     * <p>Space: a one-line segment needs more cells for the same rate, as the keys falling in one
     * line vary (Poisson) and a crowded line answers falsely far more often than the average one.
     * The tighter the rate, the more that costs: a chain of 7 segments from 1 M keys, blocked against
     * standard, is 1.09x the bytes at P = 1%, 1.16x at 0.1%, 1.26x at 0.01% and 1.52x at
     * 1e-6 ({@code bloomstore size --grow --keys K --layout L} shows each); a sectorized chain takes
     * 0.9998x to 1.0019x a blocked one's bytes from P = 1% to 1e-6 at growth 1.5 to 4 (1.0064x at
     * 1e-9). From 0.1% up the lookups saved are worth the bytes; below it the bytes win.
     *
     * <p>Files keep the layout they were created with, whatever this default.
     *
     * @param fpp P, the file's bound on the rate of a query
     * @return {@link Layout#SECTORIZED} for P of at least {@value #ONE_LINE_LAYOUT_FROM_FPP}, else {@link Layout#STANDARD}
     */
    public static Layout defaultLayout(double fpp) {
        return fpp >= ONE_LINE_LAYOUT_FROM_FPP ? Layout.SECTORIZED : Layout.STANDARD;
    }

    /**
     * Checks what can be checked without the sizing.
     *
     * @param expectedKeys n, at least 1; checked, like the other numbers, by {@link GrowingBloomFilter#create}
     * @param fpp P, strictly between 0 and 1
     * @param growthFactor s, from 1 to 16
     * @param tighteningRatio r, strictly between 0 and 1
     * @param maxBytes the size limit in bytes, or 0 for none
     * @param layout the cell layout; checked here: not null, not {@link Layout#SBBF}
     * @param seed any 64-bit value
     */
    public GrowingSpec {
        Objects.requireNonNull(layout, "layout");
        if (layout == Layout.SBBF) {
            throw new IllegalArgumentException("a growing filter cannot have the sbbf layout: Parquet's filters have one"
                    + " fixed size; use a fixed filter (sized with --expected and --fpp)");
        }
    }

    /**
     * n keys first, P overall, with the default growth, tightening, layout ({@link #defaultLayout}) and seed, and no size limit.
     *
     * @param expectedKeys n, the keys the first segment holds, at least 1
     * @param fpp P, the bound on any query's false-positive rate, strictly between 0 and 1 (0.01 is 1%)
     * @return the spec; its numbers are checked when a filter is created with it
     */
    public static GrowingSpec of(long expectedKeys, double fpp) {
        return new GrowingSpec(expectedKeys, fpp, DEFAULT_GROWTH, DEFAULT_TIGHTENING, 0, defaultLayout(fpp),
                BloomSpec.DEFAULT_SEED);
    }

    /**
     * The keys a file of this spec can take before its table of segments (120 entries) is full,
     * after which its adds fail whatever its max size. {@link Long#MAX_VALUE} when the table cannot
     * fill because the segment after its last entry could not exist: then only the max size, the
     * disk, or a segment too large to map stop the growth. So it is for every growth factor of 1.5
     * or more; {@link GrowingBloomFilter#create} refuses a spec for which it is not (a growth factor
     * of 1 fills the table after 120 n keys), while files made before that rule still open.
     *
     * @return the keys, or {@link Long#MAX_VALUE} for no such limit
     * @throws IllegalArgumentException if a number of this spec is out of range
     */
    public long keysBeforeTableFull() {
        return ContainerHeader.growing(layout, seed, expectedKeys, fpp, growthFactor, tighteningRatio, maxBytes, 0)
                .keysBeforeTableFull();
    }

    /**
     * This spec with a size limit.
     *
     * @param bytes the most bytes the file may grow to, or 0 for no limit
     * @return a copy with that limit
     */
    public GrowingSpec withMaxBytes(long bytes) {
        return new GrowingSpec(expectedKeys, fpp, growthFactor, tighteningRatio, bytes, layout, seed);
    }

    /**
     * This spec with another growth factor s.
     *
     * @param s each segment's keys over the previous one's, from 1 to 16
     * @return a copy with that factor
     */
    public GrowingSpec withGrowthFactor(double s) {
        return new GrowingSpec(expectedKeys, fpp, s, tighteningRatio, maxBytes, layout, seed);
    }

    /**
     * This spec with another layout.
     *
     * @param newLayout the cell layout of every segment, not null
     * @return a copy with that layout
     */
    public GrowingSpec withLayout(Layout newLayout) {
        return new GrowingSpec(expectedKeys, fpp, growthFactor, tighteningRatio, maxBytes, newLayout, seed);
    }

    /**
     * The shape of segment i, as the file sizes it when it grows to it: n s^i keys at P (1 - r) r^i
     * (docs/FORMAT.md, "Sizing the segments").
     *
     * @param i the segment's index, from 0
     * @return its cells, hashes, layout and seed
     * @throws IllegalArgumentException if a number of this spec is out of range, or the segment
     *     would need more than {@link BloomSpec#MAX_CELLS} cells (the chain cannot grow to it)
     */
    public BloomSpec segmentSpec(int i) {
        return header().regionSpec(i);
    }

    /**
     * The keys segment i is sized for, n s^i rounded up: what {@link #segmentSpec} sizes, without
     * the sizing (which in the blocked layout takes a numeric search per segment).
     *
     * @param i the segment's index, from 0
     * @return its capacity in keys
     * @throws IllegalArgumentException if a number of this spec is out of range
     */
    public long segmentKeys(int i) {
        return header().regionKeys(i);
    }

    /**
     * The segments a filter of this spec has once it counts {@code keys} keys: the newest segment
     * is full, and the next one added, when it counts as many keys as it is sized for. Whether its
     * max size lets it grow that far is not considered.
     *
     * @param keys distinct keys added, 0 or more
     * @return the number of segments, at least 1; {@link #maxSegments()} + 1 if the table's
     *     segments hold fewer than {@code keys} (the file refuses to grow past its table)
     * @throws IllegalArgumentException if a number of this spec is out of range
     */
    public int segmentsFor(long keys) {
        ContainerHeader header = header();
        int segments = 1;
        long held = header.regionKeys(0); // the keys of the segments up to the newest, when all are full
        while (held <= keys && segments <= maxSegments()) {
            long next = header.regionKeys(segments++);
            held = held > Long.MAX_VALUE - next ? Long.MAX_VALUE : held + next;
        }
        return segments;
    }

    /**
     * The most segments a file can hold: the entries of its region table.
     *
     * @return the table's capacity
     */
    public static int maxSegments() {
        return ContainerDescriptor.TABLE_ENTRIES;
    }

    /**
     * The length of a file of this spec with its first {@code segments} segments: the container's
     * header page and, for each segment, its header page and cells.
     *
     * @param segments 1 or more
     * @return the file's length in bytes, as {@link GrowingBloomFilter#create} (1 segment) and its growth make it
     * @throws IllegalArgumentException as {@link #segmentSpec}
     */
    public long fileBytes(int segments) {
        long bytes = ContainerDescriptor.FIRST_REGION;
        for (BloomSpec segment : header().regionSpecs(segments)) {
            bytes += ContainerHeader.regionLength(segment);
        }
        return bytes;
    }

    /** The container header this spec makes, checked; its creation time plays no part in the sizing. */
    private ContainerHeader header() {
        return ContainerHeader.growing(layout, seed, expectedKeys, fpp, growthFactor, tighteningRatio, maxBytes, 0);
    }
}
