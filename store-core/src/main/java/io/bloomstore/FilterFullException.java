package io.bloomstore;

/**
 * An add refused because a {@link GrowingBloomFilter} is at capacity and cannot grow: its file
 * would pass the max size it was created with, or the disk has no room for the next segment. The
 * message names the file, the limit or the disk's error, and what to do. The add that throws added
 * nothing (in a batch, the keys before it were added); queries go on answering everything the
 * filter holds.
 */
public final class FilterFullException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /**
     * A refused growth.
     *
     * @param message what stopped the growth, from the refused growth
     * @param cause the failure of the growth
     */
    public FilterFullException(String message, Throwable cause) {
        super(message, cause);
    }
}
