package io.bloomstore.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * A hostile neighbour: a thread that renames one file after another over a path, in a tight loop
 * (thousands of renames a second), while commands run against that path. Each alternative is hard-linked to a staging name and the
 * link renamed over the path, so the path always names one whole alternative (rename is atomic)
 * and no alternative is ever written to: a command that reads the path sees some alternative,
 * swapped at any moment between two of its system calls.
 */
public final class RenameSwapper implements AutoCloseable {
    private static final long PAUSE_NANOS = 10_000;

    private final Path target;
    private final List<Path> alternatives;
    private final Path staging;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Thread thread;
    private volatile RuntimeException failure;
    private long swaps;

    /**
     * Puts the first of {@code alternatives} (two or more files in {@code target}'s folder) at
     * {@code target}, then starts swapping them over it, first to last and round again.
     */
    public RenameSwapper(Path target, List<Path> alternatives) throws IOException {
        if (alternatives.size() < 2) {
            throw new IllegalArgumentException("two alternatives or more, got " + alternatives);
        }
        this.target = target;
        this.alternatives = alternatives;
        this.staging = target.resolveSibling(".swap-" + target.getFileName());
        this.thread = new Thread(this::swap, "rename-swapper-" + target.getFileName());
        Files.deleteIfExists(staging);
        Files.createLink(staging, alternatives.get(0));
        Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
        thread.start();
    }

    private void swap() {
        try {
            for (int i = 1; !stop.get(); i = (i + 1) % alternatives.size()) {
                // consecutive alternatives differ, so the link never names the file the path already names
                Files.createLink(staging, alternatives.get(i));
                Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
                swaps++;
                // a pause of tens of microseconds, not a spin: the runs need the machine's cores more than the renames do
                LockSupport.parkNanos(PAUSE_NANOS);
            }
        } catch (IOException e) {
            failure = new UncheckedIOException("swapping " + target, e);
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    /** Stops swapping; returns how many renames were made. */
    public long stop() {
        stop.set(true);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted stopping the swapper", e);
        }
        if (failure != null) {
            throw failure;
        }
        return swaps;
    }

    @Override
    public void close() {
        if (thread.isAlive()) {
            stop();
        }
    }
}
