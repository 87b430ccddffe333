package io.bloomstore.spark;

import io.bloomstore.BloomSpec;
import io.bloomstore.CreateOption;
import io.bloomstore.FilterFileInfo;
import io.bloomstore.Layout;
import io.bloomstore.MembershipFilter;
import io.bloomstore.SparkSketches;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.util.SerializableConfiguration;

/**
 * bloomstore on Apache Spark: build a filter file from a column of a Dataset, and test columns
 * against filter files inside queries.
 *
 * <pre>{@code
 * Dataset<Row> ids = spark.read().parquet("s3a://lake/customers/");
 * BloomSpec spec = BloomSpec.builder().expectedKeys(2_000_000_000L).fpp(0.01).layout(Layout.BLOCKED).build();
 * BloomstoreSpark.build(ids, "customer_id", spec, "s3a://lake/filters/customers.bloom");
 *
 * Dataset<Row> events = spark.read().parquet("s3a://lake/events/");
 * Dataset<Row> maybeKnown = BloomstoreSpark.whereMightContain(events, "customer_id", "s3a://lake/filters/customers.bloom");
 * BloomstoreSpark.register(spark, "known_customer", "s3a://lake/filters/customers.bloom");
 * spark.sql("SELECT count(*) FROM events WHERE known_customer(customer_id)");
 * }</pre>
 *
 * <p><b>Keys.</b> A string column's keys are its UTF-8 bytes, a whole-number column's (bigint, int,
 * smallint, tinyint) the 8 little-endian bytes of the number as a long, a binary column's its
 * bytes: the canonical bytes of docs/FORMAT.md, so a file built here answers as one built by
 * {@code bloomstore build} or the Java API from the same keys. Other types are refused: cast them.
 *
 * <p><b>Null keys</b> are skipped and counted ({@link BuildResult#nullKeys()}): a null is no key.
 * {@link #mightContain} is false for a null key, so {@link #whereMightContain} drops rows with a
 * null key and {@link #whereAbsent} keeps them (as NOT EXISTS would).
 */
public final class BloomstoreSpark {
    /** The pipe between a sketch's writeTo and the import: a few pages at a time. */
    private static final int PIPE_BYTES = 1 << 16;

    private BloomstoreSpark() {
    }

    /** Builds {@code outputPath} from column {@code column} of {@code data}, refusing to replace a file. */
    public static BuildResult build(Dataset<Row> data, String column, BloomSpec spec, String outputPath)
            throws IOException {
        return build(data, column, spec, outputPath, BuildOptions.defaults());
    }

    /**
     * Builds a filter file of shape {@code spec} holding every non-null key of column {@code column}
     * of {@code data}, at {@code outputPath} on any file system Spark's Hadoop configuration reaches
     * ({@code file:}, {@code hdfs:}, {@code s3a:}, ...). The file appears whole and sealed, or not at
     * all; a retried or speculative task writes its part again, with the same content.
     *
     * <p>A blocked or sectorized spec is built by range: the shuffle moves each key's 8-byte hash to
     * the task of its slice of blocks, and the cells are byte for byte those one machine would set.
     * A standard spec is built per input partition and OR-merged in a tree: same answers, but a
     * whole filter moved per partition; prefer the blocked or sectorized layout for large filters.
     *
     * @throws IllegalArgumentException if the column is missing (naming the columns there are) or
     *     not of a key type, or the spec is of the sbbf layout, before any work is done
     * @throws java.nio.file.FileAlreadyExistsException if the file exists and
     *     {@link BuildOptions#replaceExisting()} is false, before any work is done
     */
    public static BuildResult build(Dataset<Row> data, String column, BloomSpec spec, String outputPath,
            BuildOptions options) throws IOException {
        if (spec.layout() == Layout.SBBF) {
            throw new IllegalArgumentException("an sbbf filter is not built on Spark: build it with 'bloomstore build "
                    + "--layout sbbf', or import a Parquet column's own filters (ParquetFilters.importColumn)");
        }
        KeyColumn kind = KeyColumn.of(data.schema(), column);
        JavaRDD<InternalRow> keys = data.select(functions.col(column)).queryExecution().toRdd().toJavaRDD();
        try (OutputFile output = new OutputFile(data.sparkSession(), outputPath, options.replaceExisting())) {
            if (spec.layout() != Layout.STANDARD) {
                int slices = options.slices() > 0 ? options.slices() : (int) Math.min(Integer.MAX_VALUE, Math.max(
                        data.sparkSession().sparkContext().defaultParallelism(),
                        (spec.cellBytes() + BuildOptions.DEFAULT_SLICE_BYTES - 1) / BuildOptions.DEFAULT_SLICE_BYTES));
                return BlockedBuild.run(keys, kind, spec, slices, output);
            }
            return StandardBuild.run(keys, kind, spec, output);
        }
    }

    /**
     * Writes Spark's own sketch of a column, {@code data.stat().bloomFilter(column, expectedItems,
     * fpp)}, as a bloomstore file of the {@link io.bloomstore.Layout#SPARK_SKETCH} layout at
     * {@code out} on the driver: mapped, shared, answering every key as the sketch's
     * {@code mightContain} does (ask with the call of the column's type: a long column's keys with
     * {@code mightContain(long)}, a string column's with {@code mightContain(CharSequence)}). Use it
     * where the filter must be the sketch, to be read back by Spark's own code; otherwise
     * {@link #build} makes a filter sized for its rate, faster to query, that merges with
     * bloomstore's own files.
     *
     * @param out the file to create on the driver's file system; its directory must exist
     * @param options {@link CreateOption#REPLACE_EXISTING} to replace an existing file
     * @return the new file's header
     * @throws IllegalArgumentException if the column is missing or not of a type the sketch takes
     */
    public static FilterFileInfo buildSketch(Dataset<Row> data, String column, long expectedItems, double fpp, Path out,
            CreateOption... options) throws IOException {
        return importSketch(data.stat().bloomFilter(column, expectedItems, fpp), out, options);
    }

