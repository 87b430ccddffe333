package io.bloomstore;

import io.bloomstore.internal.bulk.AddPipeline;
import io.bloomstore.internal.bulk.KeyLineReader;
import io.bloomstore.internal.cells.AnonymousImage;
import io.bloomstore.internal.files.FilterFiles;
import io.bloomstore.internal.files.TemporaryFile;
import io.bloomstore.internal.format.CellRule;
import io.bloomstore.internal.format.FilterHeader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.LongFunction;

/**
 * A new, sealed filter file from a file or stream of keys, one per line (as {@link KeySource}
 * reads them): sized, filled, sealed, then published in one step.
 *
 * <pre>{@code
 * FilterBuilder.Built built = FilterBuilder.to(Path.of("words.bloom"))
 *         .sizedFor(n -> BloomSpec.forExpected(n, 0.001))   // counts the lines first
 *         .fromLines(Path.of("/usr/share/dict/words"));
 * }</pre>
 *
 * <p>The filter is built in a hidden temporary file beside the target and appears under its name
 * only when complete and sealed (with the checksum of its cells, which
 * {@link BloomFilter#verify()} checks): a failed or interrupted build leaves nothing, and an
 * existing target is kept unless {@link #options replaced}, atomically. Keys are
 * added as {@link KeySource#addTo(MembershipFilter, int)} adds them, with the same meaning of the counts.
 *
 * <p>A fixed filter is filled {@link #inMemory(boolean) in memory} when it fits, and its file
 * written once, in order, when it is sealed: random adds into a mapped file make the kernel write
 * the same pages back again and again (many times the file's size for a filter larger than the
 * caches; docs/BENCHMARKS.md, "Large filters on disk").
 *
 * <p>With {@link #growing(GrowingSpec)} it builds a {@link GrowingBloomFilter} instead, for keys
 * whose number is not known up front: the input is read once (a stream is never spooled), the
 * chain grows as the keys come, and the file is published the same way. Its segments are written
 * live and never sealed (a growing file is for adding to), so there is no checksum to record.
 *
 * <p>With {@link #stable(StableSpec)} or {@link #valued} it builds a stable or a valued filter the
 * same way, filled in its mapped temporary; a valued filter's pairs are not keys one per line, so
 * its caller fills it through {@link #filledBy}.
 *
 * <p>A builder is a set of options; each {@code fromLines} or {@code filledBy} call builds one file.
 */
public final class FilterBuilder {
    /** The cells up to which a fixed filter filled in memory has one adder by default ({@link #adders}). */
    private static final long ONE_ADDER_BYTES = 16L << 20;
    private final Path target;
    private BloomSpec spec;
    private LongFunction<BloomSpec> specForKeys;
    private GrowingSpec growingSpec;
    private CellRule rule = CellRule.PLAIN;
    private boolean replace;
    private boolean sparse;
    /** Whether a fixed filter is filled in anonymous memory; null: when it fits. */
    private Boolean inMemory;
    /** Adder threads; 0 for the default ({@link #adders}). */
    private int threads;
    private Phases progress = (phase, totalBytes) -> bytes -> {
    };

    private FilterBuilder(Path target) {
        this.target = target;
    }

    /**
     * A builder of the filter file {@code target}.
     *
     * @param target the file to build; its directory must exist
     * @return a builder with no shape yet: give {@link #spec}, {@link #sizedFor} or {@link #growing}
     */
    public static FilterBuilder to(Path target) {
        return new FilterBuilder(Objects.requireNonNull(target, "target"));
    }

    /**
     * Builds a filter of this shape; replaces {@link #sizedFor}.
     *
     * @param spec the shape, not null
     * @return this builder
     */
    public FilterBuilder spec(BloomSpec spec) {
        this.spec = Objects.requireNonNull(spec, "spec");
        this.specForKeys = null;
        this.growingSpec = null;
        this.rule = CellRule.PLAIN;
        return this;
    }

