package io.bloomstore.cli;

import java.io.Closeable;
import java.io.IOException;

/** Where a command's keys come from: arguments, a file of lines, stdin, or several in turn. */
interface KeySource extends Closeable {
    /**
     * Replaces the content of {@code batch} with the next keys, at least one.
     *
     * @return false when no keys are left (the batch is then empty)
     */
    boolean nextBatch(KeyBatch batch) throws IOException;

    /** Input bytes consumed so far: the measure of progress. */
    long bytesRead();
}
