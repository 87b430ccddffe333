package io.bloomstore.bench.micro;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.CreateOption;
import io.bloomstore.Layout;
import io.bloomstore.StableSpec;
import io.bloomstore.ValuedFilter;
import io.bloomstore.bench.BenchDirs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;
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
 * Single-key adds and queries of the filters with a cell rule (docs/FORMAT.md, "Cell rules") beside
 * the plain filter, at n keys and p = 1 %, through the public API, in Mops/s (one op = one key):
 * <ul>
 * <li>STANDARD and BLOCKED: a plain filter sized for n at p, {@code add} and {@code mightContain};
 * <li>STABLE: a stable filter of 2-bit cells in the standard plain filter's bytes at a stable rate
 *     of p ({@link StableSpec#forBytes}), {@code add} (its P decrements, then the key's k cells)
 *     and {@code mightContain};
 * <li>VALUED_MAX: a valued filter (max) for n at p with {@value #VALUE_BITS}-bit values (4-bit
 *     cells, 4x the plain filter's bytes, the same m and k), {@code put} and {@code get}.
 * </ul>
 * Adds are of new keys: a plain or valued filter is created anew (outside the measurement) before
 * it would pass n keys, so no filter is measured past its design; a stable filter takes keys
 * without end, so it is never renewed, and after its first lifetime it adds at its stable point.
 * Queries ask a filter holding n keys: present keys are the last added (a stable filter has forgot
 * its oldest ones), absent keys were never added. Setup prints each filter's bytes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgs = {"-Xms1g", "-Xmx1g"})
public class CellRulesBenchmark {
    static final int BATCH = 1024;
    static final double FPP = 0.01;
    static final int VALUE_BITS = 3;

    /** The filters compared. */
    public enum Rule { STANDARD, BLOCKED, STABLE, VALUED_MAX }

    @Param({"STANDARD", "BLOCKED", "STABLE", "VALUED_MAX"})
    Rule rule;

    @Param({"1000000"})
    long n;

    private Path dir;
    /** The filter queried, holding n keys; and the one added to. */
    private BloomFilter queried;
    private BloomFilter added;
    private ValuedFilter queriedValues;
    private ValuedFilter addedValues;
    private long[] present;
    private long[] absent;
    private int nextQuery;
    /** The next new key to add, and the keys the filter added to holds. */
    private long nextKey;
    private long held;
    private int renewals;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = BenchDirs.scratch("cell-rules-");
        open(dir.resolve("queried.bloom"), true);
        SplittableRandom random = new SplittableRandom(34);
        for (long key = 0; key < n; key++) {
            addOne(true, key);
        }
        present = new long[BATCH * 64];
        absent = new long[present.length];
        for (int i = 0; i < present.length; i++) {
            present[i] = n - 1 - random.nextLong(Math.min(n, 100_000)); // recent: a stable filter keeps them
            absent[i] = n + 1_000_000_000L + random.nextLong(1L << 40);
        }
        open(dir.resolve("added.bloom"), false);
        nextKey = 1L << 50; // keys the queried filter never saw
        BloomFilter any = queried != null ? queried : queriedValues.filter();
        System.out.printf("%n# %s at n = %d: %d cells of %d bits, k = %d, %d bytes of cells%s%n", rule, n,
                any.spec().cells(), any.spec().counterBits(), any.spec().hashes(), any.spec().cellBytes(),
                any.stableSpec().map(s -> "; " + s).orElse(""));
    }

    private void open(Path file, boolean forQueries) throws IOException {
        BloomSpec plain = BloomSpec.builder().expectedKeys(n).fpp(FPP)
                .layout(rule == Rule.BLOCKED ? Layout.BLOCKED : Layout.STANDARD).build();
        BloomFilter filter = null;
        ValuedFilter values = null;
        switch (rule) {
            case STANDARD, BLOCKED -> filter = BloomFilter.create(file, plain, CreateOption.REPLACE_EXISTING);
            case STABLE -> filter = BloomFilter.createStable(file,
                    StableSpec.forBytes(BloomFilter.fileBytes(plain), FPP, 2), CreateOption.REPLACE_EXISTING);
            case VALUED_MAX -> values = ValuedFilter.create(file, n, FPP, VALUE_BITS, ValuedFilter.Keep.MAX, CreateOption.REPLACE_EXISTING);
        }
        if (forQueries) {
            queried = filter;
            queriedValues = values;
        } else {
            added = filter;
            addedValues = values;
        }
    }

    private boolean addOne(boolean toQueried, long key) {
        ValuedFilter values = toQueried ? queriedValues : addedValues;
        return values != null ? values.put(key, key & 7) : (toQueried ? queried : added).add(key);
    }

    /** Renews the filter added to before the next batch would take it past n keys (never a stable one). */
    @Setup(Level.Invocation)
    public void makeRoom() throws IOException {
        if (rule == Rule.STABLE || held + BATCH <= n) {
            return;
        }
        closeAdded();
        open(dir.resolve("added-" + (++renewals % 2) + ".bloom"), false);
        held = 0;
    }

    private void closeAdded() {
        if (added != null) {
            added.close();
        }
        if (addedValues != null) {
            addedValues.close();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        closeAdded();
        if (queried != null) {
            queried.close();
        }
        if (queriedValues != null) {
            queriedValues.close();
        }
        BenchDirs.deleteTree(dir);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int add() {
        int changed = 0;
        long from = nextKey;
        for (long key = from; key < from + BATCH; key++) {
            changed += addOne(false, key) ? 1 : 0;
        }
        nextKey = from + BATCH;
        held += BATCH;
        return changed;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long queryPresent() {
        return query(present);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long queryAbsent() {
        return query(absent);
    }

    private long query(long[] keys) {
        long sum = 0;
        int from = nextQuery;
        nextQuery = (nextQuery + BATCH) % keys.length;
        if (queriedValues != null) {
            for (int i = from; i < from + BATCH; i++) {
                sum += queriedValues.get(keys[i]).orElse(-1);
            }
        } else {
            for (int i = from; i < from + BATCH; i++) {
                sum += queried.mightContain(keys[i]) ? 1 : 0;
            }
        }
        return sum;
    }
}
