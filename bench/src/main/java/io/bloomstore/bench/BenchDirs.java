package io.bloomstore.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where benchmark files live: {@code -Dbloomstore.bench.dir}, else the environment variable
 * {@code BLOOMSTORE_BENCH_DIR} (which JMH forks and child JVMs inherit), else
 * {@code <java.io.tmpdir>/bloomstore-bench}. Filters there are real mapped files, so this must be a
 * disk-backed file system (not /dev/shm) for the numbers to mean what the docs say.
 */
public final class BenchDirs {
    private BenchDirs() {
    }

    public static Path root() {
        String dir = System.getProperty("bloomstore.bench.dir");
        if (dir == null || dir.isBlank()) {
            dir = System.getenv("BLOOMSTORE_BENCH_DIR");
        }
        if (dir == null || dir.isBlank()) {
            dir = Path.of(System.getProperty("java.io.tmpdir"), "bloomstore-bench").toString();
        }
        return ensure(Path.of(dir));
    }

    /** Filled filters and data files kept between runs (rebuilt when missing or stale). */
    public static Path fixtures() {
        return ensure(root().resolve("fixtures"));
    }

    /** A new private directory for one trial's throw-away files; delete it with {@link #deleteTree}. */
    public static Path scratch(String prefix) {
        try {
            return Files.createTempDirectory(ensure(root().resolve("scratch")), prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes {@code dir} and its files (one level: scratch directories hold no sub-directories). */
    public static void deleteTree(Path dir) throws IOException {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (var files = Files.list(dir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(file);
            }
        }
        Files.deleteIfExists(dir);
    }

    private static Path ensure(Path dir) {
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
