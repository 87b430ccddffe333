package io.bloomstore;

import static io.bloomstore.internal.format.FilterFileDescriptor.CELLS_START;

import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.internal.cells.CellArray;
import io.bloomstore.internal.cells.FileMapping;
import io.bloomstore.internal.cells.FilterMemory;
import io.bloomstore.internal.files.FilterFiles;
import io.bloomstore.internal.format.CellRule;
import io.bloomstore.internal.format.CellsIntegrity;
import io.bloomstore.internal.format.CheckedFile;
import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.internal.format.FilterHeader;
import io.bloomstore.internal.format.FilterState;
import io.bloomstore.internal.probe.BatchProber;
import io.bloomstore.internal.probe.CellProbes;
import io.bloomstore.internal.probe.FillEstimates;
import io.bloomstore.internal.probe.RuledCells;
import io.bloomstore.internal.probe.GuavaWideProbes;
import io.bloomstore.internal.hashing.GuavaHash;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;

/**
 * A Bloom filter living in a memory-mapped file; with counters of w &gt; 1 bits, a counting Bloom
 * filter, whose keys can be removed and counted ({@link CountingFilter}).
 *
 * <pre>{@code
 * try (BloomFilter seen = BloomFilter.openOrCreate(Path.of("seen.bloom"), BloomSpec.forExpected(10_000_000, 0.001))) {
 *     if (seen.add("order-42")) {
 *         process("order-42");          // definitely the first time
 *     }
 *     seen.mightContain("order-7");      // false: definitely never added
 * }
 * }</pre>
 *
 * <p><b>Sharing.</b> Every update is a lock-free compare-and-set on one aligned word of the
 * mapping, so any number of threads of one handle, handles of one process, and processes mapping
 * the same file may add and query at once; each sees the others' completed additions immediately
 * and no update is lost. A handle must not be used after (or during) its {@link #close()}. When
 * several threads or processes add the same new key at the same instant, each sets some of its k
 * cells, so more than one of them may be told "new" (at least one always is): a dedup consumer that
 * must process a key exactly once across concurrent adders routes each key to one adder (e.g. by
 * hash partition).
 *
 * <p><b>Durability.</b> An add that has returned is in the page cache: it survives the process
 * being killed. {@link #sync()} forces the file to the device, so what was added before it
 * survives a power cut too.
 *
 * <p><b>A file changed by another program.</b> No lock keeps another program from truncating the
 * file while it is mapped (or a sparse file's disk from filling). The next access to a page lost
 * that way throws HotSpot's {@link InternalError} ("a fault occurred in an unsafe memory access"):
 * at the access, or on JDK 17 where the thread next enters the JVM's runtime, which this library
 * makes it do after each chunk of a whole-filter pass and every 64 failed compare-and-sets; answers
 * given in between may be wrong. Catch it to report the file as damaged; restore it from a pack or
 * rebuild it. One case cannot be caught: on JDK 17 an add or remove that still runs in the
 * interpreter (a process's first few thousand) kills the JVM with SIGBUS (docs/RELIABILITY.md, "A
 * file changed under a command").
 *
 * <p><b>Keys.</b> byte[], {@link ByteBuffer}, long and {@link CharSequence} keys are hashed by their
 * canonical bytes ({@link KeyHasher}); none of the single-key methods allocate. The key-type calls
 * are {@link MembershipFilter}'s, over the {@code *Hash} methods, which take keys hashed by
 * {@link #hasher()}, e.g. straight out of an I/O buffer. A query's false is certain; its true is
 * wrong with probability about {@link CellArrayStats#currentFpp()}.
 *
 * <p><b>Batches.</b> The {@code addAll}, {@code addHashes}, {@code mightContainAll} and
 * {@code mightContainHashes} calls probe keys in groups whose cache misses overlap, which pays once
 * the filter outgrows the caches ({@code internal.probe.BatchProber} says why and when).
 */
public final class BloomFilter implements CountingFilter {
    private final Path path;
    private final FilterHeader header;
    private final BloomSpec spec;
    private final FilterMemory memory;
    private final FilterState state;
    private final CellArray cells;
    private final CellProbes probes;
    /** The operations of a version 4 file's cell rule; null for a plain file (set a bit / count). */
    private RuledCells rules;
    private final BatchProber batches;
    private final CellsIntegrity integrity;
    private final KeyHasher hasher;
    /** The probes of a guava filter of Guava's 64-bit strategy, whose keys need more than one 64-bit hash; else null. */
    private final GuavaWideProbes wide;
    private final boolean writable;
    private final LongAdder unpublishedInsertions = new LongAdder();
    private volatile boolean closed;
    /** Whether this writer's count in the file was given back (by close, or at JVM exit); guarded by this. */
    private boolean writerReleased;

