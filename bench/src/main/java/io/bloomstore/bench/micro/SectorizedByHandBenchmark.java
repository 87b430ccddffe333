package io.bloomstore.bench.micro;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.KeyHasher;
import io.bloomstore.Layout;
import io.bloomstore.bench.BenchDirs;
import io.bloomstore.bench.ComparedFilter;
import io.bloomstore.bench.KeyChunk;
import io.bloomstore.bench.KeyType;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The sectorized layout's probing at p = 1 % (S = 3 words of a line, b = 2 bits in each,
 * docs/FORMAT.md "Sectorized layout") written out by hand on a {@code long[]} of the same cells,
 * hash included (the filter's {@link KeyHasher}): what a single call costs without the API's
 * layers, and what an add costs for being atomic, apart from everything else. Adds take new keys
 * as {@link AddBenchmark} does, each word's bits set by
 * <ul>
 *   <li>{@code PLAIN}: a plain load and store, as FastFilter's {@code BlockedBloom} sets its bits;</li>
 *   <li>{@code CAS}: a compare-and-set of the word, skipped when its bits are set, as bloomstore's
 *       shared cells are: the floor of an add that stays safe beside concurrent adders;</li>
 *   <li>{@code CAS_COUNTED}: {@code CAS} plus one {@link LongAdder} increment per new key, as a
 *       {@link BloomFilter} handle counts its insertions.</li>
 * </ul>
 * The query ({@code mightContainPresent}) reads a filter of n keys with volatile loads, as
 * bloomstore's queries do. The set-up proves the probing is the file format's: the first keys
 * added by hand leave exactly the cells a real {@link BloomFilter} file of the same spec holds after
 * the same adds. Run beside {@code AddBenchmark.add} and {@code MightContainBenchmark} (impl
 * SECTORIZED and FASTFILTER_BLOCKED) for the calls through the API in the same run.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 8, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgs = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
public class SectorizedByHandBenchmark {
    private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    private static final int HASHES = 6;
    /** The 3-subsets of a line's eight words in lexicographic order, byte j the j-th word's index. */
    private static final int[] SUBSETS = subsets();
    private static final long G1 = GOLDEN;
    private static final long G2 = G1 * GOLDEN;
    private static final long G3 = G2 * GOLDEN;
    private static final long G4 = G3 * GOLDEN;
    private static final long G5 = G4 * GOLDEN;
    private static final long G6 = G5 * GOLDEN;
    private static final long G7 = G6 * GOLDEN;

    /** How a word's bits are set. */
    public enum Stores { PLAIN, CAS, CAS_COUNTED }

    /** The sectorized spec for n keys at p = 1 %, whose k = 6 the probing here is written for. */
    static BloomSpec spec(long n) {
        BloomSpec spec = ComparedFilter.SECTORIZED.spec(n);
        if (spec.hashes() != HASHES) {
            throw new IllegalStateException("the probing here is written for k = " + HASHES + "; the layout chose " + spec);
        }
        return spec;
    }

    /** Filters of n keys that take new keys, rotated as {@link AddBenchmark}'s are, and how their bits are set. */
    @State(Scope.Benchmark)
    public static class Adding {
        @Param({"1000000", "10000000"})
        public long n;

        @Param({"PLAIN", "CAS", "CAS_COUNTED"})
        public Stores stores;

        private long[][] filters;
        private long lines;
        private KeyHasher hasher;
        private final LongAdder insertions = new LongAdder();
        /** The next chunk of keys since the filters were last emptied; chunk c goes to filter c * SIZE / n. */
        private final AtomicLong nextChunk = new AtomicLong();

        @Setup(Level.Trial)
        public void createFilters() throws IOException {
            BloomSpec spec = spec(n);
            lines = spec.cells() / 512;
            hasher = new KeyHasher(spec.hashAlgorithm(), spec.seed());
            filters = new long[AddBenchmark.filtersFor(n)][(int) (spec.cells() / 64)];
            requireTheFormatsCells(spec);
        }

        /** Adds the first keys by hand and through a real filter file, and fails unless the cells agree. */
        private void requireTheFormatsCells(BloomSpec spec) throws IOException {
            Path dir = BenchDirs.scratch("atomic-add-");
            try {
                Path file = dir.resolve("reference.bloom");
                KeyChunk chunk = new KeyChunk(KeyType.LONG);
                try (BloomFilter reference = BloomFilter.create(file, spec)) {
                    for (long first = 0; first < Math.min(n, 100 * KeyChunk.SIZE); first += KeyChunk.SIZE) {
                        chunk.fill(first);
                        for (long key : chunk.longs()) {
                            reference.add(key);
                            add(filters[0], lines, hasher.hash(key), Stores.PLAIN, null);
                        }
                    }
                    reference.sync();
                }
                ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file));
                int cellsStart = (int) (BloomFilter.fileBytes(spec) - spec.cellBytes());
                LongBuffer cells = bytes.position(cellsStart).slice().order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
                long[] expected = new long[filters[0].length];
                cells.get(expected);
                if (!Arrays.equals(expected, filters[0])) {
                    throw new IllegalStateException("the probing written out here sets other cells than a " + spec.layout()
                            + " file: fix it to match docs/FORMAT.md");
                }
                Arrays.fill(filters[0], 0);
            } finally {
                BenchDirs.deleteTree(dir);
            }
        }

        /** Empties the used filters unless they still have room for a whole iteration's keys, as {@link AddBenchmark#makeRoom} does. */
        @Setup(Level.Iteration)
        public void makeRoom() {
            long capacity = filters.length * n;
            long added = nextChunk.get() * KeyChunk.SIZE;
            if (capacity - added >= Math.min(capacity, AddBenchmark.KEYS_PER_ITERATION_LIMIT)) {
                return;
            }
            for (long[] filter : filters) {
                Arrays.fill(filter, 0);
            }
            nextChunk.set(0);
        }
    }

    /** A thread's next chunk of new keys and the filter it goes to, prepared outside the measurement. */
    @State(Scope.Thread)
    public static class NewKeys {
        final KeyChunk chunk = new KeyChunk(KeyType.LONG);
        long[] target;

        @Setup(Level.Invocation)
        public void next(Adding bench) {
            long first = bench.nextChunk.getAndIncrement() * KeyChunk.SIZE;
            if (first + KeyChunk.SIZE > bench.filters.length * bench.n) {
                throw new IllegalStateException("an iteration overfilled the filters; shorten the iterations");
            }
            target = bench.filters[(int) (first / bench.n)];
            chunk.fill(first);
        }
    }

    /** A filter of n keys filled by hand, for the query written out by hand. */
    @State(Scope.Benchmark)
    public static class Filled {
        @Param({"1000000", "10000000"})
        public long n;

        long[] words;
        long lines;
        KeyHasher hasher;

        @Setup(Level.Trial)
        public void fill() {
            BloomSpec spec = spec(n);
            lines = spec.cells() / 512;
            hasher = new KeyHasher(spec.hashAlgorithm(), spec.seed());
            words = new long[(int) (spec.cells() / 64)];
            KeyChunk chunk = new KeyChunk(KeyType.LONG);
            for (long first = 0; first < n; first += KeyChunk.SIZE) {
                chunk.fill(first);
                for (long key : chunk.longs()) {
                    add(words, lines, hasher.hash(key), Stores.PLAIN, null);
                }
            }
        }
    }

    /** Keys that were added, a chunk per invocation, as {@link MightContainBenchmark}'s present keys. */
    @State(Scope.Thread)
    public static class PresentKeys extends KeyWalk {
        @Setup(Level.Trial)
        public void allocate(Filled filled) {
            start(KeyType.LONG, filled.n, 0, 1);
        }

        @Override
        long firstIndex() {
            return 0;
        }
    }

    /**
     * The query of the same probing written out by hand, hash included: what a sectorized
     * {@code mightContain} costs without the API's layers (the handle's checks, the hasher's and
     * the probing's dispatch), to set beside {@code MightContainBenchmark.mightContainPresent}.
     */
    @Benchmark
    @OperationsPerInvocation(KeyChunk.SIZE)
    public int mightContainPresent(Filled filled, PresentKeys keys) {
        long[] words = filled.words;
        long lines = filled.lines;
        KeyHasher hasher = filled.hasher;
        int present = 0;
        for (long key : keys.chunk.longs()) {
            present += mightContain(words, lines, hasher.hash(key)) ? 1 : 0;
        }
        return present;
    }

    private static boolean mightContain(long[] words, long lines, long hash) {
        int line = line(hash, lines);
        long h2 = fmix64(hash) | 1;
        int subset = subset(h2);
        long missing = (bit(h2, G2) | bit(h2, G3)) & ~(long) WORDS.getVolatile(words, line + (subset & 0xFF));
        missing |= (bit(h2, G4) | bit(h2, G5)) & ~(long) WORDS.getVolatile(words, line + ((subset >>> 8) & 0xFF));
        missing |= (bit(h2, G6) | bit(h2, G7)) & ~(long) WORDS.getVolatile(words, line + (subset >>> 16));
        return missing == 0;
    }

    @Benchmark
    @OperationsPerInvocation(KeyChunk.SIZE)
    public int add(Adding adding, NewKeys keys) {
        long[] words = keys.target;
        long lines = adding.lines;
        KeyHasher hasher = adding.hasher;
        Stores stores = adding.stores;
        LongAdder insertions = adding.insertions;
        int added = 0;
        for (long key : keys.chunk.longs()) {
            added += add(words, lines, hasher.hash(key), stores, insertions) ? 1 : 0;
        }
        return added;
    }

    /** The first word of the key's line: fastrange(h, lines), eight words a line. */
    private static int line(long hash, long lines) {
        return (int) (Math.multiplyHigh(hash, lines) + ((hash >> 63) & lines)) << 3;
    }

    /** The key's three words, packed one a byte: fastrange(h2 G, 56) in the subsets' lexicographic order. */
    private static int subset(long h2) {
        long h2g = h2 * G1;
        return SUBSETS[(int) (Math.multiplyHigh(h2g, SUBSETS.length) + ((h2g >> 63) & SUBSETS.length))];
    }

    private static boolean add(long[] words, long lines, long hash, Stores stores, LongAdder insertions) {
        int line = line(hash, lines);
        long h2 = fmix64(hash) | 1;
        int subset = subset(h2);
        boolean added = set(words, line + (subset & 0xFF), bit(h2, G2) | bit(h2, G3), stores);
        added |= set(words, line + ((subset >>> 8) & 0xFF), bit(h2, G4) | bit(h2, G5), stores);
        added |= set(words, line + (subset >>> 16), bit(h2, G6) | bit(h2, G7), stores);
        if (added && stores == Stores.CAS_COUNTED) {
            insertions.increment();
        }
        return added;
    }

    private static long bit(long h2, long power) {
        return 1L << ((h2 * power) >>> 58);
    }

    private static boolean set(long[] words, int word, long mask, Stores stores) {
        if (stores == Stores.PLAIN) {
            long before = words[word];
            words[word] = before | mask;
            return (~before & mask) != 0;
        }
        while (true) {
            long before = (long) WORDS.getVolatile(words, word);
            if ((~before & mask) == 0) {
                return false;
            }
            if (WORDS.compareAndSet(words, word, before, before | mask)) {
                return true;
            }
        }
    }

    private static long fmix64(long hash) {
        long h = hash ^ (hash >>> 33);
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        return h ^ (h >>> 33);
    }

    private static int[] subsets() {
        int[] subsets = new int[56];
        int count = 0;
        for (int a = 0; a < 8; a++) {
            for (int b = a + 1; b < 8; b++) {
                for (int c = b + 1; c < 8; c++) {
                    subsets[count++] = a | b << 8 | c << 16;
                }
            }
        }
        return subsets;
    }
}
