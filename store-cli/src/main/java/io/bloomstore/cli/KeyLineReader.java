package io.bloomstore.cli;

import java.io.Flushable;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Keys as lines of bytes, read at disk speed: one reused buffer, filled by large reads, handed out
 * as slices ({@link KeyBatch}) with no String and no copy per line. A trailing {@code \r} is dropped
 * (CRLF files) and empty lines are skipped; every other byte, NUL and invalid UTF-8 included, is
 * part of the key. A line longer than the buffer grows it, up to the largest Java array.
 */
final class KeyLineReader implements KeySource {
    static final int DEFAULT_BUFFER = 1 << 20;
    private static final int MAX_BUFFER = Integer.MAX_VALUE - 16;

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
    KeyLineReader(InputStream in, int bufferSize, Flushable beforeRead) {
        this.in = in;
        this.buffer = new byte[bufferSize];
        this.beforeRead = beforeRead;
    }

    KeyLineReader(InputStream in) {
        this(in, DEFAULT_BUFFER, null);
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
        byte[] b = buffer;
        int lineStart = start;
        int limit = end;
        int i = Math.max(lineStart, searched);
        while (i < limit && !batch.isFull()) {
            if (b[i] == '\n') {
                addLine(batch, lineStart, i);
                lineStart = i + 1;
            }
            i++;
        }
        start = lineStart;
        searched = i;
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
