package io.bloomstore.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.util.UUID;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.util.SerializableConfiguration;

/**
 * The filter file a build writes, on any Hadoop file system, and the hidden work directory beside it
 * where the tasks leave their parts: deleted when the build ends, whether it succeeded or not.
 */
final class OutputFile implements AutoCloseable {
    private final SparkSession spark;
    private final Path path;
    private final FileSystem fs;
    private final boolean replace;
    private final Path workDirectory;

    /** Writes a complete filter file at a local path. */
    @FunctionalInterface
    interface LocalWriter {
        void write(java.nio.file.Path file, boolean replace) throws IOException;
    }

    /**
     * @throws java.nio.file.FileAlreadyExistsException if the file exists and {@code replace} is false,
     *     before any work is done
     */
    OutputFile(SparkSession spark, String path, boolean replace) throws IOException {
        this.spark = spark;
        this.path = new Path(path);
        this.fs = HadoopFiles.of(this.path, spark.sparkContext().hadoopConfiguration());
        this.replace = replace;
        if (!replace) {
            HadoopFiles.requireAbsent(fs, this.path);
        }
        Path parent = fs.makeQualified(this.path).getParent();
        this.workDirectory = new Path(parent, "." + this.path.getName() + "." + UUID.randomUUID() + ".parts");
        fs.mkdirs(workDirectory);
    }

    Path path() {
        return path;
    }

    FileSystem fileSystem() {
        return fs;
    }

    /** Where the tasks write their parts. */
    Path workDirectory() {
        return workDirectory;
    }

    /** The Hadoop configuration, for the tasks to reach the file system with. */
    Broadcast<SerializableConfiguration> broadcastConfiguration() {
        return JavaSparkContext.fromSparkContext(spark.sparkContext())
                .broadcast(new SerializableConfiguration(spark.sparkContext().hadoopConfiguration()));
    }

    /**
     * Makes the file that {@code writer} writes the output: written in place (atomically, by the
     * core) when the output is a local file, else written to a local scratch file and copied up.
     */
    void publish(LocalWriter writer) throws IOException {
        java.nio.file.Path local = HadoopFiles.localFile(fs, path);
        if (local != null) {
            writer.write(local, replace);
            return;
        }
        java.nio.file.Path scratch = HadoopFiles.scratchDirectory("assemble");
        try {
            java.nio.file.Path file = scratch.resolve(path.getName());
            writer.write(file, false);
            HadoopFiles.publish(file, fs, path, replace);
        } finally {
            deleteTree(scratch);
        }
    }

    /** Makes {@code part}, a complete filter file in the work directory, the output, by rename. */
    void publishPart(Path part) throws IOException {
        if (!replace) {
            HadoopFiles.requireAbsent(fs, path);
        } else {
            fs.delete(path, false);
        }
        if (!fs.rename(part, path)) {
            throw new IOException(path + ": cannot rename " + part + " to it");
        }
    }

    /** Deletes the work directory and what the tasks left in it. */
    @Override
    public void close() throws IOException {
        fs.delete(workDirectory, true);
    }

    static void deleteTree(java.nio.file.Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            for (java.nio.file.Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