    /**
     * Writes a Spark sketch Bloom filter (however it was made: {@code DataFrame.stat().bloomFilter},
     * {@code BloomFilter.create}, {@code readFrom}) as a bloomstore file at {@code out}, as
     * {@link SparkSketches#importStream} does with its {@code writeTo} stream, which this streams
     * through a pipe rather than holding a copy of the bits.
     *
     * @param sketch the sketch; not changed
     * @param out the file to create; its directory must exist
     * @param options {@link CreateOption#REPLACE_EXISTING} to replace an existing file
     * @return the new file's header
     */
    public static FilterFileInfo importSketch(org.apache.spark.util.sketch.BloomFilter sketch, Path out,
            CreateOption... options) throws IOException {
        try (PipedInputStream in = new PipedInputStream(PIPE_BYTES); PipedOutputStream pipe = new PipedOutputStream(in)) {
            CompletableFuture<Void> written = CompletableFuture.runAsync(() -> {
                try (pipe) {
                    sketch.writeTo(pipe);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            FilterFileInfo info = SparkSketches.importStream(in, out, options);
            written.join();
            return info;
        }
    }

    /**
     * A boolean column: whether {@code key} may be in the filter file at {@code filterPath} (false
     * is certain; false for a null key). The file is the version found now: each executor maps it
     * once and shares it between its tasks; a file changed before a task first opens it fails the
     * task, naming it, rather than answer from another version.
     *
     * @throws java.io.FileNotFoundException naming the path, if there is no file
     */
    public static Column mightContain(Column key, String filterPath) throws IOException {
        return mightContainFunction(SparkSession.active(), filterPath).apply(key);
    }

    /**
     * Registers {@code name(key)} for SQL: {@link #mightContain} of the file at {@code filterPath}
     * as it is now. Register again after rebuilding the file.
     */
    public static void register(SparkSession spark, String name, String filterPath) throws IOException {
        spark.udf().register(name, mightContainFunction(spark, filterPath));
    }

    /**
     * The rows of {@code data} whose key may be in the filter: a semi-join prefilter, which drops
     * (almost) every row that a join with the filter's key set would drop, before the join's shuffle.
     */
    public static Dataset<Row> whereMightContain(Dataset<Row> data, String column, String filterPath)
            throws IOException {
        KeyColumn.of(data.schema(), column);
        return data.filter(mightContain(data.col(column), filterPath));
    }

    /**
     * The rows of {@code data} whose key is certainly not in the filter: an anti-join that needs no
     * join for these rows (the others may or may not be in the set: join them to decide).
     */
    public static Dataset<Row> whereAbsent(Dataset<Row> data, String column, String filterPath) throws IOException {
        KeyColumn.of(data.schema(), column);
        return data.filter(functions.not(mightContain(data.col(column), filterPath)));
    }

    /**
     * Dedup over a stream of batches: the rows of {@code batch} whose key {@code seen} has not seen
     * before, one row per key, after adding their keys to {@code seen} (and syncing it). With a
     * filter file that persists between runs ({@link io.bloomstore.BloomFilter#openOrCreate}), a key
     * is returned once over all runs; with a {@link io.bloomstore.WindowedBloomFilter}, once per
     * window. A false positive of the filter drops a new key: size it for all the keys it will hold.
     *
     * <p>The batch's distinct keys are collected to the driver, which holds {@code seen}: size batches
     * so their keys fit there. Rows with a null key are not returned. The keys are marked seen when
     * this returns, before the rows are used: a run that fails after it has not processed them, so
     * persist the batch and write its output before the next call (at most once per key).
     */
    public static Dataset<Row> newKeys(Dataset<Row> batch, String column, MembershipFilter seen) throws IOException {
        KeyColumn.of(batch.schema(), column);
        Column key = batch.col(column);
        Dataset<Row> keys = batch.select(key).filter(key.isNotNull()).distinct();
        List<Row> fresh = new ArrayList<>();
        for (Row row : keys.collectAsList()) {
            if (seen.addHash(KeyColumn.hashValue(row.get(0), seen.hasher()))) {
                fresh.add(row);
            }
        }
        seen.sync();
        Dataset<Row> freshKeys = batch.sparkSession().createDataFrame(fresh, keys.schema());
        return batch.filter(key.isNotNull()).dropDuplicates(column)
                .join(functions.broadcast(freshKeys), scala.jdk.javaapi.CollectionConverters.asScala(List.of(column)).toSeq(),
                        "left_semi");
    }

    private static UserDefinedFunction mightContainFunction(SparkSession spark, String filterPath) throws IOException {
        FilterRef ref = FilterRef.of(filterPath, spark.sparkContext().hadoopConfiguration());
        Broadcast<SerializableConfiguration> conf = JavaSparkContext.fromSparkContext(spark.sparkContext())
                .broadcast(new SerializableConfiguration(spark.sparkContext().hadoopConfiguration()));
        UDF1<Object, Boolean> test = key -> {
            if (key == null) {
                return false;
            }
            MembershipFilter filter = ExecutorFilters.get(ref, conf.value().value());
            return filter.mightContainHash(KeyColumn.hashValue(key, filter.hasher()));
        };
        return functions.udf(test, DataTypes.BooleanType).asNonNullable();
    }
}
