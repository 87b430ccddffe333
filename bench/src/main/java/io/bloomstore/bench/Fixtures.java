package io.bloomstore.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Filled filters shared by benchmark forks: filter i of kind K holds the keys with indices
 * {@code [0, n)}. Filling 200 M keys takes tens of seconds per filter, far more than a fork's
 * measurement, so each is built once, stored under {@link BenchDirs#fixtures()} and loaded by the
 * forks that need it (bloomstore maps the file; a peer with a serial form reads it back, e.g. Guava's
 * {@code readFrom}; a peer without one is filled in each trial).
 *
 * <p>A stored filter is used only if a sample of its keys is found: a change of the core's
 * hashing or probing makes it look empty and it is rebuilt, instead of making queries of
 * "present" keys stop early and look fast.
 */
public final class Fixtures {
    private Fixtures() {
    }

    /**
     * A filter of {@code kind} holding the n keys of {@code type}; bloomstore's is opened read-only.
     * A peer without a serial form is filled here, in the caller's trial set-up, on one thread (none
     * of them takes concurrent adds): at 200 M keys that is tens of seconds to a few minutes of set-up.
     */
    public static BenchFilter filled(ComparedFilter kind, KeyType type, long n) throws IOException {
        if (!kind.storable()) {
            BenchFilter fresh = kind.createEmpty(n, type, null);
            addKeys(fresh, type, 0, n, fillThreads(kind));
            return checked(fresh, kind, type, n);
        }
        Path file = BenchDirs.fixtures().resolve(kind.fileName(n, type));
        if (Files.exists(file)) {
            BenchFilter stored = kind.load(file, n, type);
            if (holdsSample(stored, type, n)) {
                return stored;
            }
            stored.close();
            Files.delete(file);
        }
        Path building = file.resolveSibling(file.getFileName() + ".building");
        BenchFilter fresh = kind.createEmpty(n, type, building);
        addKeys(fresh, type, 0, n, fillThreads(kind));
        fresh.saveAndClose(file);
        return checked(kind.load(file, n, type), kind, type, n);
    }

    /** Two threads where the filter takes concurrent adds and the machine has two cores; else one. */
    private static int fillThreads(ComparedFilter kind) {
        return kind.threadSafeAdds() ? Math.min(2, Runtime.getRuntime().availableProcessors()) : 1;
    }

    /** {@code filter}, unless it misses a sample of the keys just added to it (then it is closed and refused). */
    private static BenchFilter checked(BenchFilter filter, ComparedFilter kind, KeyType type, long n) {
        if (!holdsSample(filter, type, n)) {
            filter.close();
            throw new IllegalStateException(kind + " does not hold the keys just added to it: false negatives");
        }
        return filter;
    }

    /**
     * Adds the keys with indices {@code [from, from + count)} in chunks through the batch call,
     * split over {@code threads} threads. {@code count} must be a multiple of {@link KeyChunk#SIZE}.
     */
    public static void addKeys(BenchFilter filter, KeyType type, long from, long count, int threads)
            throws IOException {
        if (count % KeyChunk.SIZE != 0) {
            throw new IllegalArgumentException("key count " + count + " is not a multiple of " + KeyChunk.SIZE);
        }
        long chunks = count / KeyChunk.SIZE;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> parts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                parts.add(pool.submit(() -> {
                    KeyChunk chunk = new KeyChunk(type);
                    for (long c = thread; c < chunks; c += threads) {
                        chunk.fill(from + c * KeyChunk.SIZE);
                        filter.addBatch(chunk);
                    }
                }));
            }
            for (Future<?> part : parts) {
                part.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while filling", e);
        } catch (ExecutionException e) {
            throw new IOException("filling failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /** Whether the first, a middle and the last chunk of the n keys are all reported present. */
    static boolean holdsSample(BenchFilter filter, KeyType type, long n) {
        KeyChunk chunk = new KeyChunk(type);
        long lastChunk = n / KeyChunk.SIZE - 1;
        for (long c : new long[] {0, lastChunk / 2, lastChunk}) {
            chunk.fill(c * KeyChunk.SIZE);
            if (filter.mightContainEach(chunk) != KeyChunk.SIZE) {
                return false;
            }
        }
        return true;
    }
}
