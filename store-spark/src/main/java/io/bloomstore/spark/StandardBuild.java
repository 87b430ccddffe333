package io.bloomstore.spark;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.KeyHasher;
import io.bloomstore.Merge;
import io.bloomstore.MergeOp;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.util.SerializableConfiguration;

/**
 * The build of a standard-layout filter, whose k cells per key lie anywhere in the array, so it
 * cannot be cut into slices: each input partition fills a whole filter of the same m, k and seed
 * from its keys, and the partial filters are OR-merged in a tree of {@link #FAN_IN} inputs a merge,
 * each merge a task, until one is left. OR is exact for Bloom filters, so the result answers as one
 * filter built from all the keys (for counting filters, OR is the saturating sum, as in {@link Merge}).
 * It moves a whole filter per partition: for large filters use the blocked layout, or fewer partitions.
 */
final class StandardBuild {
    /** Inputs per merge task: few enough that a task's inputs fit its local disk, enough for a shallow tree. */
    static final int FAN_IN = 8;
    private static final int BATCH = 4096;

    private StandardBuild() {
    }

    /** What one partition's task did. */
    record PartOutcome(String part, long keys, long nullKeys) implements Serializable {
    }

    static BuildResult run(JavaRDD<InternalRow> keys, KeyColumn column, BloomSpec spec, OutputFile output)
            throws IOException {
        ShapeOf shape = ShapeOf.of(spec);
        Broadcast<SerializableConfiguration> conf = output.broadcastConfiguration();
        String workDir = output.workDirectory().toString();
        List<PartOutcome> parts = keys.mapPartitionsWithIndex((partition, rows) -> List.of(
                fillPart(shape, column, partition, rows, conf.value().value(), workDir)).iterator(), false).collect();

        List<String> level = new ArrayList<>(parts.stream().map(PartOutcome::part).toList());
        if (level.isEmpty()) {
            level.add(fillPart(shape, column, 0, java.util.Collections.emptyIterator(),
                    output.fileSystem().getConf(), workDir).part());
        }
        JavaSparkContext context = JavaSparkContext.fromSparkContext(keys.context());
        for (int round = 1; level.size() > 1; round++) {
            List<List<String>> groups = new ArrayList<>();
            for (int i = 0; i < level.size(); i += FAN_IN) {
                groups.add(new ArrayList<>(level.subList(i, Math.min(level.size(), i + FAN_IN))));
            }
            int r = round;
            level = context.parallelize(groups, groups.size())
                    .mapPartitionsWithIndex((g, group) -> List.of(
                            mergeGroup(group.next(), conf.value().value(), workDir, r, g)).iterator(), false)
                    .collect();
        }
        output.publishPart(new Path(level.get(0)));
        long keyCount = parts.stream().mapToLong(PartOutcome::keys).sum();
        long nulls = parts.stream().mapToLong(PartOutcome::nullKeys).sum();
        return new BuildResult(output.path().toString(), spec, keyCount, nulls, Math.max(1, parts.size()));
    }

    /** Builds partition {@code partition}'s filter locally, seals it and writes it to the work directory. */
    private static PartOutcome fillPart(ShapeOf shape, KeyColumn column, int partition, Iterator<InternalRow> rows,
            Configuration conf, String workDir) throws IOException {
        BloomSpec spec = shape.spec();
        KeyHasher hasher = new KeyHasher(spec.hashAlgorithm(), spec.seed());
        java.nio.file.Path scratch = HadoopFiles.scratchDirectory("part");
        try {
            java.nio.file.Path local = scratch.resolve("part.bloom");
            long keys = 0;
            long nulls = 0;
            try (BloomFilter filter = BloomFilter.create(local, spec)) {
                long[] batch = new long[BATCH];
                int filled = 0;
                while (rows.hasNext()) {
                    InternalRow row = rows.next();
                    if (row.isNullAt(0)) {
                        nulls++;
                        continue;
                    }
                    batch[filled++] = column.hash(row, 0, hasher);
                    if (filled == BATCH) {
                        filter.addHashes(batch, filled);
                        keys += filled;
                        filled = 0;
                    }
                }
                filter.addHashes(batch, filled);
                keys += filled;
                filter.seal();
            }
            Path part = new Path(workDir, String.format("part-%06d", partition));
            HadoopFiles.writeReplacing(HadoopFiles.of(part, conf), part, out -> Files.copy(local, out));
            return new PartOutcome(part.toString(), keys, nulls);
        } finally {
            OutputFile.deleteTree(scratch);
        }
    }

    /** OR-merges one group of a round's filters into one file in the work directory; returns its path. */
    private static String mergeGroup(List<String> group, Configuration conf, String workDir, int round, int index)
            throws IOException {
        if (group.size() == 1) {
            return group.get(0);
        }
        Path merged = new Path(workDir, String.format("round-%02d-%06d", round, index));
        FileSystem fs = HadoopFiles.of(merged, conf);
        java.nio.file.Path scratch = HadoopFiles.scratchDirectory("merge");
        try {
            List<java.nio.file.Path> inputs = new ArrayList<>();
            for (int i = 0; i < group.size(); i++) {
                java.nio.file.Path input = scratch.resolve("in-" + i + ".bloom");
                fs.copyToLocalFile(false, new Path(group.get(i)), new Path(input.toUri()), true);
                inputs.add(input);
            }
            java.nio.file.Path out = scratch.resolve("merged.bloom");
            Merge.toNewFile(out, inputs, MergeOp.OR);
            HadoopFiles.writeReplacing(fs, merged, o -> Files.copy(out, o));
            return merged.toString();
        } finally {
            OutputFile.deleteTree(scratch);
        }
    }
}
