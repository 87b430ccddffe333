package io.bloomstore.internal.bulk;

import java.io.Flushable;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Keys as lines of bytes, read at disk speed: one reused buffer, filled by large reads, handed out
 * as slices ({@link KeyBatch}) with no String and no copy per line. A trailing {@code \r} is dropped
 * (CRLF files) and empty lines are skipped; every other byte, NUL and invalid UTF-8 included, is
 * part of the key. A line longer than the buffer grows it, up to the largest Java array.
 */
public final class KeyLineReader implements BatchSource {
    public static final int DEFAULT_BUFFER = 1 << 20;
    private static final int MAX_BUFFER = Integer.MAX_VALUE - 16;
    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long NEWLINES = 0x0A0A_0A0A_0A0A_0A0AL;
    private static final long LOW_BITS = 0x0101_0101_0101_0101L;
    private static final long HIGH_BITS = 0x8080_8080_8080_8080L;

    private final InputStream in;
    private final Flushable beforeRead;
    private byte[] buffer;
    /** First byte not yet handed out. */
    private int start;
    /** End of the bytes read into the buffer. */
    private int end;
    /** Bytes before this index (from {@link #start} on) hold no newline: a long line is scanned once. */
    private int searched;
    private boolean endOfInput;
    private long bytesRead;

    /**
     * @param beforeRead flushed before each read from {@code in}, which may block: a command that
     *     writes output per key flushes it there, so a consumer sees it as soon as the producer
     *     pauses, without a system call per line; null for none
     */
    public KeyLineReader(InputStream in, int bufferSize, Flushable beforeRead) {
        this.in = in;
        this.buffer = new byte[bufferSize];
        this.beforeRead = beforeRead;
    }

    @Override
    public boolean nextBatch(KeyBatch batch) throws IOException {
        batch.clear(buffer);
        while (true) {
            takeCompleteLines(batch);
            // Refilling moves the buffered bytes, which would invalidate the slices handed out.
            if (batch.size > 0) {
                return true;
            }
            if (endOfInput) {
                if (start < end) {
                    addLine(batch, start, end);
                    start = end;
                }
                return batch.size > 0;
            }
            refill();
            batch.clear(buffer);
        }
    }

    @Override
    public long bytesRead() {
        return bytesRead;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    private void takeCompleteLines(KeyBatch batch) {
        int lineStart = start;
        int i = Math.max(lineStart, searched);
        while (!batch.isFull()) {
            int newline = indexOfNewline(buffer, i, end);
            if (newline == end) {
                i = end;
                break;
            }
            addLine(batch, lineStart, newline);
            lineStart = newline + 1;
            i = lineStart;
        }
        start = lineStart;
        searched = i;
    }

    /**
     * The index of the first {@code '\n'} in {@code b[from .. limit)}, or {@code limit}: eight bytes
     * at a time. XOR with newlines turns each newline into a zero byte, and (x - 0x01..01) &amp; ~x
     * &amp; 0x80..80 sets the top bit of every zero byte (and of no byte below the first one, since
     * borrows only run upwards), so its lowest set bit marks the first newline. Key files have short
     * lines (ids, hashes, paths), so the scan is a large part of reading a key: for 17-byte lines, a
     * loop over single bytes took about as long as hashing them (docs/BENCHMARKS-HISTORY.md, "The
     * line reader").
     */
    private static int indexOfNewline(byte[] b, int from, int limit) {
        int i = from;
        for (; i <= limit - Long.BYTES; i += Long.BYTES) {
            long x = (long) WORDS.get(b, i) ^ NEWLINES;
            long zeroBytes = (x - LOW_BITS) & ~x & HIGH_BITS;
            if (zeroBytes != 0) {
                return i + (Long.numberOfTrailingZeros(zeroBytes) >>> 3);
            }
        }
        for (; i < limit; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return limit;
    }

    private void addLine(KeyBatch batch, int from, int to) {
        int stop = to > from && buffer[to - 1] == '\r' ? to - 1 : to;
        if (stop > from) {
            batch.add(from, stop - from);
        }
    }

    private void refill() throws IOException {
        if (start > 0) {
            System.arraycopy(buffer, start, buffer, 0, end - start);
            end -= start;
            searched -= start;
            start = 0;
        }
        if (end == buffer.length) {
            if (buffer.length == MAX_BUFFER) {
                throw new IOException("a line is longer than " + MAX_BUFFER + " bytes; keys are lines, is this a key file?");
            }
            int grown = (int) Math.min(MAX_BUFFER, 2L * buffer.length);
            try {
                buffer = Arrays.copyOf(buffer, grown);
            } catch (OutOfMemoryError e) {
                throw new IOException("a line longer than " + buffer.length + " bytes does not fit in the Java heap; "
                        + "give the JVM more (e.g. BLOOMSTORE_JAVA_OPTS=-Xmx4g), or check that the input is a key file", e);
            }
        }
        if (beforeRead != null) {
            beforeRead.flush();
        }
        int n = in.read(buffer, end, buffer.length - end);
        if (n < 0) {
            endOfInput = true;
        } else {
            end += n;
            bytesRead += n;
        }
    }
}
