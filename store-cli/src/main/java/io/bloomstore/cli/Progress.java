package io.bloomstore.cli;

import io.bloomstore.FilterBuilder;

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
    };

    /** Records that {@code done} units (bytes) are done in all. */
    @Override
    void update(long done);

    /** Finishes the display (a final newline for a bar). */
    @Override
    void close();
}
