package io.bloomstore.internal.cells;

/**
 * Makes a loop over mapped memory end with the mapping's fault when another program truncates the
 * file under it, or a sparse file's disk fills: a retry loop (a compare-and-set that lost, an add
 * whose slot was reused meanwhile) rather than spin forever at full CPU, a pass over the cells (a
 * merge, a count, a checksum) within a chunk rather than at a fault per word to its end, and before
 * it returns what it computed from skipped loads.
 *
 * <p>Why loops need this. A load or compare-and-set through {@code Unsafe} on a page past the
 * file's new end raises SIGBUS; in compiled code, HotSpot skips the faulting instruction and leaves
 * an {@link InternalError} pending on the thread. JDK 17 raises it only where the thread enters the
 * VM's runtime from Java code: not at a loop's safepoint poll, and not on return from a native
 * method such as {@link Thread#yield()}, which can even drop it (both measured). A retry loop makes
 * no such entry: the skipped load leaves it its register's old value, the skipped compare-and-set
 * reports failure, and it tries again, at the cost of two signals each time, forever. That was seen
 * as {@code bloomstore add} spinning at 100 % CPU, 93 % of it in the kernel, for minutes after its
 * file was truncated, until a thread dump's safepoint ended it. A pass ran on at a fault per word
 * (0.6 to 3.4 microseconds each: minutes for a filter of gigabytes), and a merge whose progress
 * callback made a system call returned as if nothing had happened. {@code
 * FileTruncatedUnderWorkTest} reproduces both (docs/RELIABILITY.md, "A file changed under a
 * command"). On JDK 25 it passes against the code without this class as well: there the error is
 * raised at once.
 *
 * <p>How it raises: by allocating a two-dimensional array whose lengths the compiler cannot know,
 * which C2, C1 and the interpreter all make in the runtime ({@code multianewarray}), and the runtime
 * raises a pending error on the way back: one call into the runtime. It must come from code of ours:
 * raised inside JDK code between two steps of its bookkeeping, an asynchronous error leaves that
 * code's state broken (seen: a {@code FileChannel} that failed every later call). Nothing is added
 * to the paths that succeed: a compare-and-set on a live mapping fails only when another thread
 * changed the word in between, and a word can gain at most 64 bits, so a loop raises only after
 * {@link #FAILURES_PER_RAISE} failures in a row; a pass raises once per chunk of 256 KiB or more.
 */
public final class MappingFaults {
    /** Failed attempts of a retry loop between two raises: a power of two, above what contention alone gives. */
    static final int FAILURES_PER_RAISE = 64;
    /**
     * The lengths of the array allocated. Not final, on purpose: a constant would let C2 expand the
     * allocation inline, without the runtime, and the raise would silently stop raising
     * ({@code FileTruncatedUnderWorkTest} would then fail).
     */
    @SuppressWarnings("FieldMayBeFinal")
    private static int one = 1;
    /** Where the allocation goes, so that the compiler cannot drop it as unused. */
    @SuppressWarnings("unused")
    private static volatile Object allocated;

    private MappingFaults() {
    }

    /**
     * To be called after each failed attempt of a retry loop over mapped memory, with the number
     * of attempts that failed so far: every {@link #FAILURES_PER_RAISE}-th time, raises a fault
     * pending on this thread.
     *
     * @throws InternalError HotSpot's report of a fault on the mapping
     */
    public static void afterFailedAttempt(int failures) {
        if ((failures & (FAILURES_PER_RAISE - 1)) == 0) {
            raisePending();
        }
    }

    /**
     * Raises a fault pending on this thread, if there is one: for a pass over mapped memory, after
     * each chunk, before anything else is done with it (a progress callback that calls a native
     * method could drop the fault), and before its result is used.
     *
     * @throws InternalError HotSpot's report of a fault on the mapping
     */
    public static void raisePending() {
        allocated = new long[one][one];
        allocated = null;
    }
}
