package io.bloomstore.bench.micro;

import io.bloomstore.bench.BenchDirs;
import io.bloomstore.bench.Keys;
import io.bloomstore.bench.MappedRegion;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the machine allows, so each filter result can be read as a fraction of it: random 8-byte
 * loads over a mapped region (dependent: the latency of one miss; eight independent: how many
 * misses the core overlaps) and a sequential copy of the whole region, onto another mapped file
 * (the limit for merges, which write file pages) and into anonymous memory (memory bandwidth).
 *
 * <p>The region is a mapped file of random words (1 GiB by default, far beyond the caches),
 * reached through 4 KiB page-cache pages as a filter's cells are, so TLB misses are part of the
 * limit just as they are part of a filter query. Addresses come from the same mixer as the keys.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@Warmup(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(value = 1, jvmArgs = {"-Xms256m", "-Xmx256m", "-XX:MaxDirectMemorySize=1200m"})
public class MemoryLimitsBenchmark {
    @Param({"1073741824"})
    public long regionBytes;

    private MappedRegion region;

    @Setup(Level.Trial)
    public void mapRegion() throws IOException {
        region = MappedRegion.ofRandomFile(BenchDirs.fixtures().resolve("random-" + regionBytes + ".bin"), regionBytes);
    }

    /** Where a thread's loads go next. */
    @State(Scope.Thread)
    public static class Walk {
        long last;
        long step;
    }

    /** The copy target: a second region of the same size. */
    @State(Scope.Benchmark)
    public static class CopyTarget {
        MappedRegion region;

        @Setup(Level.Trial)
        public void mapTarget(MemoryLimitsBenchmark bench) throws IOException {
            region = MappedRegion.ofRandomFile(
                    BenchDirs.fixtures().resolve("copy-target-" + bench.regionBytes + ".bin"), bench.regionBytes);
        }
    }

    /** A direct buffer as large as the region: anonymous memory, for the copy without file-backed pages. */
    @State(Scope.Benchmark)
    public static class AnonymousTarget {
        ByteBuffer buffer;

        @Setup(Level.Trial)
        public void allocate(MemoryLimitsBenchmark bench) {
            buffer = ByteBuffer.allocateDirect((int) bench.regionBytes);
        }
    }

    /** One random load whose address depends on the value the previous one loaded: memory latency. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public long dependentLoad(Walk walk) {
        long word = Keys.mix(walk.last + walk.step++) & region.wordMask();
        walk.last = region.load(word);
        return walk.last;
    }

    /** Eight random loads whose addresses are known up front, like the k probes of one standard-layout key. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public long independentLoads8(Walk walk) {
        long first = walk.step;
        walk.step = first + 8;
        long mask = region.wordMask();
        long sum = 0;
        for (int i = 0; i < 8; i++) {
            sum += region.load(Keys.mix(first + i) & mask);
        }
        return sum;
    }

    /** A copy of the whole region onto another mapped region: sequential read and write bandwidth. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public void sequentialCopy(CopyTarget target) {
        region.copyTo(target.region);
    }

    /**
     * The same copy into anonymous memory: the memory bandwidth proper. The gap to
     * {@link #sequentialCopy} is what writing through a shared file mapping costs (dirty-page
     * tracking, write-protect faults after writeback).
     */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public void sequentialCopyToAnonymous(AnonymousTarget target) {
        region.copyTo(target.buffer);
    }
}
