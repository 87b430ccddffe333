package io.bloomstore.spark;

import static org.junit.jupiter.api.Assertions.*;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.OpenMode;
import io.bloomstore.Pack;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import net.jpountz.lz4.LZ4Factory;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One LZ4-java in the JVM, the fork bloomstore uses (store-spark's pom excludes Spark's
 * org.lz4:lz4-java), serving both Spark's LZ4 codec and bloomstore's Pack.
 */
class Lz4CoexistenceTest {
    @TempDir
    Path dir;

    @Test
    void sparkShufflesWithLz4AndPackRoundTripsInTheSameJvm() throws IOException {
        String jar = LZ4Factory.class.getProtectionDomain().getCodeSource().getLocation().toString();
        assertTrue(jar.contains("/at/yawk/lz4/"), "LZ4 classes come from the at.yawk.lz4 fork, not " + jar);
        assertEquals("lz4", SharedSpark.session().sparkContext().conf().get("spark.io.compression.codec", "lz4"));

        // a shuffle: its blocks are written and read through Spark's LZ4 codec
        JavaSparkContext context = JavaSparkContext.fromSparkContext(SharedSpark.session().sparkContext());
        long groups = context.parallelize(IntStream.range(0, 50_000).boxed().toList(), 4)
                .mapToPair(i -> new scala.Tuple2<>(i % 1000, i)).reduceByKey(Integer::sum).count();
        assertEquals(1000, groups);

        Path filter = dir.resolve("f.bloom");
        try (BloomFilter f = BloomFilter.create(filter, BloomSpec.forExpected(10_000, 0.01))) {
            IntStream.range(0, 10_000).forEach(i -> f.add("k" + i));
        }
        ByteArrayOutputStream packed = new ByteArrayOutputStream();
        Pack.pack(filter, packed);
        Path restored = dir.resolve("restored.bloom");
        Pack.unpack(new ByteArrayInputStream(packed.toByteArray()), "packed", restored);
        SparkFixtures.assertSameCells(filter, restored);
        try (BloomFilter f = BloomFilter.open(restored, OpenMode.READ_ONLY)) {
            assertTrue(List.of("k0", "k9999").stream().allMatch(f::mightContain));
        }
    }
}