    /**
     * A handle on {@code memory}, the file of {@code header}: mapped, or a builder's image.
     *
     * @param singleWriter whether one thread alone adds (a builder's image, until sealed): its adds
     *     are then plain stores, not compare-and-sets ({@link CellArray#singleWriter})
     */
    BloomFilter(Path path, FilterHeader header, FilterMemory memory, boolean singleWriter) {
        this.path = path;
        this.header = header;
        this.spec = header.spec();
        this.memory = memory;
        this.state = new FilterState(memory.store());
        this.cells = singleWriter
                ? CellArray.singleWriter(memory.store(), CELLS_START, spec.cells(), spec.counterBits(), spec.cellBytes())
                : new CellArray(memory.store(), CELLS_START, spec.cells(), spec.counterBits(), spec.cellBytes());
        this.probes = new CellProbes(spec, cells);
        CellRule rule = header.rule();
        this.rules = rule.isPlain() ? null : new RuledCells(spec, cells, rule.kind() == CellRule.Kind.MAX, rule.decrements());
        this.batches = new BatchProber(spec, probes);
        this.integrity = new CellsIntegrity(path, header, state, memory, cells);
        this.hasher = KeyHasher.of(spec);
        this.wide = GuavaWideProbes.appliesTo(spec) ? new GuavaWideProbes(spec, cells) : null;
        this.writable = !memory.readOnly();
    }

    // ---------------------------------------------------------------- lifecycle

    /**
     * Bytes of a fixed filter file of shape {@code spec}, as {@link #create} makes it: its header
     * page and its cells ({@link BloomSpec#cellBytes()}), whether or not it is created sparse.
     *
     * @param spec the filter's shape
     * @return the file's length in bytes
     */
    public static long fileBytes(BloomSpec spec) {
        return CELLS_START + spec.cellBytes();
    }

    /**
     * Creates a new filter file, atomically, and opens it read-write.
     *
     * @param path the file to create; its directory must exist
     * @param spec the filter's shape: cells, hashes, counter bits, layout, seed
     * @param options {@link CreateOption#REPLACE_EXISTING}, {@link CreateOption#SPARSE}; none for neither
     * @return the new filter, open read-write; close it when done
     * @throws FileAlreadyExistsException if the file exists and {@link CreateOption#REPLACE_EXISTING} is not given
     * @throws IOException if the disk cannot hold the cells (unless {@link CreateOption#SPARSE})
     * @throws IllegalStateException if the JVM was started without the flags that mapping a file of
     *     this size needs (the message names them; README, "The Java API"); nothing is created
     */
    public static BloomFilter create(Path path, BloomSpec spec, CreateOption... options) throws IOException {
        return create(path, spec, CellRule.PLAIN, options);
    }

    /**
     * Creates a new stable filter file ({@link StableSpec}), atomically, and opens it read-write: its
     * {@link #add} decrements P cells, then sets the key's; {@link #mightContain} and everything
     * else work as on any fixed filter, but remove (its cells do not count keys). Version 4 of the
     * format: a bloomstore that predates stable filters refuses the file.
     *
     * @param path the file to create; its directory must exist
     * @param spec the stable filter's shape
     * @param options as {@link #create}
     * @return the new filter, open read-write; close it when done
     * @throws IOException as {@link #create}
     */
    public static BloomFilter createStable(Path path, StableSpec spec, CreateOption... options) throws IOException {
        return create(path, spec.spec(), spec.rule(), options);
    }

    /** {@link #create}, of a file whose cells follow {@code rule}. */
    static BloomFilter create(Path path, BloomSpec spec, CellRule rule, CreateOption... options) throws IOException {
        Set<CreateOption> set = options.length == 0 ? Set.of() : Set.of(options);
        FilterHeader header = FilterHeader.newFile(spec, rule, System.currentTimeMillis(), set.contains(CreateOption.SPARSE));
        FilterFiles.publishFilter(path, set.contains(CreateOption.REPLACE_EXISTING), header, true,
                FilterFiles.emptyCells(header));
        return open(path, OpenMode.READ_WRITE);
    }

