package io.bloomstore.spark;

import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.MembershipFilter;
import io.bloomstore.OpenMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The filters this JVM (an executor, or the driver in local mode) has mapped, one per file version,
 * shared by all its tasks: a file is copied (if it is not on a local file system), checked and
 * mapped once, by the first task that needs it, and stays mapped until the JVM ends, since a task
 * of a later query may still be reading it. Read-only mappings share the page cache, so every
 * executor on a machine reads the same pages.
 */
final class ExecutorFilters {
    private static final ConcurrentHashMap<FilterRef, MembershipFilter> OPEN = new ConcurrentHashMap<>();

    private ExecutorFilters() {
    }

    /**
     * The mapped filter of {@code ref}.
     *
     * @throws UncheckedIOException naming the user's file: if it is missing, changed since {@code ref}
     *     was taken, damaged (header or, for a sealed fixed filter, its cells), or not a filter
     */
    static MembershipFilter get(FilterRef ref, Configuration conf) {
        MembershipFilter filter = OPEN.get(ref);
        return filter != null ? filter : OPEN.computeIfAbsent(ref, r -> {
            try {
                return open(r, conf);
            } catch (IOException e) {
                throw new UncheckedIOException(e.getMessage(), e);
            }
        });
    }

    private static MembershipFilter open(FilterRef ref, Configuration conf) throws IOException {
        Path path = new Path(ref.path());
        FileSystem fs = HadoopFiles.of(path, conf);
        HadoopFiles.requireExists(fs, path);
        FileStatus status = fs.getFileStatus(path);
        if (status.getLen() != ref.length() || status.getModificationTime() != ref.modificationTime()) {
            throw new IOException(ref.path() + ": the filter file changed after the query was planned; run the query again");
        }
        java.nio.file.Path local = HadoopFiles.localFile(fs, path);
        if (local == null) {
            local = copyToLocal(fs, path);
        }
        try {
            MembershipFilter filter = MembershipFilter.open(local, OpenMode.READ_ONLY);
            if (filter.shape().sealed()) {
                try {
                    filter.verify();
                } catch (InvalidFilterFileException damaged) {
                    filter.close();
                    throw damaged;
                }
            }
            return filter;
        } catch (InvalidFilterFileException e) {
            // the core names the file it opened, which may be this JVM's copy: name the user's
            String detail = e.getMessage().startsWith(local + ": ") ? e.getMessage().substring(local.toString().length() + 2)
                    : e.getMessage();
            throw new InvalidFilterFileException(java.nio.file.Path.of(ref.path()), e.problem(), detail, e);
        }
    }

    private static java.nio.file.Path copyToLocal(FileSystem fs, Path path) throws IOException {
        java.nio.file.Path dir = HadoopFiles.scratchDirectory("filter");
        java.nio.file.Path copy = dir.resolve(path.getName());
        java.nio.file.Path partial = dir.resolve(path.getName() + ".partial");
        fs.copyToLocalFile(false, path, new Path(partial.toUri()), true);
        Files.move(partial, copy, StandardCopyOption.ATOMIC_MOVE);
        return copy;
    }
}
