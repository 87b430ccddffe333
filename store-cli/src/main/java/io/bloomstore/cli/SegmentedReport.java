package io.bloomstore.cli;

import io.bloomstore.FilterShape;
import io.bloomstore.FillStats;
import io.bloomstore.GrowingSpec;
import io.bloomstore.RegionStats;
import io.bloomstore.WindowSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code inspect} tells about a growing or windowed filter: the container's parameters, then
 * each segment or slot from one scan of its cells, and the rate of a query now. Its components are
 * the JSON output's fields, in order; those of the other kind are null (growth, ratio and max size
 * of a windowed filter; window, epochs and its two epochs of a growing one).
 *
 * @param kind "growing" or "windowed"
 * @param maxBytes the size limit of a growing file; null when it has none
 * @param currentEpoch a windowed filter's epoch now, by the clock (or the file's, if later): the one
 *     a query judges the window by, probing the slots of the L epochs up to it
 * @param rotatedEpoch a windowed filter's current epoch as the file holds it: the latest it rotated
 *     to, behind {@code currentEpoch} while nobody adds (the next add rotates it)
 * @param compoundFpp the false-positive rate of a query now, over the parts it probes
 * @param pastCapacity a windowed filter's: whether a live slot holds more than the N / L keys each
 *     slot was sized for ({@link WindowedBloomFilter#isPastCapacity}); null for a growing one
 * @param parts each segment (growing) or slot (windowed), in file order
 * @param containerBytes the container page at the start of the file
 * @param preparedBytes a growing file's next segment, written ahead but not published yet (0 if none)
 * @param unusedBytes the rest of the file: the container page, the parts and the prepared segment
 *     together with these make {@code fileBytes}
 * @param keysBeforeTableFull a growing file's: the keys after which its table of segments is full
 *     and adds fail; null when the table cannot fill (only the max size or the disk stop it), and
 *     for a windowed file
 * @param stepLock who holds the step lock of growths and rotations: "free", or the process and
 *     whether it runs, is stopped or has ended ({@code FilterShape.Growing#stepLock})
 */
record SegmentedReport(
        String file,
        String kind,
        long fileBytes,
        String layout,
        String seed,
        long expectedKeys,
        double targetFpp,
        Double growthFactor,
        Double tighteningRatio,
        Long maxBytes,
        Long windowMillis,
        Integer epochs,
        Long epochMillis,
        Long currentEpoch,
        Long rotatedEpoch,
        double compoundFpp,
        Boolean pastCapacity,
        List<Part> parts,
        long containerBytes,
        long preparedBytes,
        long unusedBytes,
        Long keysBeforeTableFull,
        String stepLock) {

    /**
     * One segment or slot; see {@link RegionStats}. {@code epoch} is null for a segment, and for a
     * slot being cleared; {@code estimatedKeys} is null when every cell is set.
     */
    record Part(int index, Long epoch, boolean probed, long cells, int hashes, long capacity, long publishedKeys,
            long setCells, double fillRatio, Double estimatedKeys, double targetFpp, double currentFpp, long bytes) {
    }

    /** Reports on a growing filter of {@code shape}, from its statistics {@code stats}. */
    static SegmentedReport of(Path file, FilterShape.Growing shape, FillStats stats) {
        GrowingSpec spec = shape.spec();
        return new SegmentedReport(file.toString(), "growing", shape.fileBytes(), Human.name(spec.layout()),
                Human.seed(spec.seed()), spec.expectedKeys(), spec.fpp(), spec.growthFactor(), spec.tighteningRatio(),
                spec.maxBytes() > 0 ? spec.maxBytes() : null, null, null, null, null, null, stats.currentFpp(), null,
                parts(stats, false), shape.headerBytes(), shape.preparedBytes(),
                unused(shape, shape.preparedBytes(), stats),
                spec.keysBeforeTableFull() == Long.MAX_VALUE ? null : spec.keysBeforeTableFull(), shape.stepLock());
    }

    /** Reports on a windowed filter of {@code shape}, from its statistics {@code stats}. */
    static SegmentedReport of(Path file, FilterShape.Windowed shape, FillStats stats, boolean pastCapacity) {
        WindowSpec spec = shape.spec();
        return new SegmentedReport(file.toString(), "windowed", shape.fileBytes(), Human.name(spec.layout()),
                Human.seed(spec.seed()), spec.expectedKeys(), spec.fpp(), null, null, null, spec.window().toMillis(),
                spec.epochs(), spec.window().toMillis() / spec.epochs(), shape.queryEpoch(), shape.currentEpoch(),
                stats.currentFpp(), pastCapacity, parts(stats, true), shape.headerBytes(), 0, unused(shape, 0, stats),
                null, shape.stepLock());
    }

    /** The bytes after the last region that nothing uses (a growth that failed and could not give them back). */
    private static long unused(FilterShape shape, long preparedBytes, FillStats stats) {
        return shape.fileBytes() - shape.headerBytes() - preparedBytes
                - stats.parts().stream().mapToLong(RegionStats::bytes).sum();
    }

    private static List<Part> parts(FillStats stats, boolean slots) {
        List<Part> parts = new ArrayList<>(stats.parts().size());
        for (RegionStats s : stats.parts()) {
            // a slot's epoch is a count of epochs since 1970; one being cleared holds a negative marker
            Long epoch = slots && s.epoch() >= 0 ? s.epoch() : null;
            parts.add(new Part(s.index(), epoch, s.probed(), s.cells(), s.hashes(), s.capacity(), s.publishedKeys(),
                    s.setCells(), s.fillRatio(), Double.isFinite(s.estimatedKeys()) ? s.estimatedKeys() : null,
                    s.targetFpp(), s.currentFpp(), s.bytes()));
        }
        return parts;
    }
}
