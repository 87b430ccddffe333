package io.bloomstore.bench.micro;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.CreateOption;
import io.bloomstore.GrowingBloomFilter;
import io.bloomstore.GrowingSpec;
import io.bloomstore.Layout;
import io.bloomstore.MembershipFilter;
import io.bloomstore.OpenMode;
import io.bloomstore.WindowSpec;
import io.bloomstore.WindowedBloomFilter;
import io.bloomstore.bench.BenchDirs;
import io.bloomstore.bench.ComparedFilter;
import io.bloomstore.bench.KeyChunk;
import io.bloomstore.bench.KeyType;
import io.bloomstore.bench.Keys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A growing chain after several growths and a windowed ring of L = 8 epochs, against one fixed
 * filter of the same total n at the same P (issue 15): adds and queries, single calls and the batch
 * calls ({@link MembershipFilter#addHashes} / {@link MembershipFilter#mightContainHashes}, the
 * chunk hashed inside the measurement as {@code addAll} does), present and absent long keys, in
 * Mops/s (one op = one key). All three kinds are driven through {@link MembershipFilter} alone, so
 * the only difference measured is the filter.
 *
 * <p>Shapes for a total of n keys: FIXED is a {@link BloomFilter} for n; GROWING starts at n / 16
 * with growth 2, so n keys fill segments of n/16, n/8, n/4, n/2 and put n/16 into a fifth of n;
 * WINDOWED expects n keys per window of 8 epochs, each slot holding n / 8, its epochs driven by a
 * {@link SteppedClock} (no sleeping).
 *
 * <p>Adds measure the regime of a filter in use, every key new and none past its design size.
 * FIXED adds fill empty filters of n. GROWING adds go into the fifth segment of filled chains and
 * stop before it is half full: at half, the chain writes and forces its next segment, a disk write
 * that belongs to growth, not to the add path measured here. WINDOWED adds never stop: the clock
 * steps one epoch every n / 8 keys, so the measured adds include the rotations (clearing one slot
 * per n / 8 keys) a ring in steady state always pays. Like {@link AddBenchmark}, filters are
 * rotated through and refreshed from a template between iterations, outside the measurement.
 * Single-threaded: the states are per thread and the filters not shared.
 *
 * <p>The {@code ...Latency} queries measure how long a caller waits for one answer, in ns per key
 * ({@link Mode#AverageTime}): each key is chosen by the previous answer ({@link #queryChained}), so
 * the CPU cannot overlap one query's misses with the next query's, as it does across the
 * independent keys of the throughput calls. A query's own misses overlap only if it issues them
 * together; this is what separates a ring that waits for one miss from one that waits for L + 1
 * in turn, which throughput cannot show (docs/BENCHMARKS-HISTORY.md, SEGLAT and LOCKSTEP).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgs = {"-Xms512m", "-Xmx512m"})
public class SegmentedBenchmark {
    /** L: the epochs of the ring's window (WindowSpec's default). */
    static final int EPOCHS = 8;
    /** The chain's first segment is n / 16: with growth 2, n keys take five segments. */
    static final int FIRST_SEGMENT_DIVISOR = 16;
    /** The most keys one iteration may add before it runs out of refreshed filters. */
    static final long KEYS_PER_ITERATION_LIMIT = 64_000_000;
    private static final int MAX_FILTERS = 64;
    private static final Duration WINDOW = Duration.ofHours(EPOCHS);
    /** Where the clock starts: any whole epoch. */
    private static final Instant START = Instant.parse("2026-11-24T00:00:00Z");

    @Param({"FIXED", "GROWING", "WINDOWED"})
    public Kind kind;

    @Param({"STANDARD", "BLOCKED"})
    public Layout layout;

    /** 1 M keys: a fixed standard filter of 1.2 MB, within a 32 MiB L3. 10 M: 12 MB, a ring ~24 MB. */
    @Param({"1000000", "10000000"})
    public long n;

    /** The three filters compared, each made empty for a total of n keys at {@link ComparedFilter#FPP}. */
    public enum Kind {
        FIXED {
            @Override
            MembershipFilter create(Path file, long n, Layout layout, Clock clock) throws IOException {
                BloomSpec spec = BloomSpec.builder().expectedKeys(n).fpp(ComparedFilter.FPP).layout(layout).build();
                return BloomFilter.create(file, spec, CreateOption.REPLACE_EXISTING);
            }

            @Override
            long addRoom(long n) {
                return n;
            }
        },
        GROWING {
            @Override
            MembershipFilter create(Path file, long n, Layout layout, Clock clock) throws IOException {
                GrowingSpec spec = GrowingSpec.of(n / FIRST_SEGMENT_DIVISOR, ComparedFilter.FPP).withLayout(layout);
                return GrowingBloomFilter.create(file, spec, CreateOption.REPLACE_EXISTING);
            }

            /** From n / 16 to 7 n / 16 in the fifth segment (of n): short of half, where the next is written. */
            @Override
            long addRoom(long n) {
                return 3 * n / 8;
            }
        },
        WINDOWED {
            @Override
            MembershipFilter create(Path file, long n, Layout layout, Clock clock) throws IOException {
                WindowSpec spec = new WindowSpec(n, ComparedFilter.FPP, WINDOW, EPOCHS, layout, BloomSpec.DEFAULT_SEED);
                return WindowedBloomFilter.create(file, spec, clock, CreateOption.REPLACE_EXISTING);
            }

            /** Unbounded: the ring forgets as it goes. */
            @Override
            long addRoom(long n) {
                return Long.MAX_VALUE;
            }
        };

        abstract MembershipFilter create(Path file, long n, Layout layout, Clock clock) throws IOException;

        /** How many new keys the adds put into one filter filled by {@link #filled} before it is refreshed. */
        abstract long addRoom(long n);

        /**
         * A new filter holding keys [0, n) as a filter in use would: the chain grown four times,
         * the ring's keys n / 8 per epoch over 8 epochs, the clock then stepped into a ninth, empty
         * one, as right after a rotation. A FIXED filter for adds is left empty ({@code fill} false).
         */
        public MembershipFilter filled(Path file, long n, Layout layout, SteppedClock clock, boolean fill)
                throws IOException {
            MembershipFilter filter = create(file, n, layout, clock);
            if (!fill) {
                return filter;
            }
            KeyChunk chunk = new KeyChunk(KeyType.LONG);
            long[] hashes = new long[KeyChunk.SIZE];
            long perEpoch = n / EPOCHS;
            for (long first = 0; first < n; first += KeyChunk.SIZE) {
                chunk.fill(first);
                hashChunk(filter, chunk, hashes);
                filter.addHashes(hashes, KeyChunk.SIZE);
                if (this == WINDOWED && (first + KeyChunk.SIZE) % perEpoch == 0) {
                    clock.step();
                }
            }
            return filter;
        }
    }

    /** A clock that stands still until stepped by one epoch (window / 8). */
    public static final class SteppedClock extends Clock {
        private volatile long millis = START.toEpochMilli();

        public void step() {
            millis += WINDOW.toMillis() / EPOCHS;
        }

        @Override
        public long millis() {
            return millis;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException("a benchmark clock has no zones");
        }
    }

    /** Hashes the chunk's keys into {@code hashes}: the batch calls' one step outside the filter. */
    static void hashChunk(MembershipFilter filter, KeyChunk chunk, long[] hashes) {
        long[] keys = chunk.longs();
        for (int i = 0; i < KeyChunk.SIZE; i++) {
            hashes[i] = filter.hasher().hash(keys[i]);
        }
    }

    /**
     * A filter of the benchmark's kind holding keys [0, n), queried by present and absent keys.
     * Filled once per kind, layout and n into {@link BenchDirs#fixtures()} and opened read-only by
     * every trial (a ring with its clock where the fill left it): filling 64 M keys takes minutes, a
     * dozen times a trial's measurement. A stored file is used only if it holds a sample of its keys
     * (a change of the core's hashing or probing makes it look empty), else it is filled again.
     */
    @State(Scope.Thread)
    public static class Filled {
        MembershipFilter filter;

        @Setup(Level.Trial)
        public void build(SegmentedBenchmark bench) throws IOException {
            bench.requireShape();
            Path file = BenchDirs.fixtures().resolve(
                    "segmented-" + bench.kind + "-" + bench.layout + "-" + bench.n + ".bloom");
            if (Files.exists(file)) {
                filter = openFilled(file);
                if (holdsSample(filter, bench.n)) {
                    return;
                }
                filter.close();
                Files.delete(file);
            }
            Path building = file.resolveSibling(file.getFileName() + ".building");
            bench.kind.filled(building, bench.n, bench.layout, new SteppedClock(), true).close();
            Files.move(building, file, StandardCopyOption.REPLACE_EXISTING);
            filter = openFilled(file);
        }

        /** Opens a filled file read-only, a ring with a clock stepped as {@link Kind#filled} left its own. */
        private static MembershipFilter openFilled(Path file) throws IOException {
            SteppedClock clock = new SteppedClock();
            for (int epoch = 0; epoch < EPOCHS; epoch++) {
                clock.step();
            }
            return MembershipFilter.open(file, OpenMode.READ_ONLY, clock);
        }

        /** Whether the first, a middle and the last chunk of keys [0, n) are all found. */
        private static boolean holdsSample(MembershipFilter filter, long n) {
            KeyChunk chunk = new KeyChunk(KeyType.LONG);
            long lastChunk = n / KeyChunk.SIZE - 1;
            for (long c : new long[] {0, lastChunk / 2, lastChunk}) {
                chunk.fill(c * KeyChunk.SIZE);
                for (long key : chunk.longs()) {
                    if (!filter.mightContain(key)) {
                        return false;
                    }
                }
            }
            return true;
        }

        @TearDown(Level.Trial)
        public void close() {
            if (filter != null) {
                filter.close();
            }
        }
    }

    /** The walk of {@link KeyWalk} over long keys, one thread, with room for the chunk's hashes. */
    public abstract static class QueryKeys extends KeyWalk {
        final long[] hashes = new long[KeyChunk.SIZE];

        @Setup(Level.Trial)
        public void size(SegmentedBenchmark bench) {
            start(KeyType.LONG, bench.n, 0, 1);
        }
    }

    /**
     * Keys that were added, indices [0, n), in a scattered order: index i of the walk is
     * i s mod n, s about 0.618 n and prime to n, so every index comes once in n keys and
     * neighbours in the walk were added in unrelated epochs. Walked in order, as the other
     * benchmarks walk keys, a thousand keys running would have been added in one epoch, into one
     * slot of a ring (the fill puts n / 8 consecutive keys into each), and a query that asks the
     * slots one after another would branch the same way for each: the predictor learns which slot
     * holds the key, as it cannot in use, where what a dedup index sees again was first seen at
     * any time in the window. (Absent keys are held by no slot: their order does not matter.)
     */
    @State(Scope.Thread)
    public static class PresentKeys extends QueryKeys {
        private long n;
        private long stride;
        private long index;

        @Override
        long firstIndex() {
            return 0;
        }

        @Setup(Level.Trial)
        public void scatter(SegmentedBenchmark bench) {
            n = bench.n;
            stride = (long) (n * 0.6180339887498949) | 1;
            while (java.math.BigInteger.valueOf(stride).gcd(java.math.BigInteger.valueOf(n)).longValue() != 1) {
                stride += 2;
            }
        }

        @Override
        @Setup(Level.Invocation)
        public void next() {
            long[] keys = chunk.longs();
            for (int i = 0; i < keys.length; i++) {
                keys[i] = Keys.longKey(index);
                index = (index + stride) % n;
            }
        }
    }

    /** Keys never added. */
    @State(Scope.Thread)
    public static class AbsentKeys extends QueryKeys {
        @Override
        long firstIndex() {
            return Keys.ABSENT_BASE;
        }
    }

    /**
     * Filters receiving new keys (indices from n on), each refreshed from a template file between
     * iterations once it has taken its {@link Kind#addRoom}, and the next chunk of keys.
     */
    @State(Scope.Thread)
    public static class Adding {
        final KeyChunk chunk = new KeyChunk(KeyType.LONG);
        final long[] hashes = new long[KeyChunk.SIZE];
        MembershipFilter target;
        private SegmentedBenchmark bench;
        private final SteppedClock clock = new SteppedClock();
        private Path dir;
        private Path template;
        private MembershipFilter[] filters;
        private long room;
        /** Chunks added since the filters were refreshed; a ring's never are. */
        private long chunks;

        @Setup(Level.Trial)
        public void build(SegmentedBenchmark bench) throws IOException {
            bench.requireShape();
            this.bench = bench;
            dir = BenchDirs.scratch("segmented-add-");
            room = bench.kind.addRoom(bench.n);
            MembershipFilter first = bench.kind.filled(dir.resolve("template.bloom"), bench.n, bench.layout, clock,
                    bench.kind != Kind.FIXED);
            if (bench.kind == Kind.WINDOWED) {
                filters = new MembershipFilter[] {first}; // never refreshed
                return;
            }
            filters = new MembershipFilter[(int) Math.max(1, Math.min(MAX_FILTERS, KEYS_PER_ITERATION_LIMIT / room))];
            template = first.path();
            first.close();
            for (int i = 0; i < filters.length; i++) {
                filters[i] = copyOfTemplate(i);
            }
        }

        private MembershipFilter copyOfTemplate(int i) throws IOException {
            Path file = dir.resolve("add-" + i + ".bloom");
            Files.copy(template, file, StandardCopyOption.REPLACE_EXISTING);
            return MembershipFilter.open(file, OpenMode.READ_WRITE, clock);
        }

        /** Replaces the used filters by fresh copies unless they have room for a whole iteration's keys. */
        @Setup(Level.Iteration)
        public void makeRoom() throws IOException {
            long added = chunks * KeyChunk.SIZE;
            if (template == null || filters.length * room - added >= Math.min(filters.length * room,
                    KEYS_PER_ITERATION_LIMIT)) {
                return;
            }
            long used = Math.min(filters.length, (added + room - 1) / room);
            for (int i = 0; i < used; i++) {
                filters[i].close();
                filters[i] = copyOfTemplate(i);
            }
            chunks = 0;
        }

        /** The next chunk of new keys and its filter; a ring's clock steps an epoch every n / 8 keys. */
        @Setup(Level.Invocation)
        public void next() {
            long added = chunks++ * KeyChunk.SIZE;
            if (template == null) {
                if (added > 0 && added % (bench.n / EPOCHS) == 0) {
                    clock.step();
                }
                target = filters[0];
            } else {
                if (added + KeyChunk.SIZE > filters.length * room) {
                    throw new IllegalStateException("an iteration filled all " + filters.length + " filters' room of "
                            + room + " keys; shorten the iterations");
                }
                target = filters[(int) (added / room)];
            }
            chunk.fill(bench.n + added);
        }

        @TearDown(Level.Trial)
        public void delete() throws IOException {
            for (MembershipFilter filter : filters) {
                if (filter != null) {
                    filter.close();
                }
            }
            BenchDirs.deleteTree(dir);
        }
    }

    /** Fails the trial unless each of the ring's epochs (and so the chain's add room, 3 n / 8) gets whole chunks. */
    void requireShape() {
        long unit = (long) KeyChunk.SIZE * EPOCHS;
        if (n % unit != 0) {
            throw new IllegalArgumentException("n must be a multiple of " + unit + ", got " + n);
        }
    }

    @Benchmark
    @OperationsPerInvocation(KeyChunk.SIZE)
    public int add(Adding keys) {
        int added = 0;
        for (long key : keys.chunk.longs()) {
            added += keys.target.add(key) ? 1 : 0;
        }
        return added;
    }

    @Benchmark
    @OperationsPerInvocation(KeyChunk.SIZE)
    public int addBatch(Adding keys) {
        hashChunk(keys.target, keys.chunk, keys.hashes);
        return keys.target.addHashes(keys.hashes, KeyChunk.SIZE);
    }

    @Benchmark
    @OperationsPerInvocation(KeyChunk.SIZE)
    public int mightContainPresent(Filled filled, PresentKeys keys) {
        return queryEach(filled.filter, keys);
    }

    @Benchmark
    @OperationsPerInvocation(KeyChunk.SIZE)
    public int mightContainAbsent(Filled filled, AbsentKeys keys) {
        return queryEach(filled.filter, keys);
    }

    @Benchmark
    @OperationsPerInvocation(KeyChunk.SIZE)
    public int mightContainPresentBatch(Filled filled, PresentKeys keys) {
        return queryBatch(filled.filter, keys);
    }

    @Benchmark
    @OperationsPerInvocation(KeyChunk.SIZE)
    public int mightContainAbsentBatch(Filled filled, AbsentKeys keys) {
        return queryBatch(filled.filter, keys);
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @OperationsPerInvocation(KeyChunk.SIZE)
    public int mightContainPresentLatency(Filled filled, PresentKeys keys) {
        return queryChained(filled.filter, keys, true);
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @OperationsPerInvocation(KeyChunk.SIZE)
    public int mightContainAbsentLatency(Filled filled, AbsentKeys keys) {
        return queryChained(filled.filter, keys, false);
    }

    /**
     * Queries the chunk's keys one after another, each key a function of the previous answer: key
     * i itself after the answer {@code expected}, its complement (another key never added) after
     * the other one (a false positive of an absent key; never, for present keys). The key, and so
     * its hash and its cells, is not known before the previous answer is, short of the CPU
     * predicting that answer's branches and running ahead on the prediction, as far as its reorder
     * buffer (a few hundred instructions) reaches.
     *
     * @return how many answers were "may be present"
     */
    private static int queryChained(MembershipFilter filter, QueryKeys keys, boolean expected) {
        int present = 0;
        boolean answer = expected;
        for (long key : keys.chunk.longs()) {
            answer = filter.mightContain(answer == expected ? key : ~key);
            present += answer ? 1 : 0;
        }
        return present;
    }

    private static int queryEach(MembershipFilter filter, QueryKeys keys) {
        int present = 0;
        for (long key : keys.chunk.longs()) {
            present += filter.mightContain(key) ? 1 : 0;
        }
        return present;
    }

    private static int queryBatch(MembershipFilter filter, QueryKeys keys) {
        hashChunk(filter, keys.chunk, keys.hashes);
        return filter.mightContainHashes(keys.hashes, KeyChunk.SIZE, keys.chunk.answerScratch());
    }
}
