package io.bloomstore;

import io.bloomstore.internal.files.FilterFiles;
import io.bloomstore.internal.probe.Probing;
import io.bloomstore.internal.cells.CellArray;
import io.bloomstore.internal.cells.FileMapping;
import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.internal.format.FilterHeader;
import io.bloomstore.internal.format.FilterState;
import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.internal.hashing.CellsChecksum;
import io.bloomstore.internal.math.FalsePositiveMath;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntToLongFunction;

/**
 * A Bloom filter (or counting Bloom filter) living in a memory-mapped file.
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
 * and no update is lost. A handle must not be used after (or during) its {@link #close()}.
 *
 * <p><b>Durability.</b> An add that has returned is in the page cache: it survives the process
 * being killed. {@link #sync()} forces the file to the device, so what was added before it
 * survives a power cut too.
 *
 * <p><b>Keys.</b> byte[], {@link ByteBuffer}, long and {@link CharSequence} keys are hashed by their
 * canonical bytes ({@link KeyHasher}); none of the single-key methods allocate.
 */
public final class BloomFilter implements MembershipFilter {
    /**
     * Keys per batch step: enough independent misses to fill the CPU's miss buffers (10-12 line
     * fill buffers per core), few enough that their lines are still in L1 when probed.
     */
    private static final int BATCH = 16;
    /**
     * A standard-layout filter this small keeps its lines in the caches, where loading them ahead
     * buys nothing. 2 MiB is a core's L2 on the Xeons of docs/BENCHMARKS.md; on an EPYC with 512 KiB
     * of L2 and 32 MiB of L3 the pass still cost at 1.2 MB (batch queries of absent long keys at
     * n = 1 M: 23.2 M/s without it, 15.2 M/s with it), as L3 hits overlap without help.
     */
    private static final long CACHE_RESIDENT_BYTES = 2L << 20;
    /** Any value: {@link #touch} compares its loads' sum with it. */
    private static final long TOUCH_SENTINEL = 0x626C_6F6F_6D73_7472L;
    private final Path path;
    private final FilterHeader header;
    private final BloomSpec spec;
    private final FileMapping mapping;
    private final FilterState state;
    private final CellArray cells;
    private final Probing probing;
    private final KeyHasher hasher;
    private final int hashes;
    /**
     * Whether the batch calls load the keys' lines ahead ({@link #touch}): always, except in a
     * standard-layout filter that fits in the caches, where the k probes hit the cache anyway and
     * the pass would load each line twice (n = 1 M, 1.2 MB: batch queries at 1.74x Guava against
     * 1.96x for single calls before this rule). A blocked filter's one line per key pays even there.
     */
    private final boolean loadsAhead;
    private final boolean writable;
    private final LongAdder unpublishedInsertions = new LongAdder();
    /** Sink of {@link #touch}'s loads; its value means nothing. */
    @SuppressWarnings("unused")
    private long touched;
    private volatile boolean closed;

    private BloomFilter(Path path, FilterHeader header, FileMapping mapping) {
        this.path = path;
        this.header = header;
        this.spec = header.spec();
        this.mapping = mapping;
        this.state = new FilterState(mapping.address());
        this.cells = new CellArray(mapping.address() + FilterFileDescriptor.CELLS_START, spec.cells(),
                spec.counterBits(), spec.cellBytes());
        this.probing = Probing.of(spec);
        this.hasher = new KeyHasher(spec.hashAlgorithm(), spec.seed());
        this.hashes = spec.hashes();
        this.loadsAhead = spec.layout() == Layout.BLOCKED || spec.cellBytes() > CACHE_RESIDENT_BYTES;
        this.writable = !mapping.readOnly();
    }

    // ---------------------------------------------------------------- lifecycle

