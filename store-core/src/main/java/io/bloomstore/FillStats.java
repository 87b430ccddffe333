package io.bloomstore;

import java.util.List;

/**
 * How full a whole filter file is, from one scan of its cells ({@link MembershipFilter#stats()}):
 * the fill statistics every kind reports the same way. A file of one cell array (a fixed filter) answers with
 * {@link CellArrayStats}; a file of regions (a growing chain's segments, a windowed ring's slots) with
 * {@link SegmentedStats}, which adds each region's own figures ({@link #parts()}).
 */
public sealed interface FillStats permits CellArrayStats, SegmentedStats {
    /**
     * The cells a query may probe.
     *
     * @return m, summed over the regions a query probes now
     */
    long cells();

    /**
     * The non-zero cells among {@link #cells()}.
     *
     * @return the count
     */
    long setCells();

    /**
     * How full the cells are.
     *
     * @return {@link #setCells()} / {@link #cells()}
     */
    double fillRatio();

    /**
     * The distinct keys a query may find, estimated from the fill (Swamidass &amp; Baldi).
     *
     * @return the estimate; infinite when every cell of a region is set
     */
    double estimatedKeys();

    /**
     * The false-positive rate of a query now: the chance that a key never added is reported present.
     *
     * @return a fraction from 0 to 1
     */
    double currentFpp();

    /**
     * The adds recorded in the headers (those that changed a cell), as published by every handle.
     *
     * @return the count; a lower bound after a crash, since each handle publishes on sync and close
     */
    long approximateInsertions();

    /**
     * Each region's own figures, in file order.
     *
     * @return the segments or slots; empty for a file of one cell array
     */
    default List<RegionStats> parts() {
        return List.of();
    }
}
