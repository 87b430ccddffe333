package io.bloomstore.bench.micro;

import io.bloomstore.BloomierMap;
import io.bloomstore.CreateOption;
import io.bloomstore.bench.BenchDirs;
import it.unimi.dsi.bits.TransformationStrategies;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.sux4j.mph.GOV3Function;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
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
 * The Bloomier map beside Sux4J's {@code GOV3Function} (Genuzio, Ottaviano &amp; Vigna), the JVM's
 * reference static function, on the same n keys (8-byte byte[] keys, as both hash raw bytes) to
 * R = 8-bit values. The map also stores an F = 8-bit fingerprint a key, so that a key not in it
 * reads absent but for 2^−8; a {@code GOV3Function} with explicit values cannot be signed (its
 * builder refuses), so it answers some value for every key and stores R bits a key only: the map
 * pays 2x its slot width for the "absent" answer. Measured: build time of the whole structure from
 * the keys in memory (the map's to a mapped file, spool and publish included), and lookups of
 * present keys in Mops/s (one op = one key, from a shuffled batch of {@value #BATCH}). Setup prints
 * each one's bits a key.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgs = {"-Xms1g", "-Xmx1g"})
public class BloomierMapBenchmark {
    static final int BATCH = 1024;
    static final int VALUE_BITS = 8;
    static final int CHECK_BITS = 8;

    @Param({"1000000"})
    int keys;

    byte[][] keyBytes;
    LongArrayList values;
    Path dir;
    BloomierMap map;
    GOV3Function<byte[]> function;
    byte[][] batch;
    int next;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        SplittableRandom random = new SplittableRandom(34);
        keyBytes = new byte[keys][];
        values = new LongArrayList(keys);
        for (int i = 0; i < keys; i++) {
            keyBytes[i] = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).putLong(random.nextLong()).array();
            values.add(random.nextInt(1 << VALUE_BITS));
        }
        dir = BenchDirs.scratch("bloomier");
        map = buildMap(dir.resolve("setup.map"));
        function = buildFunction();
        System.out.printf("%n# bits a key: bloomstore map %.2f (R = %d + F = %d a slot), sux4j GOV3Function %.2f (R = %d)%n",
                map.shape().bitsPerKey(), VALUE_BITS, CHECK_BITS, (double) function.numBits() / keys, VALUE_BITS);
        batch = new byte[BATCH * 64][];
        for (int i = 0; i < batch.length; i++) {
            batch[i] = keyBytes[random.nextInt(keys)];
        }
    }

    private BloomierMap buildMap(Path file) throws IOException {
        try (BloomierMap.Builder builder = BloomierMap.builder(file, VALUE_BITS).fingerprintBits(CHECK_BITS).options(CreateOption.REPLACE_EXISTING)) {
            for (int i = 0; i < keys; i++) {
                builder.put(keyBytes[i], values.getLong(i));
            }
            builder.build();
        }
        return BloomierMap.open(file);
    }

    private GOV3Function<byte[]> buildFunction() throws IOException {
        return new GOV3Function.Builder<byte[]>().keys(Arrays.asList(keyBytes)).transform(TransformationStrategies.rawByteArray())
                .values(values, VALUE_BITS).tempDir(dir.toFile()).build();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        map.close();
        BenchDirs.deleteTree(dir);
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public long buildBloomstore() throws IOException {
        try (BloomierMap built = buildMap(dir.resolve("build.map"))) {
            return built.shape().pairs();
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public long buildSux4j() throws IOException {
        return buildFunction().size64();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long getBloomstore() {
        long sum = 0;
        int from = next;
        next = (next + BATCH) % batch.length;
        for (int i = from; i < from + BATCH; i++) {
            sum += map.get(batch[i]);
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long getSux4j() {
        long sum = 0;
        int from = next;
        next = (next + BATCH) % batch.length;
        for (int i = from; i < from + BATCH; i++) {
            sum += function.getLong(batch[i]);
        }
        return sum;
    }
}
