package io.bloomstore.spark;

import java.io.IOException;
import java.io.Serializable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * One version of a filter file: its path with the length and modification time it had when a query
 * was planned. The executors' cache is keyed by it ({@link ExecutorFilters}), so a file rebuilt at
 * the same path is a new entry, never answered from the old mapping.
 */
record FilterRef(String path, long length, long modificationTime) implements Serializable {
    /**
     * The current version of the file at {@code path}.
     *
     * @throws java.io.FileNotFoundException naming the path, if there is no file
     */
    static FilterRef of(String path, Configuration conf) throws IOException {
        Path p = new Path(path);
        FileSystem fs = HadoopFiles.of(p, conf);
        HadoopFiles.requireExists(fs, p);
        FileStatus status = fs.getFileStatus(p);
        return new FilterRef(fs.makeQualified(p).toString(), status.getLen(), status.getModificationTime());
    }
}