    /**
     * The stable filter's shape and model, if this is a stable filter ({@link #createStable}).
     *
     * @return the shape, or empty for any other filter
     */
    public Optional<StableSpec> stableSpec() {
        CellRule rule = header.rule();
        return rule.kind() == CellRule.Kind.STABLE ? Optional.of(StableSpec.of(spec, rule)) : Optional.empty();
    }

    /**
     * Opens an existing filter file. O(1) whatever its size: the header is read and checked, the
     * file is mapped, and pages come in as keys touch them.
     *
     * @param path the filter file
     * @param mode {@link OpenMode#READ_ONLY} to query only, {@link OpenMode#READ_WRITE} to add too
     * @return the open filter; close it when done
     * @throws InvalidFilterFileException if the file is damaged or not a filter; the problem says how
     * @throws NoSuchFileException if there is no file
     * @throws AccessDeniedException if READ_WRITE is asked of a file this process may not write
     * @throws IllegalStateException if the JVM was started without the flags that mapping a file of
     *     this size needs (the message names them; README, "The Java API")
     */
    public static BloomFilter open(Path path, OpenMode mode) throws IOException {
        return map(path, CheckedFile.open(path, mode == OpenMode.READ_ONLY), mode);
    }

    /**
     * Opens the filter file already open on {@code channel} (by {@link MembershipFilter#open}, which
     * read its kind through it), which it takes over: closed with the filter, or here on failure.
     */
    static BloomFilter open(Path path, FileChannel channel, OpenMode mode) throws IOException {
        return map(path, CheckedFile.check(path, channel), mode);
    }

    /** Maps the checked file through its own channel; a writer withdraws the seal before any cell may change. */
    private static BloomFilter map(Path path, CheckedFile file, OpenMode mode) throws IOException {
        boolean readOnly = mode == OpenMode.READ_ONLY;
        BloomFilter filter = new BloomFilter(path, file.header(),
                FileMapping.map(path, file.channel(), file.header().fileLength(), readOnly), false);
        if (!readOnly) {
            filter.state.addOpenWriters(1);
            WritersAtExit.register(filter);
            filter.state.unsealVolatile();
        }
        return filter;
    }

    /**
     * Opens the filter at {@code path} read-write if it exists, else creates it with {@code spec}:
     * the restart case of a dedup index.
     *
     * @param path the filter file, existing or not
     * @param spec the shape to create with, which an existing file must have too
     * @param options as {@link #create}; used only if the file is created
     * @return the filter, open read-write
     * @throws InvalidFilterFileException with {@link Problem#INCOMPATIBLE} if the existing file has
     *     another shape (the message names the first field that differs)
     */
    public static BloomFilter openOrCreate(Path path, BloomSpec spec, CreateOption... options) throws IOException {
        for (int attempt = 0; ; attempt++) {
            if (Files.exists(path)) {
                // the header compared is the one read through the descriptor that is then mapped
                return map(path, CheckedFile.openMatching(path, spec), OpenMode.READ_WRITE);
            }
            try {
                return create(path, spec, options);
            } catch (FileAlreadyExistsException e) {
                if (attempt > 0) {
                    throw e;
                }
                // another process created it between our check and our create: open theirs
            }
        }
    }

    /**
     * Publishes this handle's insertion count, marks it no longer a writer and unmaps the file.
     * Idempotent. Updates already made stay in the file; call {@link #sync()} first for durability
     * against power loss.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        releaseWriter();
        closed = true;
        if (writable) {
            WritersAtExit.unregister(this);
        }
        memory.close();
    }

    /**
     * Publishes this handle's insertion count and lowers the file's writer count, once: at
     * {@link #close()}, or from the shutdown hook of {@link WritersAtExit} when the process ends
     * with the handle open. Under the lock {@link #close()} holds while it unmaps, so the hook never
     * writes to a mapping being unmapped.
     */
    synchronized void releaseWriter() {
        if (writable && !closed && !writerReleased) {
            writerReleased = true;
            publishInsertions();
            state.addOpenWriters(-1);
        }
    }

    /**
     * Forces every change made so far, through any handle, to the storage device (fsync of the mapped file); waits
     * for the device. Costs about one write of the filter's dirty pages.
     *
     * @throws IOException if the device reports an error
     */
    public void sync() throws IOException {
        ensureOpen();
        if (writable) {
            publishInsertions();
            memory.sync();
        }
    }

    // ---------------------------------------------------------------- add and query by hash

