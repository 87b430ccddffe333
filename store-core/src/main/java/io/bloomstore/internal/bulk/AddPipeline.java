package io.bloomstore.internal.bulk;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Adds batches of key hashes to a filter on adder threads while the caller reads and hashes the
 * next lines. An add's cost is its cache misses (the standard layout's k lines per key, the blocked
 * layout's one), and a thread waiting on them leaves the memory path's other slots idle: two adders
 * on two cores nearly double the adds, and the reading and hashing (a fifth to a third of a build)
 * fits in between (docs/BENCHMARKS.md, "Build from a key file").
 *
 * <p>What concurrency changes: the filter's content is the same, but with several adders the keys
 * reach it in a slightly different order each run, and a key counts as new when its cells were not
 * all set on arrival; so the count of new keys can differ from a sequential add's by the few keys
 * whose answer depends on order (2 in 100 M in the build above), and the same key in two batches
 * added at the same moment can be counted new twice.
 *
 * <p>Memory is bounded: the hashes travel in a fixed set of arrays, which the adders hand back, so a
 * fast reader waits for them instead of buffering its input. {@link #close()} stops and joins the
 * adders, so no add outlives the caller's filter handle.
 */
public final class AddPipeline implements AutoCloseable {
    /** Batches queued between the reader and the adders: enough to ride out a slow read. */
    private static final int QUEUE_BATCHES = 16;
    /**
     * The default's cap, as the CLI has always had it: the gain is measured for two adders on two
     * cores only (docs/BENCHMARKS.md, "Build from a key file").
     */
    private static final int MAX_DEFAULT_ADDERS = 4;
    private static final Batch END = new Batch(new long[0], 0);
    private static final long POLL_MILLIS = 50;

    private record Batch(long[] hashes, int count) {
    }

    private final BlockingQueue<Batch> queue = new ArrayBlockingQueue<>(QUEUE_BATCHES);
    private final BlockingQueue<long[]> spare;
    private final Thread[] adders;
    private final AtomicLong added = new AtomicLong();
    private volatile Throwable failure;
    private boolean finished;

    /** Adds a batch of hashes to the filter: {@code MembershipFilter::addHashes}. */
    @FunctionalInterface
    public interface HashAdder {
        /** Adds {@code hashes[0 .. count)}; returns how many were new. */
        int addHashes(long[] hashes, int count);
    }

    /** The adders a pipeline starts when not told: one per processor, at most {@value #MAX_DEFAULT_ADDERS}. */
    public static int defaultThreads() {
        return Math.min(MAX_DEFAULT_ADDERS, Runtime.getRuntime().availableProcessors());
    }

    /**
     * Starts {@code threads} adders.
     *
     * @param batchCapacity the length of the arrays {@link #submit} hands back
     */
    public AddPipeline(HashAdder filter, int batchCapacity, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, not " + threads);
        }
        // room for every array: these, and the caller's first one, which submit takes in
        spare = new ArrayBlockingQueue<>(QUEUE_BATCHES + threads + 1);
        for (int i = 0; i < QUEUE_BATCHES + threads; i++) {
            spare.add(new long[batchCapacity]);
        }
        adders = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            adders[i] = new Thread(() -> addUntilEnd(filter), "bloomstore-adder-" + i);
            adders[i].setDaemon(true);
            adders[i].start();
        }
    }

    /**
     * Queues {@code hashes[0 .. count)} for adding and returns an array to hash the next batch into;
     * {@code hashes} belongs to the pipeline from now on.
     */
    public long[] submit(long[] hashes, int count) throws IOException {
        put(new Batch(hashes, count));
        return whileAddersLive(millis -> spare.poll(millis, TimeUnit.MILLISECONDS));
    }

    /** Waits until every submitted batch is added; returns how many keys were new. */
    public long finish() throws IOException {
        for (int i = 0; i < adders.length; i++) {
            put(END);
        }
        joinAdders();
        finished = true;
        throwIfFailed();
        return added.get();
    }

    /** Stops the adders, each after the batch it is adding, and waits for them: after a failure of the caller's. */
    @Override
    public void close() throws IOException {
        if (!finished) {
            for (Thread adder : adders) {
                adder.interrupt();
            }
            joinAdders();
        }
    }

    private void addUntilEnd(HashAdder filter) {
        long newKeys = 0;
        try {
            for (Batch batch = queue.take(); batch != END; batch = queue.take()) {
                newKeys += filter.addHashes(batch.hashes, batch.count);
                spare.add(batch.hashes);
            }
        } catch (InterruptedException e) {
            // closed by the caller, which has its own failure to report
        } catch (Throwable e) {
            failure = e;
        }
        added.addAndGet(newKeys);
    }

    private void put(Batch batch) throws IOException {
        whileAddersLive(millis -> queue.offer(batch, millis, TimeUnit.MILLISECONDS) ? batch : null);
        throwIfFailed();
    }

    /** One wait on the adders' queues, bounded in time: null when it timed out. */
    private interface Wait<T> {
        T attempt(long millis) throws InterruptedException;
    }

    /** Repeats {@code wait} until it succeeds, failing as soon as an adder has: a dead adder takes and hands back nothing. */
    private <T> T whileAddersLive(Wait<T> wait) throws IOException {
        try {
            T done;
            while ((done = wait.attempt(POLL_MILLIS)) == null) {
                throwIfFailed();
            }
            return done;
        } catch (InterruptedException e) {
            throw interrupted("adding keys");
        }
    }

    private void joinAdders() throws InterruptedIOException {
        try {
            for (Thread adder : adders) {
                adder.join();
            }
        } catch (InterruptedException e) {
            throw interrupted("waiting for the last keys to be added");
        }
    }

    private static InterruptedIOException interrupted(String what) {
        Thread.currentThread().interrupt();
        return new InterruptedIOException("interrupted while " + what);
    }

    private void throwIfFailed() throws IOException {
        Throwable e = failure;
        if (e instanceof RuntimeException runtime) {
            throw runtime;
        } else if (e instanceof Error error) {
            throw error;
        } else if (e != null) {
            throw new IOException(e.getMessage(), e);
        }
    }
}
