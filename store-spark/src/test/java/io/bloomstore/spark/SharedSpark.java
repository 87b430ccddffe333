package io.bloomstore.spark;

import org.apache.spark.sql.SparkSession;

/**
 * The one Spark session of the test JVM, started by the first test that needs it and stopped by
 * Spark's own shutdown hook: local mode with two task threads and up to three attempts a task
 * ({@code local[2,3]}, so a task that fails once is retried, as on a cluster), bound to the
 * loopback interface, no UI.
 */
final class SharedSpark {
    private static SparkSession session;

    private SharedSpark() {
    }

    static synchronized SparkSession session() {
        if (session == null) {
            session = SparkSession.builder()
                    .master("local[2,3]")
                    .appName("store-spark tests")
                    .config("spark.driver.bindAddress", "127.0.0.1")
                    .config("spark.driver.host", "127.0.0.1")
                    .config("spark.ui.enabled", "false")
                    .config("spark.ui.showConsoleProgress", "false")
                    .config("spark.sql.shuffle.partitions", "4")
                    .config("spark.default.parallelism", "4")
                    .getOrCreate();
        }
        return session;
    }
}
