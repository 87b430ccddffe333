package io.bloomstore.internal.bulk;

import java.io.Closeable;
import java.io.IOException;

/** Keys handed out a batch at a time: the lines of a stream, keys given in a list, or several sources in turn. */
public interface BatchSource extends Closeable {
    /**
     * Replaces the content of {@code batch} with the next keys, at least one.
     *
     * @return false when no keys are left (the batch is then empty)
     */
    boolean nextBatch(KeyBatch batch) throws IOException;

    /** Input bytes consumed so far: the measure of progress. */
    long bytesRead();
}
