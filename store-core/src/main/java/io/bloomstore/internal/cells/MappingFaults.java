package io.bloomstore.internal.cells;

/**
 * Makes a loop over mapped memory end with the mapping's fault when another program truncates the
 * file under it, or a sparse file's disk fills: a retry loop (a compare-and-set that lost, an add
 * whose slot was reused meanwhile) rather than spin forever at full CPU, a pass over the cells (a
 * merge, a count, a checksum) before it returns what it computed from skipped loads.
 *
 * <p>Why a retry loop needs this. A load or compare-and-set through {@code Unsafe} on a page past
 * the file's new end raises SIGBUS; in compiled code, HotSpot skips the faulting instruction and
 * leaves an {@link InternalError} pending on the thread. JDK 17 raises it only where the thread
 * enters the VM's runtime from Java code, as an allocation that does not fit the thread's buffer
 * does; not at a loop's safepoint poll, nor on return from a native method such as
 * {@link Thread#yield()} (both measured). A retry loop makes no such entry: the skipped load leaves
 * it its register's old value, the skipped compare-and-set reports failure, and it tries again, at
 * the cost of two signals each time, forever. That was seen as {@code bloomstore add} spinning at
 * 100 % CPU, 93 % of it in the kernel, for minutes after its file was truncated, until a thread
 * dump's safepoint ended it; {@code TruncatedUnderWritersTest} reproduces it (docs/RELIABILITY.md,
 * "A file changed under a command"). A pass does end, but may return a count or a checksum of
 * garbage first, the error raised later at whatever allocation comes next. Newer JDKs raise the
 * error at the next safepoint poll, where this is not needed and does no harm.
 *
 * <p>Why an allocation, and where. Only the runtime raises the pending error, and the one way into
 * it that plain Java code controls is an allocation too large to be made inline. The raise must
 * come from code of ours: raised inside JDK code between two steps of its bookkeeping, an
 * asynchronous error leaves that code's state broken (seen: a {@code FileChannel} that failed
 * every later call). What it costs: nothing on the paths that succeed. A compare-and-set on a live
 * mapping fails only when another thread changed the word in between, and a bit can be set in a
 * word at most 64 times; a loop that fails {@link #FAILURES_PER_RAISE} times in a row is faulting,
 * or so contended that one allocation among its attempts is nothing. A pass pays one allocation at
 * its end, not one per chunk (1 MiB zeroed per 256 KiB a merge reads would more than double its
 * memory traffic), so a fault ends it only there: a merge into a 12 MiB filter truncated before it
 * began took 0.9 s, against 0.004 s for the whole file healthy.
 */
public final class MappingFaults {
    /** Failed attempts of a retry loop between two raises: a power of two, above what contention alone gives. */
    static final int FAILURES_PER_RAISE = 64;
    /**
     * Longs in an array that compiled code always allocates in the runtime: more than C2 allocates
     * inline (its {@code FastAllocateSizeLimit}, 128 Ki words), 1 MiB in all.
     */
    private static final int RUNTIME_ALLOCATION_LONGS = (128 << 10) + 1;
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
     * Raises a fault pending on this thread, if there is one: to be called at the end of a pass
     * over mapped memory, before its result is used.
     *
     * @throws InternalError HotSpot's report of a fault on the mapping
     */
    public static void raisePending() {
        allocated = new long[RUNTIME_ALLOCATION_LONGS];
        allocated = null;
    }
}
