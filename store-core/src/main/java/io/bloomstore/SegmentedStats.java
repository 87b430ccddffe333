package io.bloomstore;

import java.util.List;
import java.util.stream.Stream;

/**
 * How full a file of regions is, a {@link GrowingBloomFilter} or {@link WindowedBloomFilter}: each
 * region's statistics ({@link RegionStats}) and the rate of a query, which probes several regions;
 * the {@link FillStats} of a {@link SegmentedFilter}.
 *
 * @param parts each segment or slot, in file order
 * @param compoundFpp the false-positive rate of a query now: 1 - prod(1 - currentFpp) over the
 *     probed parts (a false positive in any part makes the query one; the sum of the parts' rates
 *     bounds it from above)
 * @param targetFpp P, the rate the filter was created to stay under
 * @param fileBytes the file's length
 * @param containerBytes the container page at the start of the file (header, shared words, table)
 * @param preparedBytes a growing file's next segment, written ahead (when the newest is half full)
 *     but not published: no query reads it yet; 0 when there is none, and for a windowed file. The
 *     rest of the file, {@code fileBytes} less the container, the parts and this, is space after the
 *     last region that nothing uses (a growth that failed and could not give it back)
 */
public record SegmentedStats(List<RegionStats> parts, double compoundFpp, double targetFpp, long fileBytes,
        long containerBytes, long preparedBytes) implements FillStats {
    /**
     * A copy that cannot be changed.
     *
     * @param parts copied, so later changes to the given list do not show; not null
     * @param compoundFpp a fraction from 0 to 1
     * @param targetFpp a fraction strictly between 0 and 1
     * @param fileBytes in bytes
     * @param containerBytes in bytes
     * @param preparedBytes in bytes
     */
    public SegmentedStats {
        parts = List.copyOf(parts);
    }

    /** {@inheritDoc} Here: the compound rate, {@link #compoundFpp()}. */
    @Override
    public double currentFpp() {
        return compoundFpp;
    }

    @Override
    public long cells() {
        return probed().mapToLong(RegionStats::cells).sum();
    }

    @Override
    public long setCells() {
        return probed().mapToLong(RegionStats::setCells).sum();
    }

    @Override
    public double fillRatio() {
        long cells = cells();
        return cells == 0 ? 0 : (double) setCells() / cells;
    }

    @Override
    public double estimatedKeys() {
        return probed().mapToDouble(RegionStats::estimatedKeys).sum();
    }

    /** {@inheritDoc} Here: the keys published by the regions a query probes. */
    @Override
    public long approximateInsertions() {
        return probed().mapToLong(RegionStats::publishedKeys).sum();
    }

    private Stream<RegionStats> probed() {
        return parts.stream().filter(RegionStats::probed);
    }
}
