package io.bloomstore.bench.micro;

import io.bloomstore.BloomSpec;
import io.bloomstore.KeyHasher;
import io.bloomstore.Layout;
import io.bloomstore.internal.cells.CellArray;
import io.bloomstore.internal.probe.SliceProbes;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.BytesStore;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A whole filter filled by the one thread that owns its memory, as a Spark task fills its slice
 * ({@link io.bloomstore.SlicedFilter}) or a one-adder build its image: n keys' hashes, in chunks of
 * 4,096, into empty cells, through the batch path, with a compare-and-set per changed word
 * ({@code plain = false}, what a slice does) against plain stores ({@link CellArray#singleWriter},
 * {@code plain = true}). One invocation is one fill; the cells are zeroed before each.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 8)
@Fork(value = 1, jvmArgs = {"-Xms1g", "-Xmx1g"})
public class SliceFillBenchmark {
    private static final int CHUNK = 4096;

    @Param({"BLOCKED", "SECTORIZED"})
    public Layout layout;

    @Param({"1000000", "10000000"})
    public int n;

    @Param({"false", "true"})
    public boolean plain;

    private long[] hashes;
    private long[] chunk;
    private BytesStore<?, Void> memory;
    private SliceProbes probes;

    @Setup(Level.Trial)
    public void setUp() {
        BloomSpec spec = BloomSpec.builder().expectedKeys(n).fpp(0.01).layout(layout).build();
        KeyHasher hasher = new KeyHasher(spec.hashAlgorithm(), spec.seed());
        SplittableRandom random = new SplittableRandom(20261128L);
        hashes = new long[n];
        for (int i = 0; i < n; i++) {
            hashes[i] = hasher.hash(random.nextLong());
        }
        chunk = new long[CHUNK];
        long bytes = spec.cellBytes();
        memory = BytesStore.nativeStoreWithFixedCapacity(bytes);
        CellArray cells = plain ? CellArray.singleWriter(memory, 0, spec.cells(), 1, bytes)
                : new CellArray(memory, 0, spec.cells(), 1, bytes);
        probes = new SliceProbes(spec, 0, cells);
    }

    @Setup(Level.Invocation)
    public void empty() {
        memory.zeroOut(0, memory.capacity());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        memory.releaseLast();
    }

    @Benchmark
    public long fill() {
        long added = 0;
        for (int from = 0; from < n; from += CHUNK) {
            int count = Math.min(CHUNK, n - from);
            System.arraycopy(hashes, from, chunk, 0, count);
            added += probes.addHashes(chunk, count);
        }
        return added;
    }
}
