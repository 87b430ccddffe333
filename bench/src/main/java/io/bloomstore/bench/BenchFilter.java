package io.bloomstore.bench;

import java.io.IOException;
import java.nio.file.Path;

/**
 * One filter under test, bloomstore's or a peer's ({@link ComparedFilter}), seen through the operations the benchmarks
 * measure. Each method handles a whole {@link KeyChunk}; the implementations hold the loops, so the
 * benchmark methods are the same for every side and each JMH fork sees one implementation only
 * (its call sites stay monomorphic and inline).
 *
 * <p>Methods other than the four chunk operations are set-up helpers, never measured.
 */
public interface BenchFilter extends AutoCloseable {
    /** Adds the chunk's keys with one single-key call each; returns how many were new. */
    int addEach(KeyChunk keys);

    /** Adds the chunk's keys with the library's batch call (a peer without one: its single calls); returns how many were new. */
    int addBatch(KeyChunk keys);

    /** Queries the chunk's keys with one single-key call each; returns how many may be present. */
    int mightContainEach(KeyChunk keys);

    /** Queries the chunk's keys with the library's batch call (a peer without one: its single calls); returns how many may be present. */
    int mightContainBatch(KeyChunk keys);

    /** The bits the filter's cells take (its m for a one-bit filter), for the bits per key it actually uses. */
    long bits() throws IOException;

    /** Makes the filter empty again. */
    void clear() throws IOException;

    /**
     * Stores the filter at {@code target} (atomically, by rename) in the form its
     * {@link ComparedFilter#load} reads, then closes this handle.
     */
    void saveAndClose(Path target) throws IOException;

    @Override
    void close();
}
