package io.bloomstore.spark.bench;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import io.bloomstore.OpenMode;
import io.bloomstore.spark.BloomstoreSpark;
import io.bloomstore.spark.BuildResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.StageInfo;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A macro run, not a unit test: builds one filter of N long keys ({@code spark.range(N)}) in local
 * mode four ways at the same n and p (bloomstore blocked, bloomstore standard, Spark's own
 * {@code stat().bloomFilter} as it comes, capped, and with its caps raised to the n and size the keys
 * need), and prints for each the wall time, the bytes the shuffle wrote, the
 * bytes the tasks sent the driver, and the size of the filter, and the false-positive rate measured on Q absent keys with its
 * binomial standard deviation. Run by {@code mvn -B -pl store-spark -am verify -DskipTests
 * -Dspark.bench.keys=N} (the spark-bench profile of store-spark's pom); docs/BENCHMARKS.md has the
 * numbers.
 */
public final class SparkBuildComparison {
    private static final double FPP = 0.01;
    private static final long QUERIES = 2_000_000;
    private static final String MAX_NUM_BITS = "spark.sql.optimizer.runtime.bloomFilter.maxNumBits";
    private static final String MAX_NUM_ITEMS = "spark.sql.optimizer.runtime.bloomFilter.maxNumItems";

    /** Shuffle bytes written and task result bytes of every task that ends, summed; each stage's wall time. */
    static final class Traffic extends SparkListener {
        final AtomicLong shuffleWritten = new AtomicLong();
        final AtomicLong results = new AtomicLong();
        final StringBuffer stages = new StringBuffer();

        @Override
        public void onStageCompleted(SparkListenerStageCompleted completed) {
            StageInfo stage = completed.stageInfo();
            if (stage.submissionTime().isDefined() && stage.completionTime().isDefined()) {
                stages.append(String.format(Locale.ROOT, "  stage %d (%d tasks) %.1f s: %s%n", stage.stageId(),
                        stage.numTasks(), ((Long) stage.completionTime().get() - (Long) stage.submissionTime().get()) / 1e3,
                        stage.name()));
            }
        }

        @Override
        public void onTaskEnd(SparkListenerTaskEnd end) {
            if (end.taskMetrics() != null) {
                shuffleWritten.addAndGet(end.taskMetrics().shuffleWriteMetrics().bytesWritten());
                results.addAndGet(end.taskMetrics().resultSize());
            }
        }

        void reset() {
            shuffleWritten.set(0);
            results.set(0);
            stages.setLength(0);
        }
    }

    public static void main(String[] args) throws IOException, java.util.concurrent.TimeoutException {
        long keys = Long.parseLong(args[0]);
        String master = args.length > 1 ? args[1] : "local[2]";
        SparkSession spark = SparkSession.builder().master(master).appName("bloomstore vs stat().bloomFilter")
                .config("spark.driver.bindAddress", "127.0.0.1").config("spark.driver.host", "127.0.0.1")
                .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
                .getOrCreate();
        Traffic traffic = new Traffic();
        spark.sparkContext().addSparkListener(traffic);
        Dataset<Row> data = spark.range(keys).toDF("id");
        Path dir = Files.createTempDirectory("spark-build-comparison");
        // warm-up, not reported: the first build in a JVM pays class loading and compilation for all three
        Dataset<Row> small = spark.range(1_000_000).toDF("id");
        for (Layout layout : Layout.values()) {
            if (layout.isImported()) {
                continue; // another library's filter, never sized
            }
            BloomstoreSpark.build(small, "id", BloomSpec.builder().expectedKeys(1_000_000).fpp(FPP).layout(layout).build(),
                    dir.resolve("warm-up-" + layout).toString());
        }
        small.stat().bloomFilter("id", 1_000_000, FPP);
        System.out.printf(Locale.ROOT, "keys %,d, p %.3f, %s, %d partitions, %,d absent keys queried%n", keys, FPP, master,
                data.rdd().getNumPartitions(), QUERIES);
        System.out.println("build | wall s | shuffle written MB | task results MB | output MB | fpp measured (sigma)");

        for (Layout layout : Layout.values()) {
            if (layout.isImported()) {
                continue; // another library's filter, never sized
            }
            BloomSpec spec = BloomSpec.builder().expectedKeys(keys).fpp(FPP).layout(layout).build();
            Path out = dir.resolve(layout.name().toLowerCase(Locale.ROOT) + ".bloom");
            traffic.reset();
            long start = System.nanoTime();
            BuildResult result = BloomstoreSpark.build(data, "id", spec, out.toString());
            double seconds = (System.nanoTime() - start) / 1e9;
            spark.sparkContext().listenerBus().waitUntilEmpty();
            long falsePositives = 0;
            try (BloomFilter filter = BloomFilter.open(out, OpenMode.READ_ONLY)) {
                for (long q = keys; q < keys + QUERIES; q++) {
                    falsePositives += filter.mightContain(q) ? 1 : 0;
                }
            }
            report("bloomstore " + layout.name().toLowerCase(Locale.ROOT) + " (" + result.tasks() + " tasks)", seconds,
                    traffic, Files.size(out), falsePositives);
            Files.delete(out);
        }

        buildWithSpark("Spark stat().bloomFilter", data, keys, traffic);
        // Spark caps the filter's bits (2^26 by default) and the keys it sizes its hashes for (4 M): raised
        // to n and what n and p need, its filter has the size and k the keys need, as bloomstore's has.
        // Raising the bits alone gave k = 33 for 20 M keys in 24 MB, which measured 34 % false positives.
        spark.conf().set(MAX_NUM_BITS, org.apache.spark.util.sketch.BloomFilter.optimalNumOfBits(keys, FPP));
        spark.conf().set(MAX_NUM_ITEMS, keys);
        buildWithSpark("Spark stat().bloomFilter, caps raised", data, keys, traffic);
        spark.stop();
    }

    private static void buildWithSpark(String name, Dataset<Row> data, long keys, Traffic traffic)
            throws java.util.concurrent.TimeoutException {
        traffic.reset();
        long start = System.nanoTime();
        org.apache.spark.util.sketch.BloomFilter sparks = data.stat().bloomFilter("id", keys, FPP);
        double seconds = (System.nanoTime() - start) / 1e9;
        data.sparkSession().sparkContext().listenerBus().waitUntilEmpty();
        long falsePositives = 0;
        for (long q = keys; q < keys + QUERIES; q++) {
            falsePositives += sparks.mightContainLong(q) ? 1 : 0;
        }
        report(name, seconds, traffic, sparks.bitSize() / 8, falsePositives);
    }

    private static void report(String name, double seconds, Traffic traffic, long outputBytes, long falsePositives) {
        double rate = (double) falsePositives / QUERIES;
        double sigma = Math.sqrt(FPP * (1 - FPP) / QUERIES);
        System.out.printf(Locale.ROOT, "%s | %.1f | %.1f | %.1f | %.1f | %.5f (%.5f)%n", name, seconds,
                traffic.shuffleWritten.get() / 1e6, traffic.results.get() / 1e6, outputBytes / 1e6, rate, sigma);
        System.out.print(traffic.stages);
    }
}