    /**
     * {@inheritDoc} A stable filter ({@link #createStable}) adds by its rule: it first decrements its
     * P cells, then sets the key's cells to the maximum; it returns whether the key read absent
     * before. A valued filter's keys are added with a value ({@link ValuedFilter#put}).
     *
     * @throws UnsupportedOperationException for a valued filter
     */
    @Override
    public boolean addHash(long hash) {
        ensureWritable();
        if (rules != null) {
            return addByRule(hash);
        }
        boolean changed = probes.increment(hash);
        if (changed) {
            unpublishedInsertions.increment();
        }
        return changed;
    }

    @Override
    public int addHashes(long[] hashes, int count) {
        ensureWritable();
        if (rules != null) {
            int added = 0;
            for (int i = 0; i < count; i++) {
                added += addByRule(hashes[i]) ? 1 : 0;
            }
            return added;
        }
        int added = batches.addHashes(hashes, count);
        unpublishedInsertions.add(added); // one update per batch, not one per key
        return added;
    }

    private boolean addByRule(long hash) {
        if (header.rule().isValued()) {
            throw new UnsupportedOperationException(path + " is a " + header.rule().label()
                    + " filter, which holds a value per key: add KEY=VALUE pairs (ValuedFilter.put)");
        }
        boolean changed = rules.addStable(hash);
        if (changed) {
            unpublishedInsertions.increment();
        }
        return changed;
    }

    /** Counts one add that changed a cell, as every add of this handle is counted: a valued filter's put ({@link ValuedFilter}). */
    void countInsertion() {
        unpublishedInsertions.increment();
    }

    /** The operations of the file's cell rule, for {@link ValuedFilter}; null for a plain file. */
    RuledCells rules() {
        ensureOpen();
        return rules;
    }

    /** Draws this handle's stable decrements from a generator seeded with {@code seed}: a test's reproducible stream, one thread. */
    void seedDecrements(long seed) {
        rules = RuledCells.seededStable(spec, cells, header.rule().decrements(), seed);
    }

    @Override
    public boolean mightContainHash(long hash) {
        ensureOpen();
        return probes.mightContain(hash);
    }

    @Override
    public int mightContainHashes(long[] hashes, int count, boolean[] results) {
        ensureOpen();
        HashChunks.requireRoom(count, results);
        return batches.mightContainHashes(hashes, count, results);
    }

    // The key batch queries hash each group of 16 right before probing it, not a chunk of keys
    // first as MembershipFilter's do: the chunked queries took 5 to 20% more CPU per key in most
    // rows of six interleaved rounds at 1 M and 10 M keys; the chunked adds did not.
    @Override
    public int mightContainAll(long[] keys, boolean[] results) {
        ensureOpen();
        HashChunks.requireRoom(keys.length, results);
        return batches.mightContainAll(keys.length, i -> hasher.hash(keys[i]), results);
    }

    @Override
    public int mightContainAll(byte[][] keys, boolean[] results) {
        ensureOpen();
        HashChunks.requireRoom(keys.length, results);
        return batches.mightContainAll(keys.length, i -> hasher.hash(keys[i]), results);
    }

    // ---------------------------------------------------------------- keys of a guava filter of the 64-bit strategy
    // Such a filter's probes take a 128-bit hash (GuavaWideProbes), so its single-key calls probe
    // from the key here; every other filter's go through one 64-bit hash, as MembershipFilter's do.

    @Override
    public boolean add(long key) {
        return wide == null ? addHash(hasher.hash(key)) : addWide(GuavaHash.of(key));
    }

    @Override
    public boolean add(byte[] key) {
        return add(key, 0, key.length);
    }

    @Override
    public boolean add(CharSequence key) {
        return wide == null ? addHash(hasher.hash(key)) : addWide(GuavaHash.of(key));
    }

    @Override
    public boolean add(byte[] key, int offset, int length) {
        return wide == null ? addHash(hasher.hash(key, offset, length)) : addWide(GuavaHash.of(key, offset, length));
    }

    @Override
    public boolean add(ByteBuffer key) {
        return wide == null ? addHash(hasher.hash(key)) : addWide(GuavaHash.of(key));
    }

    @Override
    public boolean mightContain(long key) {
        return wide == null ? mightContainHash(hasher.hash(key)) : mightContainWide(GuavaHash.of(key));
    }

    @Override
    public boolean mightContain(byte[] key) {
        return mightContain(key, 0, key.length);
    }

