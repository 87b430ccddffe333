package io.bloomstore.spark;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.spark.TaskContext;

/**
 * The local disk under the scheme {@code failonce:}, a file system that is not Hadoop's local one
 * (so a build takes the path it takes for {@code hdfs:} or {@code s3a:}), and whose rename of a
 * task's part fails the task's first attempt in partition 1, after the part is in place: the retry
 * finds the first attempt's file where its own goes.
 */
public final class FailOnceFileSystem extends RawLocalFileSystem {
    static final String SCHEME = "failonce";

    @Override
    public URI getUri() {
        return URI.create(SCHEME + ":///");
    }

    @Override
    public String getScheme() {
        return SCHEME;
    }

    @Override
    public boolean rename(Path src, Path dst) throws IOException {
        boolean renamed = super.rename(src, dst);
        TaskContext task = TaskContext.get();
        boolean part = dst.getName().startsWith("slice-") || dst.getName().startsWith("part-");
        if (part && task != null && task.partitionId() == 1 && task.attemptNumber() == 0) {
            throw new IOException("injected failure of the first attempt, after " + dst + " was written");
        }
        return renamed;
    }
}
