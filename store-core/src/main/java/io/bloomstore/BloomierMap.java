package io.bloomstore;

import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.internal.cells.FileMapping;
import io.bloomstore.internal.format.CheckedFile;
import io.bloomstore.internal.hashing.CellsChecksum;
import io.bloomstore.internal.hashing.ProbeMath;
import io.bloomstore.internal.map.FuseGraph;
import io.bloomstore.internal.map.MapBuild;
import io.bloomstore.internal.map.MapHeader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.LongConsumer;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * A Bloomier filter (Chazelle, Kilian, Rubinfeld &amp; Tal 2004): a static map from keys to small
 * values, built once from a complete set of pairs, in one memory-mapped, read-only file. A key of
 * the map always gets its value; any other key reads {@link #ABSENT}, except with probability
 * 2^−F, when it reads an arbitrary value.
 *
 * <p><b>Construction.</b> A 3-wise binary fuse retrieval table (Graf &amp; Lemire, "Binary Fuse
 * Filters", 2022; FastFilter's {@code XorBinaryFuse8} with values): each slot holds R value bits
 * and F fingerprint bits, and a key's three slots XOR to its fingerprint above its value. Chosen
 * over the alternatives by space, build speed and lookup cost: about 1.13 · (R + F) bits a key
 * for 10^6 keys and up (a plain XOR table needs 1.23; Sux4J's {@code GOV3Function} about 1.10 · R
 * but holds no fingerprint, so it cannot say "absent"; ribbon retrieval reaches 1.01–1.05 but its
 * lookups read a 64- to 128-bit band of rows and solve a linear system to build, where peeling is
 * a queue); three reads from three segments within 3L slots of one another, and a build that is a
 * linear-time peel of a hypergraph, retried with another seed in the rare case it does not peel.
 *
 * <p>Keys are hashed as filters hash them (their canonical bytes, docs/FORMAT.md, "Keys"; XXH3-64
 * with the file's seed), so a string key here is the same key as on the command line. Lookups
 * read the mapping directly, allocate nothing for {@code byte[]} and {@code long} keys, and are
 * safe from any number of threads; the file never changes once built. The file format is in
 * docs/FORMAT.md, "Bloomier maps: format version 5". As every bloomstore file, a map answers
 * {@link StoredFile}'s management questions: its header's fields are its {@link #shape()}.
 *
 * <pre>{@code
 * try (BloomierMap.Builder b = BloomierMap.builder(Path.of("shards.map"), 10).fpp(1e-3)) {
 *     b.put("user:1", 7);
 *     b.put("user:2", 3);
 *     b.build();
 * }
 * try (BloomierMap shards = BloomierMap.open(Path.of("shards.map"))) {
 *     long shard = shards.get("user:2"); // 3; BloomierMap.ABSENT for a user not in the map (p = 2^-10)
 * }
 * }</pre>
 */
public final class BloomierMap implements StoredFile {
    /** What {@link #get} returns for a key not in the map (values are never negative). */
    public static final long ABSENT = -1;
    /** Fingerprint bits when no rate is given: a key not in the map reads absent but for 1 in 256. */
    public static final int DEFAULT_FINGERPRINT_BITS = 8;

    private final Path path;
    private final MapHeader header;
    private final MapShape shape;
    private final FileMapping mapping;
    private final BytesStore<?, ?> store;
    private final KeyHasher hasher;
    private final long countLength;
    private final int segmentLength;
    private final int valueBits;
    private final int fingerprintBits;
    private final int slotBits;
    private final long valueMask;
    private final long seed;

    private BloomierMap(Path path, MapHeader header, FileMapping mapping) {
        this.path = path;
        this.header = header;
        this.shape = MapShape.of(header);
        this.mapping = mapping;
        this.store = mapping.store();
        this.hasher = new KeyHasher(HashAlgorithm.XXH3_64, header.keySeed());
        this.segmentLength = header.segmentLength();
        this.countLength = (long) header.segmentCount() * segmentLength;
        this.valueBits = header.valueBits();
        this.fingerprintBits = header.fingerprintBits();
        this.slotBits = header.slotBits();
        this.valueMask = (1L << valueBits) - 1;
        this.seed = header.constructionSeed();
    }

    /**
     * Opens a map file read-only, in O(1): its header is checked (magic, version, CRC32C, every
     * field, the length) and the file mapped; the table is not read (see {@link #verify()}).
     *
     * @param path the map file
     * @return the open map; close it when done
     * @throws InvalidFilterFileException if the file is damaged or not a Bloomier map (a filter file
     *     is refused, naming its version)
     * @throws IOException if it cannot be read
     */
    public static BloomierMap open(Path path) throws IOException {
        return open(path, CheckedFile.openChannel(path, true));
    }

    /** {@link #open(Path)} on the file's one channel, which the map takes over (and closes on failure). */
    static BloomierMap open(Path path, FileChannel channel) throws IOException {
        MapHeader header;
        try {
            header = MapHeader.decode(path, CheckedFile.readAt(channel, 0, MapHeader.HEADER_LENGTH), channel.size());
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        return new BloomierMap(path, header, FileMapping.map(path, channel, header.fileLength(), true));
    }

    /**
     * The value of a string key (its UTF-8 bytes).
     *
     * @param key the key
     * @return the value, 0 to 2^R − 1; {@link #ABSENT} for a key not in the map (but for a rate of 2^−F)
     */
    public long get(CharSequence key) {
        return getHash(hasher.hash(key));
    }

    /**
     * The value of a byte-string key; allocates nothing.
     *
     * @param key the key's bytes
     * @return the value, or {@link #ABSENT}
     */
    public long get(byte[] key) {
        return getHash(hasher.hash(key));
    }

    /**
     * The value of a long key (its 8 little-endian bytes); allocates nothing.
     *
     * @param key the key
     * @return the value, or {@link #ABSENT}
     */
    public long get(long key) {
        return getHash(hasher.hash(key));
    }

    /**
     * The hasher of this map's keys (XXH3-64 with its seed), for {@link #getHash}.
     *
     * @return the hasher
     */
    public KeyHasher hasher() {
        return hasher;
    }

    /**
     * The value of the key whose hash by {@link #hasher()} is {@code keyHash}: what every {@code get} does
     * once it has hashed the key; three reads of the mapping.
     *
     * @param keyHash the key's hash
     * @return the value, or {@link #ABSENT}
     */
    public long getHash(long keyHash) {
        long h = FuseGraph.graphHash(keyHash, seed);
        long s0 = FuseGraph.slot0(h, countLength);
        long start = MapHeader.TABLE_START;
        long word = FuseGraph.readSlot(store, start, s0, slotBits)
                ^ FuseGraph.readSlot(store, start, FuseGraph.slot1(h, s0, segmentLength), slotBits)
                ^ FuseGraph.readSlot(store, start, FuseGraph.slot2(h, s0, segmentLength), slotBits);
        return word >>> valueBits == FuseGraph.fingerprint(keyHash, fingerprintBits) ? word & valueMask : ABSENT;
    }

    /**
     * Checks the table against the checksum its header records (the header itself was checked at
     * open): reads the whole table.
     *
     * @return {@link CellsCheck#INTACT}: a map's table always has its checksum
     * @throws InvalidFilterFileException with {@link Problem#CELLS_CHECKSUM} if the table changed
     */
    @Override
    public CellsCheck verify() throws InvalidFilterFileException {
        long actual = CellsChecksum.of(store, MapHeader.TABLE_START, header.tableLength(), 0);
        if (actual != header.tableChecksum()) {
            throw new InvalidFilterFileException(path, Problem.CELLS_CHECKSUM, String.format("table is damaged "
                    + "(checksum %016x, expected %016x); restore the map from a pack or build it again", actual,
                    header.tableChecksum()));
        }
        return CellsCheck.INTACT;
    }

    /**
     * {@inheritDoc} Here: the table is hashed whole, so {@code bytesRead} is told its length once,
     * when it is checked.
     */
    @Override
    public CellsCheck verify(LongConsumer bytesRead) throws InvalidFilterFileException {
        Objects.requireNonNull(bytesRead, "bytesRead");
        CellsCheck check = verify();
        bytesRead.accept(shape.scanBytes());
        return check;
    }

    @Override
    public Path path() {
        return path;
    }

    /**
     * {@inheritDoc}
     *
     * @return {@link FilterKind#MAP}
     */
    @Override
    public FilterKind kind() {
        return FilterKind.MAP;
    }

    @Override
    public long fileBytes() {
        return shape.fileBytes();
    }

    /**
     * {@inheritDoc} A map's shape never changes: the same record every time.
     *
     * @return the header's fields: pairs, value and fingerprint bits, table, seeds, checksum
     */
    @Override
    public MapShape shape() {
        return shape;
    }

    /** {@inheritDoc} Here: {@code map}, applied to this map. */
    @Override
    public <R, X extends Exception> R match(KindFunction<? super MembershipFilter, ? extends R, X> filter,
            KindFunction<? super ValuedFilter, ? extends R, X> valued, KindFunction<? super BloomierMap, ? extends R, X> map)
            throws X {
        return map.apply(this);
    }

    /** Unmaps the file. Idempotent. */
    @Override
    public void close() {
        mapping.close();
    }

    /**
     * A builder of a map file from pairs, for values of {@code valueBits} bits.
     *
     * @param target the file to write; it appears only when complete
     * @param valueBits R, 1 to 55: values are 0 to 2^R − 1
     * @return a builder with F = {@link #DEFAULT_FINGERPRINT_BITS} and the default seed
     */
    public static Builder builder(Path target, int valueBits) {
        return new Builder(target, valueBits);
    }

    /**
     * Pairs go in (by {@link #put} or {@link #putLines}), then {@link #build()} writes the map.
     * Memory: none on the heap per pair; 32 bytes a pair spooled to a temporary file beside the
     * target, and during {@link #build()} about 15 to 22 bytes a pair more in a mapped scratch
     * file. Close it (after build, or to give up), which deletes the temporaries.
     */
    public static final class Builder implements AutoCloseable {
        private final Path target;
        private final int valueBits;
        private int fingerprintBits = DEFAULT_FINGERPRINT_BITS;
        private long seed = BloomSpec.DEFAULT_SEED;
        private boolean replace;
        private FilterBuilder.Phases progress = (phase, total) -> new FilterBuilder.Phase() {
            @Override
            public void update(long done) {
            }

            @Override
            public void close() {
            }
        };
        private MapBuild build;
        private KeyHasher keys;
        private KeyHasher checks;
        private long line;
        /** How errors name the input: the last one {@link #putLines} read, or none for pairs put one by one. */
        private String source = "";

        private Builder(Path target, int valueBits) {
            this.target = Objects.requireNonNull(target, "target");
            if (valueBits < 1 || valueBits > MapHeader.MAX_SLOT_BITS - 1) {
                throw new IllegalArgumentException("value bits " + valueBits + " out of range: 1 to " + (MapHeader.MAX_SLOT_BITS - 1));
            }
            this.valueBits = valueBits;
        }

        /**
         * The rate at which a key not in the map reads a value: F = ceil(log2(1/p)) fingerprint bits.
         *
         * @param p strictly between 0 and 1, with R + F at most 56
         * @return this builder
         */
        public Builder fpp(double p) {
            if (!(p > 0 && p < 1)) {
                throw new IllegalArgumentException("fpp " + p + " out of range: strictly between 0 and 1");
            }
            return fingerprintBits((int) Math.ceil(-Math.log(p) / Math.log(2) - 1e-9));
        }

        /**
         * F directly.
         *
         * @param bits 1 to 56 − R
         * @return this builder
         */
        public Builder fingerprintBits(int bits) {
            if (bits < 1 || valueBits + bits > MapHeader.MAX_SLOT_BITS) {
                throw new IllegalArgumentException(bits + " fingerprint bits with " + valueBits + " value bits: a slot holds at most "
                        + MapHeader.MAX_SLOT_BITS + " bits; ask a larger --fpp or fewer value bits");
            }
            requireNotStarted();
            this.fingerprintBits = bits;
            return this;
        }

        /**
         * The XXH3-64 seed of the key hashes.
         *
         * @param seed any; default {@link BloomSpec#DEFAULT_SEED}
         * @return this builder
         */
        public Builder seed(long seed) {
            requireNotStarted();
            this.seed = seed;
            return this;
        }

        /**
         * How the file is created: {@link CreateOption#REPLACE_EXISTING} replaces an existing target
         * (atomically) rather than refusing it. Replaces the options given before.
         *
         * @param options the options; none to refuse an existing target
         * @return this builder
         * @throws IllegalArgumentException for {@link CreateOption#SPARSE}: a map is written whole
         */
        public Builder options(CreateOption... options) {
            this.replace = CreateOption.replaceExisting("a map build", options);
            return this;
        }

        /**
         * Progress of the phases {@link FilterBuilder.Stage#READ} (input bytes), then
         * {@link FilterBuilder.Stage#CHECK} and {@link FilterBuilder.Stage#PEEL} (spooled bytes).
         *
         * @param progress called as each phase begins
         * @return this builder
         */
        public Builder progress(FilterBuilder.Phases progress) {
            this.progress = Objects.requireNonNull(progress, "progress");
            return this;
        }

        private void requireNotStarted() {
            if (build != null) {
                throw new IllegalStateException("set the builder's options before the first pair");
            }
        }

        private MapBuild started() throws IOException {
            if (build == null) {
                FilterBuilder.Phases phases = progress;
                build = new MapBuild(target, valueBits, fingerprintBits, seed, (step, total) -> {
                    FilterBuilder.Phase phase = phases.begin(switch (step) {
                        case CHECK -> FilterBuilder.Stage.CHECK;
                        case PEEL -> FilterBuilder.Stage.PEEL;
                    }, total);
                    return new MapBuild.Phases.Phase() {
                        @Override
                        public void update(long done) {
                            phase.update(done);
                        }

                        @Override
                        public void close() {
                            phase.close();
                        }
                    };
                });
                keys = new KeyHasher(HashAlgorithm.XXH3_64, seed);
                checks = new KeyHasher(HashAlgorithm.XXH3_64, seed ^ ProbeMath.GOLDEN);
            }
            return build;
        }

        /**
         * Adds a pair; the same pair again is stored once, the same key with another value fails
         * {@link #build()} naming both calls (counted from 1, as lines).
         *
         * @param key the key's bytes
         * @param value 0 to 2^R − 1
         * @return this builder
         * @throws IOException if the spool beside the target cannot be written
         */
        public Builder put(byte[] key, long value) throws IOException {
            started().put(keys.hash(key), checks.hash(key), value, ++line);
            return this;
        }

        /**
         * {@link #put(byte[], long)} for a string key (its UTF-8 bytes).
         *
         * @param key the key
         * @param value 0 to 2^R − 1
         * @return this builder
         * @throws IOException if the spool cannot be written
         */
        public Builder put(CharSequence key, long value) throws IOException {
            started().put(keys.hash(key), checks.hash(key), value, ++line);
            return this;
        }

        /**
         * {@link #put(byte[], long)} for a long key (its 8 little-endian bytes).
         *
         * @param key the key
         * @param value 0 to 2^R − 1
         * @return this builder
         * @throws IOException if the spool cannot be written
         */
        public Builder put(long key, long value) throws IOException {
            started().put(keys.hash(key), checks.hash(key), value, ++line);
            return this;
        }

        /**
         * Adds the pairs of {@code KEY<TAB>VALUE} lines: the key is everything before the line's last
         * TAB, the value a decimal number after it; a trailing {@code \r} is dropped and empty lines
         * are skipped (but counted, so errors name the line of the file).
         *
         * @param in read to its end, not closed
         * @param name how errors name the input ("pairs.tsv", "stdin")
         * @param totalBytes the input's size for progress, or -1
         * @return this builder
         * @throws IOException if the input cannot be read or the spool written
         * @throws IllegalArgumentException naming the line, for a line without TAB, an empty key, or a bad value
         */
        public Builder putLines(InputStream in, String name, long totalBytes) throws IOException {
            MapBuild into = started();
            source = name + " ";
            byte[] buffer = new byte[1 << 16];
            int start = 0;
            int end = 0;
            long read = 0;
            try (FilterBuilder.Phase phase = progress.begin(FilterBuilder.Stage.READ, totalBytes)) {
                while (true) {
                    int newline = indexOf(buffer, start, end);
                    if (newline < end) {
                        pair(into, buffer, start, newline, name);
                        start = newline + 1;
                        continue;
                    }
                    if (start > 0) {
                        System.arraycopy(buffer, start, buffer, 0, end - start);
                        end -= start;
                        start = 0;
                    } else if (end == buffer.length) {
                        buffer = Arrays.copyOf(buffer, Math.min(Integer.MAX_VALUE - 8, 2 * buffer.length));
                    }
                    int n = in.read(buffer, end, buffer.length - end);
                    if (n < 0) {
                        if (end > start) {
                            pair(into, buffer, start, end, name);
                        }
                        return this;
                    }
                    end += n;
                    read += n;
                    phase.update(read);
                }
            }
        }

        private static int indexOf(byte[] b, int from, int to) {
            for (int i = from; i < to; i++) {
                if (b[i] == '\n') {
                    return i;
                }
            }
            return to;
        }

        private void pair(MapBuild into, byte[] b, int from, int to, String name) throws IOException {
            long number = ++line;
            if (to > from && b[to - 1] == '\r') {
                to--;
            }
            if (to == from) {
                return;
            }
            int tab = to - 1;
            while (tab >= from && b[tab] != '\t') {
                tab--;
            }
            if (tab < from) {
                throw new IllegalArgumentException(name + " line " + number + ": no TAB; each line is KEY<TAB>VALUE");
            }
            if (tab == from) {
                throw new IllegalArgumentException(name + " line " + number + ": empty key before the TAB");
            }
            long value = 0;
            boolean digits = tab + 1 < to && to - tab - 1 <= 18; // no long overflow: the largest value has 17 digits
            for (int i = tab + 1; digits && i < to; i++) {
                digits = b[i] >= '0' && b[i] <= '9';
                value = value * 10 + (b[i] - '0');
            }
            if (!digits || value > into.maxValue()) {
                throw new IllegalArgumentException(name + " line " + number + ": value \""
                        + new String(b, tab + 1, to - tab - 1, StandardCharsets.UTF_8) + "\" is not a whole number from 0 to "
                        + into.maxValue() + " (" + valueBits + " value bits); give more --value-bits or fix the line");
            }
            int length = tab - from;
            into.put(keys.hash(b, from, length), checks.hash(b, from, length), value, number);
        }

        /**
         * Builds the map from the pairs given and publishes it (a build with no pair makes an empty
         * map, where every key reads absent but for 2^−F).
         *
         * @return the distinct pairs stored
         * @throws IllegalArgumentException naming both lines, if a key was given two values (or, about
         *     once in 2^65 / n² builds, two keys' hashes collide: another seed cures that)
         * @throws java.nio.file.FileAlreadyExistsException if the target exists and replacing was not asked for
         * @throws IOException if the target or the temporaries cannot be written
         */
        public long build() throws IOException {
            return started().publish(replace, source).pairs();
        }

        /** Deletes the temporaries; the target is left as it was unless {@link #build()} published it. */
        @Override
        public void close() {
            if (build != null) {
                build.close();
            }
        }
    }
}
