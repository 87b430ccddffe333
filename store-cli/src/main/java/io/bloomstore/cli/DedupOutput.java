package io.bloomstore.cli;

import io.bloomstore.MembershipFilter;
import io.bloomstore.WindowedBloomFilter;
import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The lines dedup prints, and the order of the two steps that make a line delivered: writing it to
 * stdout and marking its key seen in the filter ({@link Delivery}). New lines gather in a buffer;
 * {@link #flush()} delivers them, when the buffer is full, before each read of the input that may
 * block (so a consumer sees a line as soon as the input pauses) and at the end.
 *
 * <p>At least once: a line is new if the filter has not seen its key and it is not pending already
 * (printed earlier in the same buffer); the buffer is written out and flushed, and only when that
 * write has returned are the keys added (and, with sync, forced to disk). A reader that went away
 * fails the write, and the keys it never received stay unmarked. On a windowed filter a line seen
 * within the window is added again at once, into the current epoch's slot: it is printed already,
 * and every repeat starts its window anew, so a line that keeps coming is never printed again (the
 * window forgets a key W after its last add, not its first).
 *
 * <p>At most once: a line is new if adding its key set a cell; with sync the filter is forced to
 * disk before any byte of the buffer is written, so a printed line is on disk first.
 */
final class DedupOutput implements Flushable {
    private static final int BUFFER = 1 << 16;

    private final MembershipFilter filter;
    private final OutputStream out;
    private final Delivery delivery;
    private final boolean sync;
    /** Run after each delivery, its keys marked: the filter's count of keys is up to date then. */
    private final Runnable afterDelivery;
    /** The filter if windowed, which refreshes a repeat: it forgets a key a window after its last add. */
    private final WindowedBloomFilter windowed;
    private final PendingKeys pending = new PendingKeys();
    private byte[] lines = new byte[BUFFER];
    private int used;

    DedupOutput(MembershipFilter filter, OutputStream out, Delivery delivery, boolean sync, Runnable afterDelivery) {
        this.filter = filter;
        this.out = out;
        this.delivery = delivery;
        this.sync = sync;
        this.afterDelivery = afterDelivery;
        this.windowed = filter instanceof WindowedBloomFilter w ? w : null;
    }

    /** One input line and its key's hash: buffered for printing if the line is new. */
    void offer(byte[] bytes, int offset, int length, long hash) throws IOException {
        // Room first, before this key is looked at: a flush delivers (and may mark) only lines before it.
        if (used + length + 1 > lines.length) {
            flush();
            if (length + 1 > lines.length) {
                lines = new byte[length + 1]; // one line longer than the buffer
            }
        }
        boolean isNew = delivery == Delivery.AT_LEAST_ONCE ? isNewMarkedLater(hash) : filter.addHash(hash);
        if (isNew) {
            System.arraycopy(bytes, offset, lines, used, length);
            used += length;
            lines[used++] = '\n';
        }
    }

    /**
     * At least once: whether the key is new, to be marked when its line is delivered. A windowed
     * filter refreshes a repeat at once (its line is not printed, so nothing waits for a delivery).
     */
    private boolean isNewMarkedLater(long hash) {
        boolean seen = windowed != null ? windowed.refreshHash(hash) : filter.mightContainHash(hash);
        return !seen && pending.add(hash);
    }

    /**
     * Delivers the buffered lines: writes them out and marks their keys seen, in the order of the
     * delivery; then runs the after-delivery hook.
     */
    @Override
    public void flush() throws IOException {
        if (delivery == Delivery.AT_MOST_ONCE) {
            if (sync && used > 0) {
                filter.sync();
            }
            writeOut();
        } else {
            writeOut();
            if (pending.count() > 0) {
                filter.addHashes(pending.hashes(), pending.count());
                if (sync) {
                    filter.sync();
                }
                pending.clear();
            }
        }
        afterDelivery.run();
    }

    private void writeOut() throws IOException {
        out.write(lines, 0, used);
        out.flush();
        used = 0;
    }
}