    /**
     * Sizes the filter for the number of keys in the input, counted first: {@code specForKeys}
     * gets the count. A file is read twice; a stream is first copied to a hidden temporary file
     * beside the target (deleted afterwards). Replaces {@link #spec}.
     *
     * @param specForKeys gets the key count (0 for an empty input) and returns the shape; not null
     * @return this builder
     */
    public FilterBuilder sizedFor(LongFunction<BloomSpec> specForKeys) {
        this.specForKeys = Objects.requireNonNull(specForKeys, "specForKeys");
        this.spec = null;
        this.growingSpec = null;
        this.rule = CellRule.PLAIN;
        return this;
    }

    /**
     * Builds a growing filter of this shape, which needs no key count; replaces {@link #spec} and
     * {@link #sizedFor}. Not with {@link CreateOption#SPARSE} (a segment is allocated whole).
     *
     * @param spec the growing filter's shape, not null
     * @return this builder
     */
    public FilterBuilder growing(GrowingSpec spec) {
        this.growingSpec = Objects.requireNonNull(spec, "spec");
        this.spec = null;
        this.specForKeys = null;
        this.rule = CellRule.PLAIN;
        return this;
    }

    /**
     * Builds a stable filter of this shape, as {@link BloomFilter#createStable} creates one: every
     * add decrements P cells, then sets the key's. Replaces {@link #spec}, {@link #sizedFor} and
     * {@link #growing}.
     *
     * @param spec the stable filter's shape, not null
     * @return this builder
     */
    public FilterBuilder stable(StableSpec spec) {
        this.spec = Objects.requireNonNull(spec, "spec").spec();
        this.rule = spec.rule();
        this.specForKeys = null;
        this.growingSpec = null;
        return this;
    }

    /**
     * Builds a valued filter, as {@link ValuedFilter#create} creates one with the same arguments;
     * fill it with {@link #filledBy} ({@link ValuedFilter#of} gives the valued view). Replaces
     * {@link #spec}, {@link #sizedFor} and {@link #growing}.
     *
     * @param expectedKeys n, the distinct keys the file is sized for
     * @param fpp the rate at which a key never put reads a value
     * @param valueBits W, 1 to 31
     * @param keep which value a read gives: the largest put ({@link ValuedFilter.Keep#MAX}) or the smallest
     * @return this builder
     * @throws IllegalArgumentException if W is not 1 to 31, or n and p size no filter
     */
    public FilterBuilder valued(long expectedKeys, double fpp, int valueBits, ValuedFilter.Keep keep) {
        this.spec = ValuedFilter.spec(expectedKeys, fpp, valueBits);
        this.rule = CellRule.valued(keep == ValuedFilter.Keep.MAX, valueBits);
        this.specForKeys = null;
        this.growingSpec = null;
        return this;
    }

    /**
     * How the file is created, as {@link BloomFilter#create} takes it: {@link CreateOption#REPLACE_EXISTING}
     * replaces an existing target (atomically, once the new filter is complete), which by default is
     * kept and the build refused; {@link CreateOption#SPARSE} leaves the cells unallocated on disk
     * until written. Replaces the options given before.
     *
     * @param options the options; none for the defaults
     * @return this builder
     */
    public FilterBuilder options(CreateOption... options) {
        List<CreateOption> given = List.of(options);
        this.replace = given.contains(CreateOption.REPLACE_EXISTING);
        this.sparse = given.contains(CreateOption.SPARSE);
        return this;
    }

    /**
     * Where a fixed filter is filled: in anonymous memory, its file then written once, sequentially,
     * when it is sealed (true); or in the mapped file (false), whose pages the kernel may write back
     * many times while the keys come, but which needs no memory of its own (its pages are page cache
     * the kernel can drop and reread). By default in memory when the file takes at most half of
     * the memory the system has available (Linux's MemAvailable), else in the file. Either way the
     * file holds the same cells and state, and appears only when complete.
     *
     * @param inMemory true to fill in memory, false to fill in the mapped file; unused by a growing build
     * @return this builder
     */
    public FilterBuilder inMemory(boolean inMemory) {
        this.inMemory = inMemory;
        return this;
    }

