package io.bloomstore.bench.micro;

import io.bloomstore.bench.BenchFilter;
import io.bloomstore.bench.Fixtures;
import io.bloomstore.bench.KeyChunk;
import io.bloomstore.bench.Keys;
import java.io.IOException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Querying a filter holding its n keys, bloomstore against its peers, for keys that are present and
 * keys that are not (the absent path stops at the first zero cell), with single
 * {@code mightContain} calls and the batch call, in Mops/s (one op = one key); and a batch of half
 * of each, in no order, where present keys that stay in flight for all k probes and absent keys
 * that end early share a standard filter's rounds ({@code BatchProber}), and no branch predictor
 * can learn which is which.
 *
 * <p>The filled filters come from {@link Fixtures} (built once, then mapped or read by each fork;
 * a peer without a serial form is filled in the trial's set-up).
 * Present keys cycle through all n, so at 200 M the whole filter is the working set. Run with
 * {@code -t 2} for two threads querying the same filter.
 */
@State(Scope.Benchmark)
public class MightContainBenchmark extends FilterBenchmark {
    private BenchFilter filter;

    @Setup(Level.Trial)
    public void loadFilledFilter() throws IOException {
        requireWholeChunks();
        filter = Fixtures.filled(impl, keyType, n);
    }

    @TearDown(Level.Trial)
    public void close() {
        filter.close();
    }

    /** The walk of {@link KeyWalk}, set up from this benchmark's key type, n and thread. */
    public abstract static class QueryKeys extends KeyWalk {
        @Setup(Level.Trial)
        public void allocate(MightContainBenchmark bench, ThreadParams thread) {
            start(bench.keyType, bench.n, thread.getThreadIndex(), thread.getThreadCount());
        }
    }

    /** Keys that were added: indices [0, n). */
    @State(Scope.Thread)
    public static class PresentKeys extends QueryKeys {
        @Override
        long firstIndex() {
            return 0;
        }
    }

    /** Keys that were never added. */
    @State(Scope.Thread)
    public static class AbsentKeys extends QueryKeys {
        @Override
        long firstIndex() {
            return Keys.ABSENT_BASE;
        }
    }

    /** Present and absent keys, half of each, by a coin toss per key ({@link KeyChunk#fillMixed}). */
    @State(Scope.Thread)
    public static class MixedKeys extends QueryKeys {
        @Override
        long firstIndex() {
            return 0;
        }

        @Override
        void fill(long first) {
            chunk.fillMixed(first);
        }
    }

    @Benchmark
    @OperationsPerInvocation(KeyChunk.SIZE)
    public int mightContainPresent(PresentKeys keys) {
        return filter.mightContainEach(keys.chunk);
    }

    @Benchmark
    @OperationsPerInvocation(KeyChunk.SIZE)
    public int mightContainAbsent(AbsentKeys keys) {
        return filter.mightContainEach(keys.chunk);
    }

    @Benchmark
    @OperationsPerInvocation(KeyChunk.SIZE)
    public int mightContainPresentBatch(PresentKeys keys) {
        return filter.mightContainBatch(keys.chunk);
    }

    @Benchmark
    @OperationsPerInvocation(KeyChunk.SIZE)
    public int mightContainAbsentBatch(AbsentKeys keys) {
        return filter.mightContainBatch(keys.chunk);
    }

    @Benchmark
    @OperationsPerInvocation(KeyChunk.SIZE)
    public int mightContainMixedBatch(MixedKeys keys) {
        return filter.mightContainBatch(keys.chunk);
    }
}
