package io.bloomstore.cli;

import io.bloomstore.FilterBuilder;
import java.util.function.LongConsumer;

/**
 * Progress of a long job, shown on stderr or not at all. Updates are cheap enough to make once per
 * batch of keys or megabyte of data. A build's phases are such jobs, one after the other.
 */
interface Progress extends FilterBuilder.Phase {
    /** A progress that shows nothing. */
    Progress NONE = new Progress() {
        @Override
        public void update(long done) {
        }

        @Override
        public void close() {
        }

        @Override
        public LongConsumer callback() {
            return null;
        }
    };

    /**
     * This progress as the callback the library's scans take: null when nothing is shown, so that
     * a scan does no work for a display (verify reads the cells through first only for one).
     */
    default LongConsumer callback() {
        return this::update;
    }

    /** Records that {@code done} units (bytes) are done in all. */
    @Override
    void update(long done);

    /** Finishes the display (a final newline for a bar). */
    @Override
    void close();
}
