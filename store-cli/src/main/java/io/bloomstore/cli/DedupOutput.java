package io.bloomstore.cli;

import io.bloomstore.MembershipFilter;
import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Optional;

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
    private final PendingKeys pending = new PendingKeys();
    private byte[] lines = new byte[BUFFER];
    private int used;

    DedupOutput(MembershipFilter filter, OutputStream out, Delivery delivery, boolean sync, Runnable afterDelivery) {
        this.filter = filter;
        this.out = out;
        this.delivery = delivery;
        this.sync = sync;
        this.afterDelivery = afterDelivery;
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
        boolean isNew;
        try {
            isNew = delivery == Delivery.AT_LEAST_ONCE ? isNewMarkedLater(hash) : filter.addHash(hash);
        } catch (IllegalStateException refused) {
            flush(); // a refused add (at most once) added nothing; the lines before it were added: deliver them
            throw refused;
        }
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
        boolean seen = filter.refreshHash(hash);
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
            writeOut(used);
        } else {
            int count = pending.count();
            int room = room(count);
            writeOut(room == count ? used : endOfLine(room));
            if (room > 0) {
                filter.addHashes(pending.hashes(), room);
                if (sync) {
                    filter.sync();
                }
            }
            pending.clear();
            used = 0;
            if (room < count) {
                throw new IllegalStateException(cannotGrow() + "; dedup printed only the lines it could mark seen");
            }
        }
        afterDelivery.run();
    }

    /**
     * Stops, before any line is read, a dedup into a growing filter that is at its cap (its max
     * size, or its table of segments): a restart would otherwise print lines it cannot mark.
     */
    void requireRoom() {
        if (room(1) == 0) {
            throw new IllegalStateException(cannotGrow() + "; dedup printed nothing");
        }
    }

    /**
     * How many of {@code count} pending keys the filter will surely take: a growing filter that
     * cannot grow takes only what fits its newest segment, and the lines of the rest are not
     * printed (at least once, a printed line must then be marked seen). Others take every key.
     */
    private int room(int count) {
        return (int) Math.min(count, filter.headroom());
    }

    /** Why a growing filter with no room takes no more keys: the growth it refuses. */
    private String cannotGrow() {
        Optional<String> refusal = filter.growthRefusal();
        if (refusal.isPresent()) {
            return refusal.get();
        }
        try {
            filter.grow();
            return filter.path() + ": it grew meanwhile; run dedup again"; // room appeared after it was judged
        } catch (IOException e) {
            return e.getMessage();
        }
    }

    /** The end, in the buffer, of the first {@code count} lines. */
    private int endOfLine(int count) {
        int end = 0;
        for (int seen = 0; seen < count; end++) {
            if (lines[end] == '\n') {
                seen++;
            }
        }
        return end;
    }

    private void writeOut(int length) throws IOException {
        out.write(lines, 0, length);
        out.flush();
        used = 0;
    }
}
