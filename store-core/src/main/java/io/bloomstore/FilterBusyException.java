package io.bloomstore;

/**
 * An add refused because another process has held a {@link GrowingBloomFilter}'s or
 * {@link WindowedBloomFilter}'s step lock (taken to append a segment or rotate the window) for
 * longer than such a step takes: it is stopped (Ctrl-Z, SIGSTOP, a debugger) or hung. The add that
 * throws added nothing (in a batch, the keys before it were added). The message names the file and
 * the process, says whether it is stopped, and what to do: resume it or end it, then add again;
 * a step left half done by a process that ended is finished by the next add.
 */
public final class FilterBusyException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /**
     * A refused add.
     *
     * @param message the file, the lock's owner and what to do
     * @param cause the wait that gave up
     */
    public FilterBusyException(String message, Throwable cause) {
        super(message, cause);
    }
}
