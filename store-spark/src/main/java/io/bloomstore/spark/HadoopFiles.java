package io.bloomstore.spark;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.util.UUID;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkEnv;
import org.apache.spark.SparkFiles;

/**
 * Files on any file system Hadoop's FileSystem reaches ({@code file:}, {@code hdfs:}, {@code s3a:},
 * ...): written under a temporary name and renamed into place, so a reader finds a file whole or
 * not at all, and a task that runs again (a retry, a speculative copy) writes the same file again
 * instead of failing on the first attempt's.
 */
final class HadoopFiles {
    private HadoopFiles() {
    }

    /** Writes the content of a file. */
    @FunctionalInterface
    interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * Writes {@code target} whole: to a temporary beside it, then renamed over whatever an earlier
     * attempt of the same task left there (its content is the same: a task's output depends on its
     * input only).
     */
    static void writeReplacing(FileSystem fs, Path target, Content content) throws IOException {
        Path temporary = temporaryBeside(target);
        try {
            try (OutputStream out = fs.create(temporary, true)) {
                content.writeTo(out);
            }
            if (!fs.rename(temporary, target)) {
                // HDFS refuses to rename over a file: an earlier attempt's
                fs.delete(target, false);
                if (!fs.rename(temporary, target)) {
                    throw new IOException(target + ": cannot rename " + temporary + " to it");
                }
            }
        } finally {
            fs.delete(temporary, false);
        }
    }

    /**
     * Makes the complete local file {@code local} the file {@code target}: renamed on the local file
     * system, else copied to a temporary beside the target and renamed there.
     *
     * @param replace whether an existing target is replaced (on a store without atomic replacing
     *     rename, such as HDFS, it is deleted first: for a moment there is no file)
     */
    static void publish(java.nio.file.Path local, FileSystem fs, Path target, boolean replace) throws IOException {
        if (!replace) {
            requireAbsent(fs, target);
        }
        Path temporary = temporaryBeside(target);
        try {
            fs.copyFromLocalFile(false, true, new Path(local.toUri()), temporary);
            if (replace) {
                fs.delete(target, false);
            }
            if (!fs.rename(temporary, target)) {
                throw new IOException(target + ": cannot rename " + temporary + " to it");
            }
        } finally {
            fs.delete(temporary, false);
        }
    }

    /** Refuses a target that exists, before any work is done. */
    static void requireAbsent(FileSystem fs, Path target) throws IOException {
        if (fs.exists(target)) {
            throw new FileAlreadyExistsException(target.toString(), null,
                    "already exists; delete it or ask for it to be replaced");
        }
    }

    /**
     * The file system of {@code path}; for the local one, without Hadoop's checksum files: a filter
     * file checks itself (header CRC32C, sealed cells checksum), and a {@code .NAME.crc} beside it
     * would only be one more file to move along.
     */
    static FileSystem of(Path path, Configuration conf) throws IOException {
        FileSystem fs = path.getFileSystem(conf);
        return fs instanceof LocalFileSystem local ? local.getRawFileSystem() : fs;
    }

    /** The local file {@code path} stands for, if its file system ({@link #of}) is the local one; else null. */
    static java.nio.file.Path localFile(FileSystem fs, Path path) {
        return fs instanceof RawLocalFileSystem local && "file".equals(fs.getUri().getScheme())
                ? local.pathToFile(path).toPath() : null;
    }

    /** A new directory for this JVM's scratch files: in Spark's own directory for the application when it runs in Spark. */
    static java.nio.file.Path scratchDirectory(String purpose) throws IOException {
        java.nio.file.Path root = SparkEnv.get() != null
                ? java.nio.file.Path.of(SparkFiles.getRootDirectory())
                : java.nio.file.Path.of(System.getProperty("java.io.tmpdir"));
        return Files.createTempDirectory(root, "bloomstore-" + purpose + "-");
    }

    /** Refuses a path that is missing, naming it. */
    static void requireExists(FileSystem fs, Path path) throws IOException {
        if (!fs.exists(path)) {
            throw new FileNotFoundException(path + ": no such filter file");
        }
    }

    private static Path temporaryBeside(Path target) {
        return new Path(target.getParent(), "." + target.getName() + "." + UUID.randomUUID() + ".tmp");
    }
}
