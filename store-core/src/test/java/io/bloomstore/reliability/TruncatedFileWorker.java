package io.bloomstore.reliability;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import io.bloomstore.Merge;
import io.bloomstore.MergeOp;
import io.bloomstore.OpenMode;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.LongConsumer;

/**
 * Child of {@link FileTruncatedUnderWorkTest}: works on a mapped filter until the JIT has compiled
 * the work's loops, truncates the file to its header page, as another program might, then does the
 * same work again, one round at a time, each round on a new thread. Every round must end with
 * HotSpot's {@link InternalError} for the fault: not return as if nothing happened, and not run on.
 * A round still running after {@link #ROUND_LIMIT_MILLIS} is spinning: the child says so and halts.
 *
 * <p>Rounds, not one: whether a retry loop spins depends on the code the JIT made of it (which
 * register keeps the stale word), and before {@code MappingFaults} every write here spun from its
 * 13th to 17th round on, once C2 had compiled it again after the first faults.
 *
 * <p>Arguments: the file (absent), the work ({@link Work}), the number of rounds. Prints
 * {@code ended: F of R rounds raised the fault}, or {@code spinning in round N}.
 */
public final class TruncatedFileWorker {
    /** Far above a round's time (milliseconds to a second, mostly SIGBUS deliveries), far below a test's limit. */
    private static final long ROUND_LIMIT_MILLIS = 10_000;
    private static final int KEYS_PER_ROUND = 4096;
    /** Rounds before the truncation: enough for C2 to compile each work's loops (well under a second). */
    private static final int WARM_UP_ROUNDS = 250;
    private static final int SPINNING = 3;
    /**
     * A pass's progress callback that makes a system call, as the CLI's progress display does (a
     * write to stderr): on JDK 17 the return from a native method can drop a fault pending on the
     * thread, and before {@code MappingFaults.raisePending} after each chunk a merge into a
     * truncated file then returned as if nothing had happened, in 7 of 10 rounds. (A count or a
     * checksum raised its fault in every round with or without it.)
     */
    private static final LongConsumer SYSTEM_CALL = bytesDone -> Thread.yield();

    /** The work: writes, whose loops retry a compare-and-set, and passes over all the cells. */
    enum Work {
        /** Batch adds of 1-bit cells, standard layout: {@code bloomstore add}'s path. */
        ADD_BATCH(false),
        /** Single adds of 1-bit cells, blocked layout. */
        ADD_BLOCKED(false),
        /** Adds of 4-bit counters. */
        COUNT(false),
        /** Removes of 4-bit counters. */
        REMOVE(false),
        /** An OR-merge in place into the truncated file: a pass that writes. */
        MERGE_INTO(true),
        /** The cells counted for {@code stats()}: a pass that reads. */
        STATS(true),
        /** The cells checksummed against a seal, as {@code verify} does. */
        VERIFY(true);

        /** Whether the work is a pass over all the cells, rather than writes of keys. */
        final boolean pass;

        Work(boolean pass) {
            this.pass = pass;
        }

        /** m: large for writes, as in the CLI's test of this; small for a pass, which faults at every word of a chunk. */
        long cells() {
            return pass ? 10_000_000L : 100_000_000L;
        }
    }

    /** One round of work. */
    private interface Round {
        void run() throws Exception;
    }

    private TruncatedFileWorker() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        Work work = Work.valueOf(args[1]);
        int rounds = Integer.parseInt(args[2]);
        BloomSpec.Builder shape = BloomSpec.builder().cells(work.cells()).hashes(3);
        if (work == Work.ADD_BLOCKED) {
            shape.layout(Layout.BLOCKED);
        } else if (work == Work.COUNT || work == Work.REMOVE) {
            shape.counterBits(4);
        }
        BloomSpec spec = shape.build();
        Path sourceFile = file.resolveSibling("source.bloom");
        BloomFilter.create(sourceFile, spec).close();
        try (BloomFilter filter = BloomFilter.create(file, spec);
                BloomFilter source = BloomFilter.open(sourceFile, OpenMode.READ_ONLY)) {
            long[] hashes = new long[KEYS_PER_ROUND];
            long[] nextKey = {0};
            Round round = () -> {
                if (!work.pass) {
                    for (int i = 0; i < hashes.length; i++) {
                        hashes[i] = filter.hasher().hash(nextKey[0]++);
                    }
                }
                switch (work) {
                    case ADD_BATCH -> filter.addHashes(hashes, hashes.length);
                    case ADD_BLOCKED, COUNT -> {
                        for (long hash : hashes) {
                            filter.addHash(hash);
                        }
                    }
                    case REMOVE -> {
                        for (long hash : hashes) {
                            filter.addHash(hash);
                            filter.removeHash(hash);
                        }
                    }
                    case MERGE_INTO -> Merge.inPlace(filter, source, MergeOp.OR, SYSTEM_CALL);
                    case STATS -> filter.stats(SYSTEM_CALL);
                    case VERIFY -> filter.verify(SYSTEM_CALL);
                }
            };
            for (int r = 0; r < WARM_UP_ROUNDS; r++) {
                round.run();
            }
            if (work == Work.VERIFY) {
                filter.seal();
            }
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.truncate(4096); // the header page only: every cell page is gone
            }
            int faulted = 0;
            for (int r = 0; r < rounds; r++) {
                Throwable[] thrown = new Throwable[1];
                Thread worker = new Thread(() -> {
                    try {
                        round.run();
                    } catch (Throwable e) {
                        thrown[0] = e;
                    }
                }, "worker-" + r);
                worker.setDaemon(true);
                worker.start();
                worker.join(ROUND_LIMIT_MILLIS);
                if (worker.isAlive()) {
                    System.out.println("spinning in round " + r);
                    System.out.flush();
                    Runtime.getRuntime().halt(SPINNING);
                }
                if (thrown[0] instanceof InternalError fault && fault.getMessage().contains("unsafe memory access")) {
                    faulted++;
                } else if (thrown[0] != null) {
                    throw new AssertionError("round " + r + " failed otherwise", thrown[0]);
                }
            }
            System.out.println("ended: " + faulted + " of " + rounds + " rounds raised the fault");
            System.out.flush();
            // the close's writes to the header page do not fault: that page is still there
        }
    }
}
