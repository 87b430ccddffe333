package io.bloomstore.bench.micro;

import io.bloomstore.bench.BenchDirs;
import io.bloomstore.bench.BenchFilter;
import io.bloomstore.bench.KeyChunk;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Adding new keys to a filter sized for n, bloomstore against its peers: single {@code add} calls and
 * the batch call, in Mops/s (one op = one key).
 *
 * <p>What is measured is the regime of building a filter: every key is new and no filter ever
 * holds more than its design n. A 1 M filter is full after a few dozen milliseconds, so at small n
 * the adds rotate through {@link #filtersFor(long) several} filters, and an iteration that might
 * not find room for {@link #KEYS_PER_ITERATION_LIMIT} more keys first empties the used ones
 * (outside the measurement). At 1 M that is every iteration; at 200 M one filter holds a whole
 * trial, which ends well below n keys. An iteration that overfills them anyway fails rather than
 * report adds to saturated filters. Run with {@code -t 2} for two threads adding to the same filters (bloomstore and Guava only: the other
 * peers are not safe for concurrent adds, and the trial refuses them).
 */
@State(Scope.Benchmark)
public class AddBenchmark extends FilterBenchmark {
    /** The most keys one iteration may add before it runs out of empty filters (128 M adds/s at 500 ms). */
    static final long KEYS_PER_ITERATION_LIMIT = 64_000_000;

    private BenchFilter[] filters;
    /** Keys all the filters hold together: filters.length * n. */
    private long capacity;
    private Path dir;
    /** The next chunk of keys to add since the filters were last emptied; chunk c goes to filter c * SIZE / n. */
    private final AtomicLong nextChunk = new AtomicLong();

    /** How many filters of n keys are rotated through: enough for one iteration's keys. */
    static int filtersFor(long n) {
        return (int) Math.max(1, Math.min(64, (KEYS_PER_ITERATION_LIMIT + n - 1) / n));
    }

    @Setup(Level.Trial)
    public void createFilters(BenchmarkParams params) throws IOException {
        requireWholeChunks();
        if (params.getThreads() > 1 && !impl.threadSafeAdds()) {
            throw new IllegalArgumentException(impl + " does not take adds from several threads; run it with -t 1");
        }
        dir = BenchDirs.scratch("add-");
        filters = new BenchFilter[filtersFor(n)];
        try {
            for (int i = 0; i < filters.length; i++) {
                filters[i] = impl.createEmpty(n, keyType, dir.resolve("add-" + i + ".bloom"));
            }
        } catch (IOException | RuntimeException e) {
            deleteFilters(); // JMH skips the tear-down of a failed set-up
            throw e;
        }
        capacity = filters.length * n;
    }

    /** Empties the used filters unless they still have room for a whole iteration's keys. */
    @Setup(Level.Iteration)
    public void makeRoom() throws IOException {
        long added = nextChunk.get() * KeyChunk.SIZE;
        if (capacity - added >= Math.min(capacity, KEYS_PER_ITERATION_LIMIT)) {
            return;
        }
        long used = Math.min(filters.length, (added + n - 1) / n);
        for (int i = 0; i < used; i++) {
            filters[i].clear();
        }
        nextChunk.set(0);
    }

    @TearDown(Level.Trial)
    public void deleteFilters() throws IOException {
        for (BenchFilter filter : filters) {
            if (filter != null) {
                filter.close();
            }
        }
        BenchDirs.deleteTree(dir);
    }

    /** A thread's next chunk of new keys and the filter it goes to, prepared outside the measurement. */
    @State(Scope.Thread)
    public static class NewKeys {
        KeyChunk chunk;
        BenchFilter target;

        @Setup(Level.Trial)
        public void allocate(AddBenchmark bench) {
            chunk = new KeyChunk(bench.keyType);
        }

        @Setup(Level.Invocation)
        public void next(AddBenchmark bench) {
            long first = bench.nextChunk.getAndIncrement() * KeyChunk.SIZE;
            if (first + KeyChunk.SIZE > bench.capacity) {
                throw new IllegalStateException("an iteration overfilled all " + bench.filters.length + " filters of "
                        + bench.n + " keys; shorten the iterations");
            }
            target = bench.filters[(int) (first / bench.n)];
            chunk.fill(first);
        }
    }

    @Benchmark
    @OperationsPerInvocation(KeyChunk.SIZE)
    public int add(NewKeys keys) {
        return keys.target.addEach(keys.chunk);
    }

    @Benchmark
    @OperationsPerInvocation(KeyChunk.SIZE)
    public int addBatch(NewKeys keys) {
        return keys.target.addBatch(keys.chunk);
    }
}
