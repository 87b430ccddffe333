package io.bloomstore.bench;

import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import io.bloomstore.OpenMode;
import io.bloomstore.internal.math.FalsePositiveMath;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The filters compared: bloomstore's in each layout and the other JVM Bloom filters (its peers),
 * all sized for the same n at the same false-positive rate {@link #FPP}. A JMH {@code @Param}, so
 * every benchmark runs each of them in the same run with the same keys.
 *
 * <p>Each has its {@link Features feature row}, from the sources cited beside it.
 */
public enum ComparedFilter {
    /**
     * {@code com.google.common.hash.BloomFilter}, on the heap. Features: its Javadoc
     * (guava.dev/releases/snapshot-jre/api/docs/com/google/common/hash/BloomFilter.html: writeTo /
     * readFrom, "thread-safe and lock-free" since 23.0); size: a long array of at most 2^31 - 1 words
     * (LockFreeBitArray's Ints.checkedCast of the word count).
     */
    GUAVA(GuavaBenchFilter::create, GuavaBenchFilter::read, true, new Features(
            "stream copy (writeTo / readFrom)", "no: readFrom reads every bit", "no (heap)", "yes (CAS, lock-free)",
            "no", "2^37 bits (long[] of 2^31 - 1 words)")),
    /** bloomstore, standard layout (k cells anywhere). Features: DESIGN.md, docs/FORMAT.md, BloomSpec.MAX_CELLS. */
    STANDARD(Layout.STANDARD),
    /** bloomstore, blocked layout (k cells in one cache line). */
    BLOCKED(Layout.BLOCKED),
    /** bloomstore, sectorized layout (k bits in S whole words of one cache line). */
    SECTORIZED(Layout.SECTORIZED),
    /**
     * Apache DataSketches {@code filters.bloomfilter.BloomFilter}, on the heap. Features: its Javadoc
     * (apache.github.io/datasketches-java/7.0.0/org/apache/datasketches/filters/bloomfilter/: toByteArray
     * / heapify; wrap(Memory) and writableWrap(WritableMemory) use a serialized image in place, which
     * can be a memory-mapped file; no thread-safety is promised and DirectBitArray's updates are plain
     * read-modify-write stores); MAX_SIZE_BITS = (2^31 - 1 - 3) * 64.
     */
    DATASKETCHES(DataSketchesBenchFilter::create, DataSketchesBenchFilter::read, false, new Features(
            "serialized image (toByteArray); can live in a mapped file (writableWrap)", "yes: wrap() of a mapped image",
            "readers only: a mapped image can be shared, but updates are plain stores", "no", "no",
            "MAX_SIZE_BITS ~ 2^37 bits")),
    /**
     * FastFilter_java {@code org.fastfilter.bloom.Bloom}. Features: its README and source
     * (github.com/FastFilter/fastfilter_java: a plain long[], no serialization in 1.0.2, no
     * synchronization; counting is a separate class, CountingBloom).
     */
    FASTFILTER_BLOOM(FastFilterBenchFilter::bloom, null, false, new Features(
            "no", "no", "no (heap)", "no (plain stores)", "no (CountingBloom is another class)",
            "n < 2^31 keys; long[] of 2^31 - 1 words")),
    /**
     * FastFilter_java {@code org.fastfilter.bloom.BlockedBloom} (4 bits in two words of a bucket).
     * Features: as {@link #FASTFILTER_BLOOM}; its constructor computes n * bits per key as an int.
     */
    FASTFILTER_BLOCKED(FastFilterBenchFilter::blocked, null, false, new Features(
            "no", "no", "no (heap)", "no (plain stores)", "no (SuccinctCountingBlockedBloom is another class)",
            "n * bits per key < 2^31 (214 M keys at 10 bits)")) {
        /** The two words of a key lie 1 to 16 words apart: one or two lines, two at most. */
        @Override
        public int linesPerKey(long n) {
            return 2;
        }
    },
    /**
     * Apache Commons Collections 4.5 {@code bloomfilter.SimpleBloomFilter}. Features: its Javadoc
     * (commons.apache.org/proper/commons-collections/apidocs/org/apache/commons/collections4/bloomfilter/:
     * Shape's bit count is an int; no serial form, bit maps exported by asBitMapArray; counting in
     * ArrayCountingBloomFilter) and source (BitMaps.set is a plain |=).
     */
    COMMONS(CommonsBenchFilter::create, null, false, new Features(
            "no format (bit maps can be copied out: asBitMapArray)", "no", "no (heap)", "no (plain stores)",
            "another class (ArrayCountingBloomFilter)", "2^31 - 1 bits (int Shape): ~224 M keys at 1 %")),
    /**
     * Apache Spark {@code org.apache.spark.util.sketch.BloomFilter} (V2 since 4.1). Features: its
     * Javadoc (spark.apache.org/docs/latest/api/java/org/apache/spark/util/sketch/BloomFilter.html:
     * writeTo / readFrom, nothing promised about threads) and BitArray's source (a long[] of at most
     * 2^31 - 1 words, set by a plain |=).
     */
    SPARK(SparkBenchFilter::create, SparkBenchFilter::read, false, new Features(
            "stream copy (writeTo / readFrom)", "no: readFrom reads every bit", "no (heap)", "no", "no",
            "2^37 bits (long[] of 2^31 - 1 words)"));

    /** The false-positive rate every filter is sized for. */
    public static final double FPP = 0.01;

    /** How the bench makes a peer's empty filter for n keys at p. */
    interface PeerFactory {
        PeerBenchFilter create(long n, double fpp, KeyType type);
    }

    /** How the bench reads a peer's filter back from its serial form. */
    interface PeerReader {
        PeerBenchFilter read(InputStream in, long n, double fpp, KeyType type) throws IOException;
    }

    private final Layout layout;
    private final PeerFactory factory;
    private final PeerReader reader;
    private final boolean threadSafeAdds;
    private final Features features;

    ComparedFilter(Layout layout) {
        this(layout, null, null, true, Features.BLOOMSTORE);
    }

    ComparedFilter(PeerFactory factory, PeerReader reader, boolean threadSafeAdds, Features features) {
        this(null, factory, reader, threadSafeAdds, features);
    }

    ComparedFilter(Layout layout, PeerFactory factory, PeerReader reader, boolean threadSafeAdds, Features features) {
        this.layout = layout;
        this.factory = factory;
        this.reader = reader;
        this.threadSafeAdds = threadSafeAdds;
        this.features = features;
    }

    /** bloomstore's spec for n keys at {@link #FPP} in this layout; not for a peer. */
    public BloomSpec spec(long n) {
        if (layout == null) {
            throw new UnsupportedOperationException(this + " is not a bloomstore layout");
        }
        return BloomSpec.builder().expectedKeys(n).fpp(FPP).layout(layout).build();
    }

    /** Whether this is one of bloomstore's layouts (else a peer). */
    public boolean isBloomstore() {
        return layout != null;
    }

    public Features features() {
        return features;
    }

    /**
     * Whether a filled filter can be stored and read back ({@link #load}), so {@link Fixtures} builds
     * it once for all forks; the others are built in each trial.
     */
    public boolean storable() {
        return layout != null || reader != null;
    }

    /** Whether several threads may add to one filter at once (else the fill and the add benchmark use one). */
    public boolean threadSafeAdds() {
        return threadSafeAdds;
    }

    /**
     * The cache lines a present key's query loads: k for the standard layout and the standard peers,
     * whose probes each land on a line of their own in a filter far larger than the caches (every
     * peer picks k by the textbook rule k = round(m / n ln 2), 7 at p = 1 %); 1 for the blocked and
     * sectorized layouts.
     */
    public int linesPerKey(long n) {
        if (layout == null) {
            return FalsePositiveMath.optimalHashes(FalsePositiveMath.optimalCells(n, FPP), n);
        }
        return layout != Layout.STANDARD ? 1 : spec(n).hashes();
    }

    /** A new, empty filter for n keys; bloomstore's lives in {@code file}, a peer's on the heap. */
    public BenchFilter createEmpty(long n, KeyType type, Path file) throws IOException {
        return layout == null ? factory.create(n, FPP, type) : BloomstoreBenchFilter.create(file, spec(n));
    }

    /** Opens (bloomstore, read-only) or reads (a storable peer) a filter stored by {@link BenchFilter#saveAndClose}. */
    public BenchFilter load(Path file, long n, KeyType type) throws IOException {
        if (layout != null) {
            return BloomstoreBenchFilter.open(file, OpenMode.READ_ONLY);
        }
        if (reader == null) {
            throw new UnsupportedOperationException(this + " has no serial form");
        }
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            return reader.read(in, n, FPP, type);
        }
    }

    /**
     * A file name naming everything the stored filter depends on; for bloomstore that includes m
     * and k, so a change of the core's sizing never picks up a stale file.
     */
    public String fileName(long n, KeyType type) {
        String kind = name().toLowerCase(Locale.ROOT);
        String base = kind + "-" + type.name().toLowerCase(Locale.ROOT) + "-n" + n;
        if (layout == null) {
            return base + "." + kind;
        }
        BloomSpec spec = spec(n);
        return base + "-m" + spec.cells() + "-k" + spec.hashes() + ".bloom";
    }
}