    @Override
    public boolean mightContain(CharSequence key) {
        return wide == null ? mightContainHash(hasher.hash(key)) : mightContainWide(GuavaHash.of(key));
    }

    @Override
    public boolean mightContain(byte[] key, int offset, int length) {
        return wide == null ? mightContainHash(hasher.hash(key, offset, length))
                : mightContainWide(GuavaHash.of(key, offset, length));
    }

    @Override
    public boolean mightContain(ByteBuffer key) {
        return wide == null ? mightContainHash(hasher.hash(key)) : mightContainWide(GuavaHash.of(key));
    }

    /** Whether keys reach this filter only through the single-key calls (a guava filter of the 64-bit strategy). */
    boolean probesKeysOnly() {
        return wide != null;
    }

    private boolean addWide(long[] pair) {
        ensureWritable();
        boolean changed = wide.put(pair);
        if (changed) {
            unpublishedInsertions.increment();
        }
        return changed;
    }

    private boolean mightContainWide(long[] pair) {
        ensureOpen();
        return wide.mightContain(pair);
    }

    // ---------------------------------------------------------------- counting

    @Override
    public boolean removeHash(long hash) {
        if (!spec.isCounting()) {
            throw new UnsupportedOperationException("remove needs a counting filter (counter bits > 1); "
                    + path + " has 1-bit cells");
        }
        if (rules != null) {
            throw new UnsupportedOperationException("remove needs a counting filter; " + path + " is a "
                    + header.rule().label() + " filter, whose cells do not count keys");
        }
        ensureWritable();
        if (!probes.decrement(hash)) {
            return false;
        }
        state.countLowering();
        return true;
    }

    @Override
    public long countHash(long hash) {
        ensureOpen();
        return probes.minimum(hash);
    }

    // ---------------------------------------------------------------- state and statistics

    /**
     * Scans the cells (one pass over the file) and reports how full the filter is.
     *
     * @return the cells set, the fill ratio, the estimated keys and false-positive rate
     */
    public CellArrayStats stats() {
        return stats(null);
    }

    /**
     * {@link #stats()}, telling {@code bytesScanned} how many bytes of cells were scanned so far
     * (every few MiB and at the end, up to {@link FilterFileInfo#cellsLength()}), for a progress
     * display over a large file.
     *
     * @param bytesScanned told the bytes scanned so far, on the calling thread; or null
     * @return as {@link #stats()}
     */
    public CellArrayStats stats(LongConsumer bytesScanned) {
        ensureOpen();
        publishInsertions();
        long set = cells.countNonZero(bytesScanned);
        long m = spec.cells();
        double keys = FillEstimates.estimateKeys(spec, set);
        return new CellArrayStats(m, set, (double) set / m, keys, FillEstimates.currentFpp(spec, set, keys),
                state.getApproximateInsertionsVolatile());
    }

    /**
     * The distinct keys added so far, as the adds that returned "new" count them: those every
     * handle of every process has published (at sync, close, seal and statistics) plus this
     * handle's own. A lower bound, since a key whose cells other keys had all set counts as not
     * new. Reads two counters: cheap enough to call after every batch, unlike {@link #stats()}.
     *
     * @return the count, 0 for an empty filter
     */
    public long approximateKeys() {
        ensureOpen();
        return FilterState.saturatingSum(state.getApproximateInsertionsVolatile(), unpublishedInsertions.sum());
    }

    /**
     * Whether the filter holds more keys than it was sized for ({@link BloomSpec#expectedKeys()}),
     * by {@link #approximateKeys()}: past it, the false-positive rate climbs above the target
     * ({@link BloomSpec#expectedFpp} of the key count says how far; for a dedup index every false
     * positive is a new key taken for a repeat). Always false for a filter sized by cells and
     * hashes, which has no capacity, and for a stable filter. A filter that must take keys without end is a
     * {@link GrowingBloomFilter} or a {@link WindowedBloomFilter}.
     *
     * @return true once the count passes the expected keys
     */
    public boolean isPastCapacity() {
        // a stable filter's n is the lifetime it was sized for: it takes keys without end
        return spec.expectedKeys() > 0 && header.rule().kind() != CellRule.Kind.STABLE
                && approximateKeys() > spec.expectedKeys();
    }

    /**
     * Records a checksum of the cells in the header, marking the filter sealed: {@link #verify()}
     * can then detect any damage to them. Opening the file read-write again unseals it. Callers
     * must make sure no other handle is adding meanwhile, or the checksum is stale at once.
     *
     * @throws IOException if the checksum cannot be forced to the device
     */
    public void seal() throws IOException {
        ensureWritable();
        publishInsertions();
        state.sealOrdered(integrity.cellsChecksum());
        memory.sync();
    }