    /**
     * Creates a new filter file, atomically, and opens it read-write.
     *
     * @throws FileAlreadyExistsException if the file exists and {@link CreateOption#REPLACE_EXISTING} is not given
     * @throws IOException if the disk cannot hold the cells (unless {@link CreateOption#SPARSE})
     */
    public static BloomFilter create(Path path, BloomSpec spec, CreateOption... options) throws IOException {
        Set<CreateOption> set = options.length == 0 ? Set.of() : Set.of(options);
        FilterHeader header = new FilterHeader(spec, System.currentTimeMillis(), set.contains(CreateOption.SPARSE));
        FilterFiles.publish(path, set.contains(CreateOption.REPLACE_EXISTING), header.sparse() ? 0 : header.fileLength(),
                FilterFiles.emptyFilter(header));
        return open(path, OpenMode.READ_WRITE);
    }

    /**
     * Opens an existing filter file. O(1) whatever its size: the header is read and checked, the
     * file is mapped, and pages come in as keys touch them.
     *
     * @throws InvalidFilterFileException if the file is damaged or not a filter; the problem says how
     * @throws NoSuchFileException if there is no file
     * @throws AccessDeniedException if READ_WRITE is asked of a file this process may not write
     */
    public static BloomFilter open(Path path, OpenMode mode) throws IOException {
        boolean readOnly = mode == OpenMode.READ_ONLY;
        requireRegularFile(path);
        if (!readOnly && Files.exists(path) && !Files.isWritable(path)) {
            throw new AccessDeniedException(path.toString(), null, "is not writable; open it read-only or fix its permissions");
        }
        // One descriptor for the header check, the mapping and sync: a file renamed over the path
        // meanwhile can never be mapped with another file's header.
        FileChannel channel = readOnly
                ? FileChannel.open(path, StandardOpenOption.READ)
                : FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
        FilterHeader header;
        try {
            header = readHeader(path, channel);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        BloomFilter filter = new BloomFilter(path, header, FileMapping.map(path, channel, header.fileLength(), readOnly));
        if (!readOnly) {
            filter.state.addOpenWriters(1);
            filter.state.unsealVolatile();
        }
        return filter;
    }

    /**
     * Opens the filter at {@code path} read-write if it exists, else creates it with {@code spec}:
     * the restart case of a dedup index.
     *
     * @throws InvalidFilterFileException with {@link Problem#INCOMPATIBLE} if the existing file has
     *     another shape (the message names the first field that differs)
     */
    public static BloomFilter openOrCreate(Path path, BloomSpec spec, CreateOption... options) throws IOException {
        for (int attempt = 0; ; attempt++) {
            if (Files.exists(path)) {
                // Compare before opening for writing, which would unseal a file we then refuse.
                var difference = readHeader(path).spec().differenceFrom(spec);
                if (difference.isPresent()) {
                    throw new InvalidFilterFileException(path, Problem.INCOMPATIBLE, "exists with another shape ("
                            + difference.get() + "); open it with its own parameters or delete it");
                }
                return open(path, OpenMode.READ_WRITE);
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

    /** Reads and checks the header of {@code path} without mapping it. */
    public static FilterFileInfo readInfo(Path path) throws IOException {
        return FilterFileInfo.of(readHeader(path));
    }

    /** Reads and checks the header of {@code path} without mapping it. */
    public static FilterHeader readHeader(Path path) throws IOException {
        requireRegularFile(path);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            return readHeader(path, channel);
        }
    }

    private static void requireRegularFile(Path path) throws InvalidFilterFileException {
        if (Files.isDirectory(path)) {
            throw new InvalidFilterFileException(path, Problem.NOT_A_REGULAR_FILE, "is a directory, not a filter file");
        }
        if (Files.exists(path) && !Files.isRegularFile(path)) {
            throw new InvalidFilterFileException(path, Problem.NOT_A_REGULAR_FILE, "is not a regular file");
        }
    }

    /** Reads the header through {@code channel} and checks it against the channel's file length. */
    private static FilterHeader readHeader(Path path, FileChannel channel) throws IOException {
        long length = channel.size();
        ByteBuffer bytes = ByteBuffer.allocate((int) Math.min(length, FilterFileDescriptor.HEADER_LENGTH));
        while (bytes.hasRemaining() && channel.read(bytes, bytes.position()) >= 0) {
            // read until full or end of file
        }
        return FilterHeader.decode(path, Arrays.copyOf(bytes.array(), bytes.position()), length);
    }

    /**
     * Publishes this handle's insertion count, marks it no longer a writer and unmaps the file.
     * Idempotent. Updates already made stay in the file; call {@link #sync()} first for durability
     * against power loss.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (writable) {
            publishInsertions();
            state.addOpenWriters(-1);
        }
        mapping.close();
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
            mapping.sync();
        }
    }

    // ---------------------------------------------------------------- add

    /**
     * Adds a key.
     *
     * <p>When several threads or processes add the same new key at the same instant, each sets
     * some of its k cells, so more than one of them may be told "new" (at least one always is).
     * A dedup consumer that must process a key exactly once across concurrent adders needs to
     * route each key to one adder (e.g. by hash partition).
     *
     * @return true if the key was definitely absent before this call (this call changed one of
     *     its cells from zero); false if it may have been present already
     */
    public boolean add(long key) {
        return addHash(hasher.hash(key));
    }

    /** @see #add(long) */
    public boolean add(byte[] key) {
        return addHash(hasher.hash(key));
    }

    /** Adds the key {@code key[offset .. offset + length)}. @see #add(long) */
    public boolean add(byte[] key, int offset, int length) {
        return addHash(hasher.hash(key, offset, length));
    }

    /** Adds the buffer's remaining bytes as a key; position and limit are unchanged. @see #add(long) */
    public boolean add(ByteBuffer key) {
        return addHash(hasher.hash(key));
    }

    /** Adds the UTF-8 bytes of {@code key}. @see #add(long) */
    public boolean add(CharSequence key) {
        return addHash(hasher.hash(key));
    }

    /**
     * Adds the key whose hash ({@link #hasher()}) is {@code hash}: for callers that hash keys
     * themselves, e.g. straight out of an I/O buffer.
     */
    public boolean addHash(long hash) {
        ensureWritable();
        boolean changed = incrementCells(hash);
        if (changed) {
            unpublishedInsertions.increment();
        }
        return changed;
    }

    /**
     * Increments the k cells of the key whose hash is {@code hash}, without counting the key: the
     * batch calls count a whole batch with one update of {@link #unpublishedInsertions}, whose
     * compare-and-set would otherwise be one more locked instruction per key.
     *
     * @return whether one of the cells was zero before
     */
    private boolean incrementCells(long hash) {
        long base = probing.base(hash);
        long step = probing.step(hash);
        boolean changed = false;
        for (int i = 0; i < hashes; i++) {
            changed |= cells.incrementSaturating(probing.index(base, step, i)) == 0;
        }
        return changed;
    }

    /**
     * Adds many keys. Keys are hashed and probed in groups of 16, so that the CPU overlaps the cache
     * misses of different keys (see {@link #addHashes}).
     *
     * @return how many of them were definitely new
     */
    public int addAll(long[] keys) {
        return addAll(keys.length, i -> hasher.hash(keys[i]));
    }

    /** Adds many byte[] keys. @see #addAll(long[]) */
    public int addAll(byte[][] keys) {
        return addAll(keys.length, i -> hasher.hash(keys[i]));
    }

    /** Adds many string keys. @see #addAll(long[]) */
    public int addAll(Iterable<? extends CharSequence> keys) {
        int added = 0;
        for (CharSequence key : keys) {
            added += add(key) ? 1 : 0;
        }
        return added;
    }

    /**
     * Adds the keys whose hashes are {@code hashes[0 .. count)}, in groups of 16: first the cache
     * lines of a group's keys are loaded, all at once, then their cells are set.
     *
     * @return how many of them were definitely new
     */
    public int addHashes(long[] hashes, int count) {
        ensureWritable();
        int added = 0;
        for (int from = 0; from < count; from += BATCH) {
            added += addGroup(hashes, from, Math.min(count, from + BATCH));
        }
        unpublishedInsertions.add(added);
        return added;
    }

    /** Adds keys {@code 0 .. count)}, key i hashing to {@code hashOfKey(i)}. */
    private int addAll(int count, IntToLongFunction hashOfKey) {
        ensureWritable();
        int added = 0;
        if (!loadsAhead) {
            // No misses to overlap: hashing each key right before its probes lets the CPU work on
            // the next key's hash while this key's compare-and-sets complete (n = 1 M, standard
            // layout, 16-byte keys: 9.99 M adds/s this way against 8.83 hashing a group first).
            for (int i = 0; i < count; i++) {
                added += incrementCells(hashOfKey.applyAsLong(i)) ? 1 : 0;
            }
            unpublishedInsertions.add(added);
            return added;
        }
        long[] group = new long[BATCH];
        for (int from = 0; from < count; from += BATCH) {
            int size = Math.min(BATCH, count - from);
            hashGroup(hashOfKey, from, size, group);
            added += addGroup(group, 0, size);
        }
        unpublishedInsertions.add(added);
        return added;
    }

    /** Hashes keys {@code from .. from + size)} into {@code group[0 .. size)}. */
    private static void hashGroup(IntToLongFunction hashOfKey, int from, int size, long[] group) {
        for (int i = 0; i < size; i++) {
            group[i] = hashOfKey.applyAsLong(from + i);
        }
    }

    /** Adds the keys of {@code hashes[from .. to)}, at most {@value #BATCH} of them. */
    private int addGroup(long[] hashes, int from, int to) {
        if (loadsAhead) {
            touch(hashes, from, to);
        }
        int added = 0;
        for (int i = from; i < to; i++) {
            added += incrementCells(hashes[i]) ? 1 : 0;
        }
        return added;
    }

    // ---------------------------------------------------------------- query

    /** Whether {@code key} may have been added: false is certain, true is wrong with probability ~ {@link FilterStats#currentFpp()}. */
    public boolean mightContain(long key) {
        return mightContainHash(hasher.hash(key));
    }

    /** @see #mightContain(long) */
    public boolean mightContain(byte[] key) {
        return mightContainHash(hasher.hash(key));
    }

    /** @see #mightContain(long) */
    public boolean mightContain(byte[] key, int offset, int length) {
        return mightContainHash(hasher.hash(key, offset, length));
    }

    /** @see #mightContain(long) */
    public boolean mightContain(ByteBuffer key) {
        return mightContainHash(hasher.hash(key));
    }

    /** @see #mightContain(long) */
    public boolean mightContain(CharSequence key) {
        return mightContainHash(hasher.hash(key));
    }

    /** Whether the key whose hash is {@code hash} may have been added. */
    public boolean mightContainHash(long hash) {
        ensureOpen();
        long base = probing.base(hash);
        long step = probing.step(hash);
        for (int i = 0; i < hashes; i++) {
            if (cells.getVolatile(probing.index(base, step, i)) == 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Queries many keys; {@code results[i]} answers {@code keys[i]}. Keys are hashed and probed in
     * groups of 16, as by {@link #addAll(long[])}.
     *
     * @return how many may be present
     * @throws IllegalArgumentException if {@code results} is shorter than {@code keys}
     */
    public int mightContainAll(long[] keys, boolean[] results) {
        return mightContainAll(keys.length, i -> hasher.hash(keys[i]), results);
    }

    /** Queries many byte[] keys. @see #mightContainAll(long[], boolean[]) */
    public int mightContainAll(byte[][] keys, boolean[] results) {
        return mightContainAll(keys.length, i -> hasher.hash(keys[i]), results);
    }

    /** Queries the keys whose hashes are {@code hashes[0 .. count)} into {@code results}; returns how many may be present. */
    public int mightContainHashes(long[] hashes, int count, boolean[] results) {
        ensureOpen();
        requireRoomFor(count, results);
        int present = 0;
        for (int from = 0; from < count; from += BATCH) {
            present += queryGroup(hashes, from, Math.min(count, from + BATCH), results, 0);
        }
        return present;
    }

    /** Queries keys {@code 0 .. count)}, key i hashing to {@code hashOfKey(i)}, as {@link #addAll(int, IntToLongFunction)} adds them. */
    private int mightContainAll(int count, IntToLongFunction hashOfKey, boolean[] results) {
        ensureOpen();
        requireRoomFor(count, results);
        int present = 0;
        if (!loadsAhead) {
            for (int i = 0; i < count; i++) {
                boolean hit = mightContainHash(hashOfKey.applyAsLong(i));
                results[i] = hit;
                present += hit ? 1 : 0;
            }
            return present;
        }
        long[] group = new long[BATCH];
        for (int from = 0; from < count; from += BATCH) {
            int size = Math.min(BATCH, count - from);
            hashGroup(hashOfKey, from, size, group);
            present += queryGroup(group, 0, size, results, from);
        }
        return present;
    }

    /** Queries the keys of {@code hashes[from .. to)}; the answer to {@code hashes[i]} goes to {@code results[i + shift]}. */
    private int queryGroup(long[] hashes, int from, int to, boolean[] results, int shift) {
        if (loadsAhead) {
            touch(hashes, from, to);
        }
        int present = 0;
        for (int i = from; i < to; i++) {
            boolean hit = mightContainHash(hashes[i]);
            results[i + shift] = hit;
            present += hit ? 1 : 0;
        }
        return present;
    }

    private static void requireRoomFor(int count, boolean[] results) {
        if (results.length < count) {
            throw new IllegalArgumentException("results has room for " + results.length + " answers, not " + count);
        }
    }

    /**
     * Loads one word of every cache line that keys {@code hashes[from .. to)} will probe. These
     * loads do not depend on each other, so the CPU keeps many misses in flight (on these machines
     * 8 independent random loads cost about what 1 dependent one does) instead of paying them one
     * after another, each behind the branch that decides whether a key's probing goes on. The probing
     * pass that follows then finds the lines in cache. Java has no prefetch instruction; a plain load
     * whose result is kept is the portable equivalent.
     */
    private void touch(long[] hashes, int from, int to) {
        long sum = probing.loadLines(cells, hashes, from, to);
        // The JIT may drop loads whose values go nowhere. Compared, these stay; stored only on a
        // chance match, they do not write this object's cache line on every batch, which other
        // threads adding through the handle read on every call.
        if (sum == TOUCH_SENTINEL) {
            touched = sum;
        }
    }

    // ---------------------------------------------------------------- counting

    /**
     * Removes one occurrence of a key from a counting filter. A key that is definitely absent
     * changes nothing. Removing a key that was never added can cause false negatives for others:
     * remove only what you added.
     *
     * @return true if the key may have been present and its counters were decremented
     * @throws UnsupportedOperationException on a 1-bit filter
     */
    public boolean remove(long key) {
        return removeHash(hasher.hash(key));
    }

    /** @see #remove(long) */
    public boolean remove(byte[] key) {
        return removeHash(hasher.hash(key));
    }

    /** @see #remove(long) */
    public boolean remove(CharSequence key) {
        return removeHash(hasher.hash(key));
    }

    /** @see #remove(long) */
    public boolean removeHash(long hash) {
        requireCounting("remove");
        ensureWritable();
        if (!mightContainHash(hash)) {
            return false;
        }
        long base = probing.base(hash);
        long step = probing.step(hash);
        for (int i = 0; i < hashes; i++) {
            cells.decrementSaturating(probing.index(base, step, i));
        }
        return true;
    }

    /**
     * How many times a key may have been added to a counting filter: the smallest of its counters,
     * an upper bound (exact unless other keys share all its cells or a counter saturated).
     * On a 1-bit filter, 1 if it may be present, else 0.
     */
    public long count(long key) {
        return countHash(hasher.hash(key));
    }

    /** @see #count(long) */
    public long count(byte[] key) {
        return countHash(hasher.hash(key));
    }

    /** @see #count(long) */
    public long count(CharSequence key) {
        return countHash(hasher.hash(key));
    }

    /** @see #count(long) */
    public long countHash(long hash) {
        ensureOpen();
        long base = probing.base(hash);
        long step = probing.step(hash);
        long min = Long.MAX_VALUE;
        for (int i = 0; i < hashes && min > 0; i++) {
            min = Math.min(min, cells.getVolatile(probing.index(base, step, i)));
        }
        return min;
    }

    // ---------------------------------------------------------------- state and statistics

    /** Scans the cells (one pass over the file) and reports how full the filter is. */
    public FilterStats stats() {
        ensureOpen();
        publishInsertions();
        long set = cells.countNonZero();
        long m = spec.cells();
        double keys = FalsePositiveMath.estimateKeys(spec, set);
        return new FilterStats(m, set, (double) set / m, keys, FalsePositiveMath.currentFpp(spec, set, keys),
                state.getApproximateInsertionsVolatile());
    }

    /**
     * Records a checksum of the cells in the header, marking the filter sealed: {@link #verifyCells()}
     * can then detect any damage to them. Opening the file read-write again unseals it. Callers
     * must make sure no other handle is adding meanwhile, or the checksum is stale at once.
     */
    public void seal() throws IOException {
        ensureWritable();
        publishInsertions();
        state.sealOrdered(cellsChecksum());
        mapping.sync();
    }

    /** Whether the filter was sealed and not reopened for writing since. */
    public boolean isSealed() {
        ensureOpen();
        return state.getSealStateVolatile() == FilterFileDescriptor.SEALED;
    }

    /**
     * Checks a sealed filter's cells against the checksum recorded when it was sealed.
     *
     * @throws InvalidFilterFileException with {@link Problem#CELLS_CHECKSUM} on a mismatch
     * @throws IllegalStateException if the filter is not sealed
     */
    public void verifyCells() throws InvalidFilterFileException {
        if (!isSealed()) {
            throw new IllegalStateException(path + " is not sealed; there is no checksum to verify");
        }
        long expected = state.getCellsChecksumVolatile();
        long actual = cellsChecksum();
        if (expected != actual) {
            throw new InvalidFilterFileException(path, Problem.CELLS_CHECKSUM, String.format(
                    "cells are damaged (checksum %016x, sealed as %016x); restore the file from a pack or rebuild it",
                    actual, expected));
        }
    }

    /** The checksum of the cells recorded by {@link #seal()}, if the filter is sealed; empty if not. */
    public OptionalLong sealedChecksum() {
        return isSealed() ? OptionalLong.of(state.getCellsChecksumVolatile()) : OptionalLong.empty();
    }

    /** The number of handles open for writing, by the header's count (stale after a crash). */
    public int openWriters() {
        ensureOpen();
        return state.getOpenWritersVolatile();
    }

    private long cellsChecksum() {
        return CellsChecksum.of(cells.address(), spec.cellBytes());
    }

    // ---------------------------------------------------------------- accessors

    public Path path() {
        return path;
    }

    public BloomSpec spec() {
        return spec;
    }

    public FilterHeader header() {
        return header;
    }

    /** What the file's header says: format, shape, creation time, where the cells lie. */
    public FilterFileInfo info() {
        return FilterFileInfo.of(header);
    }

    /** Whether this handle was opened read-only. */
    public boolean isReadOnly() {
        return !writable;
    }

    /** The hasher that turns keys into the hashes the {@code *Hash} methods take. */
    public KeyHasher hasher() {
        return hasher;
    }

    /** The cells, for whole-filter operations (merge, pack, estimates) in this package. */
    public CellArray cells() {
        ensureOpen();
        return cells;
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

    private void requireCounting(String operation) {
        if (!spec.isCounting()) {
            throw new UnsupportedOperationException(operation + " needs a counting filter (counter bits > 1); "
                    + path + " has 1-bit cells");
        }
    }
}
