package io.bloomstore.cli;

import io.bloomstore.MembershipFilter;

/**
 * When a command that adds keys warns, on stderr, that its filter went past its capacity
 * ({@link CliFilters#pastCapacity(MembershipFilter)} says what the warning says): after a batch of
 * keys, the first time the filter is past it, so that a dedup over a stream that never ends says so
 * when it happens rather than at an end that never comes; and at the end, if it has not warned yet,
 * or again if the rate has more than doubled since, so that a bounded run ends with the rate it
 * left. Between batches only counters are read; a windowed filter's rate takes a scan of its cells,
 * made only once it is past its capacity.
 */
final class CapacityWatch {
    private final MembershipFilter filter;
    private final CliStreams streams;
    /** Whether a progress bar is drawn on stderr now: a warning then starts a line of its own. */
    private boolean barShown;
    /** The rate the last warning named; NaN before the first. */
    private double warnedRate = Double.NaN;

    CapacityWatch(MembershipFilter filter, CliStreams streams) {
        this.filter = filter;
        this.streams = streams;
    }

    /** Says which progress display is on stderr from now on ({@link Progress#NONE} once it is closed). */
    void drawnOver(Progress progress) {
        barShown = progress != Progress.NONE;
    }

    /** After a batch of keys: warns if this is the first time the filter is past its capacity. */
    void afterBatch() {
        if (Double.isNaN(warnedRate)) {
            warn(0, barShown);
        }
    }

    /**
     * At the end of the command: warns if the filter is past its capacity and no warning said so
     * yet, or if the last one named less than half of the rate now.
     */
    void atEnd() {
        warn(Double.isNaN(warnedRate) ? 0 : 2 * warnedRate, barShown);
    }

    private void warn(double above, boolean midLine) {
        CliFilters.PastCapacity warning = CliFilters.pastCapacity(filter);
        if (warning != null && warning.rate() > above) {
            warning.printTo(streams, midLine);
            warnedRate = warning.rate();
        }
    }
}