    /**
     * Adder threads, at least 1. One adder of a fixed filter filled {@link #inMemory in memory} adds
     * with plain stores instead of compare-and-sets, as no other writer can see that memory: for a
     * filter in the caches, less CPU in about the same time as two adders, but for one far larger about
     * the same CPU, in a time that varied from a third less to twice as long
     * (docs/BENCHMARKS-HISTORY.md, "Plain stores for a single writer"). So by default a fixed filter
     * filled in memory whose cells take at most 16 MiB (10 M keys at 1 %) has one adder, and any
     * other filter one per processor, at most four.
     *
     * @param threads the number of adder threads
     * @return this builder
     * @throws IllegalArgumentException if {@code threads < 1}
     */
    public FilterBuilder threads(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, not " + threads);
        }
        this.threads = threads;
        return this;
    }

    /**
     * Where the build reports its phases and their progress.
     *
     * @param progress receives each phase as it begins; not null
     * @return this builder
     */
    public FilterBuilder progress(Phases progress) {
        this.progress = Objects.requireNonNull(progress, "progress");
        return this;
    }

    /**
     * The phases a build goes through, each only when needed: a filter's {@link #SPOOL},
     * {@link #COUNT}, {@link #BUILD}; a Bloomier map's ({@link BloomierMap.Builder#progress})
     * {@link #READ}, {@link #CHECK}, {@link #PEEL}.
     */
    public enum Stage {
        /** A stream of keys copied aside to be counted; its total is unknown (-1). */
        SPOOL,
        /** The keys counted, to size the filter for them. */
        COUNT,
        /** The keys added to the new filter. */
        BUILD,
        /** A map's pairs read and spooled. */
        READ,
        /** The spooled pairs checked for repeated keys. */
        CHECK,
        /** The map's table solved from the spooled pairs. */
        PEEL
    }

    /** Receives the phases of a build as they begin. */
    @FunctionalInterface
    public interface Phases {
        /**
         * A phase begins: for a filter {@link Stage#SPOOL}, {@link Stage#COUNT} then {@link Stage#BUILD},
         * in that order, each only when needed.
         *
         * @param stage which phase
         * @param totalBytes the bytes the phase will read, or -1 when unknown
         * @return told the bytes done so far during the phase, and closed when it ends
         */
        Phase begin(Stage stage, long totalBytes);
    }

    /** One phase of a build in progress. */
    public interface Phase extends AutoCloseable {
        /**
         * Bytes done so far in this phase.
         *
         * @param bytesDone the input bytes read so far in this phase, from 0 up to its total when known
         */
        void update(long bytesDone);

        /** The phase has ended (also when it failed). */
        @Override
        default void close() {
        }
    }

    /**
     * What a build made: the filter's shape, how many keys it read, and how many of them were new.
     *
     * @param spec the fixed filter's shape; null for a growing build
     * @param growingSpec the growing filter's shape; null for a fixed build
     * @param keys the lines read, repeats included (empty lines are not keys)
     * @param newKeys those that were definitely new to the filter, at most {@code keys}
     */
    public record Built(BloomSpec spec, GrowingSpec growingSpec, long keys, long newKeys) {
    }

    /**
     * Builds the filter from the lines of {@code keyFile}.
     *
     * @param keyFile a file of keys, one per line
     * @return the shape and the counts
     * @throws java.nio.file.FileAlreadyExistsException if the target exists and is not to be
     *     replaced, before the input is read
     * @throws IllegalStateException if no shape was given, or a growing one with sparse
     * @throws IOException if the input cannot be read or the filter cannot be written; nothing is left behind
     */
    public Built fromLines(Path keyFile) throws IOException {
        requireReady();
        return build(keyFile);
    }

    /**
     * Builds the filter from the lines of {@code keys}, read to its end (not closed).
     *
     * @param keys the stream of keys, one per line
     * @return the shape and the counts
     * @throws java.nio.file.FileAlreadyExistsException if the target exists and is not to be
     *     replaced, before the input is read
     * @throws IllegalStateException if no shape was given, or a growing one with sparse
     * @throws IOException if the input cannot be read or the filter cannot be written; nothing is left behind
     */
    public Built fromLines(InputStream keys) throws IOException {
        requireReady();
        if (spec != null || growingSpec != null) {
            return fill(spec, KeySource.lines(keys), -1);
        }
        // Sizing reads the keys twice; a stream can be read once, so it is spooled beside the target first.
        try (TemporaryFile spool = TemporaryFile.beside(target, "keys")) {
            spool(keys, spool);
            return build(spool.reachable()); // read back through its descriptor, not its name
        }
    }

    /**
     * How {@link #filledBy} fills a new fixed filter.
     *
     * @param <T> what the filling reports, such as its counts
     */
    @FunctionalInterface
    public interface Fill<T> {
        /**
         * Adds the input to {@code filter}, new and empty, open read-write; the builder seals and
         * publishes it when this returns, and deletes it if this throws.
         *
         * @param filter the filter being built, not yet under the target's name
         * @return the report {@link #filledBy} returns
         * @throws IOException if the input cannot be read; nothing is published
         */
        T fill(BloomFilter filter) throws IOException;
    }

    /**
     * Builds a fixed filter of the given shape by handing it to {@code fill}, for input that is not
     * keys one per line (a valued filter's pairs): created in a hidden temporary beside the target,
     * filled, sealed and published as {@link #fromLines(Path)} does, so a failed or interrupted
     * build leaves nothing.
     *
     * @param fill what adds the input
     * @param <T> what {@code fill} reports
     * @return what {@code fill} returned
     * @throws java.nio.file.FileAlreadyExistsException if the target exists and is not to be
     *     replaced, before {@code fill} runs
     * @throws IllegalStateException if no fixed shape was given ({@link #spec}, {@link #stable}, {@link #valued})
     * @throws IOException if {@code fill} fails or the filter cannot be written; nothing is left behind
     */
    public <T> T filledBy(Fill<T> fill) throws IOException {
        Objects.requireNonNull(fill, "fill");
        if (spec == null) {
            throw new IllegalStateException("filledBy builds a fixed filter: give its spec, stable or valued shape first");
        }
        requireReady();
        try (TemporaryFile building = TemporaryFile.beside(target, "building")) {
            T report;
            try (BloomFilter filter = fillsInMemory(spec) ? createInMemory(building, spec, threads == 1) : mappedIn(building, spec)) {
                report = fill.fill(filter);
                seal(filter);
            }
            building.publishAs(target, replace);
            return report;
        }
    }

    private void requireReady() throws IOException {
        if (spec == null && specForKeys == null && growingSpec == null) {
            throw new IllegalStateException("give the filter's spec, sizedFor to size it by the key count, or growing");
        }
        if (growingSpec != null && sparse) {
            throw new IllegalStateException("a growing filter cannot be sparse: each segment is allocated whole");
        }
        if (!replace) {
            FilterFiles.requireAbsent(target);
        }
    }

    private Built build(Path keyFile) throws IOException {
        long size = Files.isRegularFile(keyFile) ? Files.size(keyFile) : -1;
        BloomSpec shape = spec;
        if (shape == null && growingSpec == null) {
            long count;
            try (KeySource lines = KeySource.lines(keyFile); Phase phase = progress.begin(Stage.COUNT, size)) {
                count = lines.onProgress(phase::update).count();
            }
            shape = specForKeys.apply(count);
        }
        try (KeySource lines = KeySource.lines(keyFile)) {
            return fill(shape, lines, size);
        }
    }

    /**
     * Creates the filter (of {@code shape}, or growing) in a temporary beside the target, adds
     * every key, seals it (a fixed one) and publishes it.
     */
    private Built fill(BloomSpec shape, KeySource keys, long size) throws IOException {
        try (TemporaryFile building = TemporaryFile.beside(target, "building")) {
            KeySource.Added added;
            // a fixed filter is sealed once filled; a growing one is written live, never sealed
            boolean inMemory = shape != null && fillsInMemory(shape);
            int adders = adders(shape, inMemory);
            BloomFilter fixed = shape == null ? null : inMemory ? createInMemory(building, shape, adders == 1)
                    : mappedIn(building, shape);
            try (MembershipFilter filter = fixed != null ? fixed : GrowingBloomFilter.createIn(building, growingSpec);
                    Phase phase = progress.begin(Stage.BUILD, size)) {
                added = keys.onProgress(phase::update).addTo(filter, adders);
                if (fixed != null) {
                    seal(fixed);
                }
            }
            building.publishAs(target, replace);
            return new Built(shape, growingSpec, added.keys(), added.newKeys());
        }
    }

    /**
     * The adder threads of a build: those set by {@link #threads}, else one for a fixed filter
     * filled in memory whose cells fit in {@link #ONE_ADDER_BYTES}, else
     * {@link AddPipeline#defaultThreads}. In the caches, one adder's plain stores take less CPU than
     * two adders' compare-and-sets (up to a sixth, for 3 M and for 10 M keys) in about the same
     * time (docs/BENCHMARKS.md, the results table); far beyond them two adders keep more misses in
     * flight.
     */
    private int adders(BloomSpec shape, boolean inMemory) {
        if (threads > 0) {
            return threads;
        }
        return inMemory && shape.cellBytes() <= ONE_ADDER_BYTES ? 1 : AddPipeline.defaultThreads();
    }

    /**
     * A new, empty fixed filter written into {@code building} and mapped through its descriptor,
     * as {@link BloomFilter#create} makes one at a path: the building file stays the one this
     * build created, whatever another process renames over its name.
     */
    private BloomFilter mappedIn(TemporaryFile building, BloomSpec shape) throws IOException {
        FilterHeader header = FilterHeader.newFile(shape, rule, System.currentTimeMillis(), sparse);
        FilterFiles.requireCreatable(target, header);
        try {
            FilterFiles.writeEmptyFilter(building.channel(), header);
        } catch (IOException e) {
            throw FilterFiles.cannotWrite(target, FilterFiles.diskBytes(header), e);
        }
        return BloomFilter.open(building.path(), building.reopen(), OpenMode.READ_WRITE);
    }

    /** Seals a fixed filter: in memory, this is when its file is written, so a failure names the target. */
    private void seal(BloomFilter filter) throws IOException {
        try {
            filter.seal();
        } catch (IOException e) {
            throw FilterFiles.cannotWrite(target, sparse ? 0 : filter.info().fileLength(), e);
        }
    }

    /**
     * A new filter for this build alone, its whole file in anonymous memory ({@link AnonymousImage}):
     * {@link BloomFilter#sync()} (and so {@link BloomFilter#seal()}) writes it to {@code file} in one
     * sequential pass, and what changes after the last sync never reaches the file. The file then
     * ends as a build in the mapped file leaves it (the same cells and state; its identity, as any
     * new file's, its own). Not counted as an open writer, as no other handle can see it; with one
     * adder thread its adds are plain stores, not compare-and-sets.
     *
     * @param building the build's temporary, empty: written through its descriptor, named by its path
     * @throws IOException if the disk cannot hold the file (unless sparse)
     */
    private BloomFilter createInMemory(TemporaryFile building, BloomSpec shape, boolean oneAdder) throws IOException {
        Path file = building.path();
        FilterHeader header = FilterHeader.newFile(shape, rule, System.currentTimeMillis(), sparse);
        FilterFiles.requireCreatable(file, header); // what opening the finished file will need

        AnonymousImage image = AnonymousImage.allocate(building.reachable(), header.fileLength(), sparse);
        ByteBuffer page = header.newFilePage();
        image.store().write(0, page, 0, page.remaining());
        return new BloomFilter(file, header, image, oneAdder);
    }

    private boolean fillsInMemory(BloomSpec shape) {
        if (rule.kind() != CellRule.Kind.PLAIN) {
            return false; // a stable or valued filter's adds are compare-and-sets of its rule, on the mapped cells
        }
        return inMemory != null ? inMemory : AnonymousImage.fitsInMemory(shape.cellBytes());
    }

    /** Copies {@code in} into the spool through its own channel (a shutdown hook that deletes it never makes it appear again). */
    private void spool(InputStream in, TemporaryFile spool) throws IOException {
        byte[] buffer = new byte[KeyLineReader.DEFAULT_BUFFER];
        try (Phase phase = progress.begin(Stage.SPOOL, -1)) {
            long copied = 0;
            for (int n; (n = in.read(buffer)) >= 0; ) {
                FilterFiles.writeFully(spool.channel(), ByteBuffer.wrap(buffer, 0, n));
                copied += n;
                phase.update(copied);
            }
        }
    }
}