    /**
     * Whether the filter was sealed and not reopened for writing since.
     *
     * @return true if sealed and unchanged since
     */
    public boolean isSealed() {
        ensureOpen();
        return state.getSealStateVolatile() == FilterFileDescriptor.SEALED;
    }

    /**
     * {@inheritDoc} Here: that the header and the state area were created together (the file
     * identity, format version 3), that every padding bit after the last cell is zero, and, if the
     * filter is sealed, the cells against the checksum recorded when it was sealed. An unsealed
     * filter's cells have no checksum: damage to them is not detectable, only damage to the header,
     * the length and the padding. Only a seal that stood unchanged through the pass over the cells
     * judges them: one withdrawn meanwhile (a handle opened for writing) is no verdict on them; a
     * file sealed anew is checked again.
     *
     * @return {@link CellsCheck#INTACT}, {@link CellsCheck#NOT_SEALED} or {@link CellsCheck#UNSEALED_DURING_CHECK}
     * @throws InvalidFilterFileException {@link Problem#HEADER_MISMATCH} if the header is another
     *     file's, {@link Problem#CELLS_PADDING} if a padding bit is set, {@link Problem#CELLS_CHECKSUM}
     *     if the cells do not match the checksum of a seal that stood through the pass
     * @throws IllegalStateException if the file was sealed anew during every one of several passes
     */
    @Override
    public CellsCheck verify() throws InvalidFilterFileException {
        ensureOpen();
        return integrity.check(null);
    }

    @Override
    public CellsCheck verify(LongConsumer bytesRead) throws InvalidFilterFileException {
        Objects.requireNonNull(bytesRead, "bytesRead");
        ensureOpen();
        return integrity.check(bytesRead);
    }

    /**
     * The checksum of the cells recorded by {@link #seal()}, if the filter is sealed; empty if not.
     *
     * @return the checksum, or empty if the filter is not sealed
     */
    OptionalLong sealedChecksum() {
        return isSealed() ? OptionalLong.of(state.getCellsChecksumVolatile()) : OptionalLong.empty();
    }

    /**
     * The number of handles open for writing, by the header's count (stale after a crash).
     *
     * @return the count, 0 when no handle is a writer; this handle counts if it is one
     */
    int openWriters() {
        ensureOpen();
        return state.getOpenWritersVolatile();
    }

    // ---------------------------------------------------------------- accessors

    @Override
    public Path path() {
        return path;
    }

    /**
     * The filter's shape, as its header records it.
     *
     * @return the shape from the header
     */
    public BloomSpec spec() {
        return spec;
    }

    /** The file's header, for this package's operations; {@link #info()} is its public form. */
    FilterHeader header() {
        return header;
    }

    @Override
    public Optional<BloomFilter> asFixed() {
        return Optional.of(this);
    }

    @Override
    public FilterKind kind() {
        return FilterKind.FIXED;
    }

    @Override
    public FilterShape.Fixed shape() {
        return new FilterShape.Fixed(info(), approximateKeys(), sealedChecksum(), openWriters());
    }

    @Override
    public long fileBytes() {
        return header.fileLength();
    }

    /**
     * What the file's header says: format, shape, creation time, where the cells lie.
     *
     * @return the header's fields
     */
    public FilterFileInfo info() {
        return header.info();
    }

    @Override
    public boolean isReadOnly() {
        return !writable;
    }

    @Override
    public KeyHasher hasher() {
        return hasher;
    }

    /** The cells, for whole-filter operations (merge, pack, estimates) in this package. */
    CellArray cells() {
        ensureOpen();
        return cells;
    }

    /** Counts a lowering of cells that a whole-filter operation of this package (an AND merge) just made. */
    void countLowering() {
        state.countLowering();
    }

    @Override
    public String toString() {
        return "BloomFilter[" + path + ", " + spec + (writable ? ", read-write" : ", read-only") + "]";
    }

    private void publishInsertions() {
        if (writable) {
            state.addApproximateInsertions(unpublishedInsertions.sumThenReset());
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException(path + " is closed");
        }
    }

    private void ensureWritable() {
        ensureOpen();
        if (!writable) {
            throw new IllegalStateException(path + " is open read-only; open it READ_WRITE to change it");
        }
    }
}
