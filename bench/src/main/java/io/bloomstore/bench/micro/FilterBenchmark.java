package io.bloomstore.bench.micro;

import io.bloomstore.bench.ComparedFilter;
import io.bloomstore.bench.KeyChunk;
import io.bloomstore.bench.KeyType;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What every filter benchmark shares: the matrix (each {@link ComparedFilter} at each n with each
 * {@link KeyType}, so a bloomstore result always has its peers' twins from the same run) and the
 * run settings. Throughput is in Mops/s with one op = one key ({@code @OperationsPerInvocation}
 * of a {@link KeyChunk}). Every fork gets the same fixed, pre-touched heap, big enough for a
 * 200 M-key peer filter (about 240 MB each, plus a stored one's serial image while it is read), so neither side pays for heap growth or first-touch page faults in it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 8, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgs = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
public abstract class FilterBenchmark {
    /** bloomstore's layouts beside every peer; {@code -p impl=...} picks some. */
    @Param({"GUAVA", "STANDARD", "BLOCKED", "SECTORIZED", "DATASKETCHES", "FASTFILTER_BLOOM", "FASTFILTER_BLOCKED", "COMMONS", "SPARK"})
    public ComparedFilter impl;

    /** 1 M keys: 1.2 MB, inside the L2 cache. 200 M keys: 240 MB, far beyond it. */
    @Param({"1000000", "200000000"})
    public long n;

    @Param({"LONG", "BYTES16"})
    public KeyType keyType;

    /** Fails the trial unless n is a whole number of key chunks. */
    void requireWholeChunks() {
        if (n % KeyChunk.SIZE != 0) {
            throw new IllegalArgumentException("n must be a multiple of " + KeyChunk.SIZE + ", got " + n);
        }
    }
}
