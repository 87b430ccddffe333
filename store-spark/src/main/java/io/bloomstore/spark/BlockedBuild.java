package io.bloomstore.spark;

import io.bloomstore.BloomSpec;
import io.bloomstore.CreateOption;
import io.bloomstore.KeyHasher;
import io.bloomstore.SlicedFilter;
import java.io.IOException;
import java.io.Serializable;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.util.SerializableConfiguration;
import scala.Tuple2;

/**
 * The range-partitioned build of a blocked or sectorized filter (a key's cells in one block). Map tasks hash their keys and send each hash
 * (8 bytes) to the slice of blocks it falls in ({@link HashesBySlice}); one reduce task per slice sets
 * its slice's cells and writes them to a slice file beside the output; the driver then lays the
 * slices end to end behind a header ({@link SlicedFilter#assemble}). The shuffle moves 8 bytes a
 * key however large the filter, and the cells are those one machine would set from the same keys.
 */
final class BlockedBuild {
    private BlockedBuild() {
    }

    /** What one slice task did. */
    record SliceOutcome(long keys, long nullKeys) implements Serializable {
    }

    static BuildResult run(JavaRDD<InternalRow> keys, KeyColumn column, BloomSpec spec, int maxSlices,
            OutputFile output) throws IOException {
        SlicedFilter plan = SlicedFilter.of(spec, maxSlices);
        ShapeOf shape = ShapeOf.of(spec);
        int slices = plan.sliceCount();
        Broadcast<SerializableConfiguration> conf = output.broadcastConfiguration();
        String sliceDir = output.workDirectory().toString();

        JavaPairRDD<Integer, HashChunk> chunks = keys.mapPartitionsToPair(rows -> {
            BloomSpec s = shape.spec();
            return new HashesBySlice(rows, column, new KeyHasher(s.hashAlgorithm(), s.seed()), SlicedFilter.of(s, maxSlices));
        });
        List<SliceOutcome> outcomes = chunks.partitionBy(new SlicePartitioner(slices))
                .mapPartitionsWithIndex((slice, sliceChunks) -> List.of(
                        fillSlice(shape, maxSlices, slice, sliceChunks, conf.value().value(), sliceDir)).iterator(), false)
                .collect();

        FileSystem fs = output.fileSystem();
        output.publish((local, replace) -> plan.assemble(local, s -> fs.open(slicePath(sliceDir, s)),
                replace ? new CreateOption[] {CreateOption.REPLACE_EXISTING} : new CreateOption[0]));
        long keyCount = outcomes.stream().mapToLong(SliceOutcome::keys).sum();
        long nulls = outcomes.stream().mapToLong(SliceOutcome::nullKeys).sum();
        return new BuildResult(output.path().toString(), spec, keyCount, nulls, slices);
    }

    /** Sets slice {@code index}'s cells from its chunks and writes them to its slice file. */
    private static SliceOutcome fillSlice(ShapeOf shape, int maxSlices, int index, Iterator<Tuple2<Integer, HashChunk>> chunks,
            org.apache.hadoop.conf.Configuration conf, String sliceDir) throws IOException {
        SlicedFilter plan = SlicedFilter.of(shape.spec(), maxSlices);
        long keys = 0;
        long nulls = 0;
        try (SlicedFilter.Slice slice = plan.newSlice(index)) {
            while (chunks.hasNext()) {
                HashChunk chunk = chunks.next()._2();
                slice.addHashes(chunk.hashes(), chunk.hashes().length);
                keys += chunk.hashes().length;
                nulls += chunk.nullKeys();
            }
            Path target = slicePath(sliceDir, index);
            HadoopFiles.writeReplacing(HadoopFiles.of(target, conf), target, slice::writeTo);
        }
        return new SliceOutcome(keys, nulls);
    }

    static Path slicePath(String sliceDir, int slice) {
        return new Path(sliceDir, String.format("slice-%06d", slice));
    }

    /** Sends a chunk to the task of the slice it is keyed by. */
    static final class SlicePartitioner extends Partitioner {
        private static final long serialVersionUID = 1L;
        private final int slices;

        SlicePartitioner(int slices) {
            this.slices = slices;
        }

        @Override
        public int numPartitions() {
            return slices;
        }

        @Override
        public int getPartition(Object key) {
            return (Integer) key;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof SlicePartitioner p && p.slices == slices;
        }

        @Override
        public int hashCode() {
            return slices;
        }
    }
}
