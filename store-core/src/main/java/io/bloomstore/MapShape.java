package io.bloomstore;

import io.bloomstore.internal.map.MapHeader;

/**
 * What a Bloomier map is ({@link BloomierMap#shape()}), from its header (docs/FORMAT.md, "Bloomier
 * maps: format version 5"). A map never changes once built, so this is its shape for good.
 *
 * @param fileBytes the file's length
 * @param pairs n, the distinct keys the map holds
 * @param valueBits R: values are 0 to 2^R − 1
 * @param fingerprintBits F: a key not in the map reads a value at the rate 2^−F
 * @param slots the table's slots, (S + 2) · L
 * @param segmentLength L, the slots of a segment of the fuse graph
 * @param segmentCount S, the segments a key's first slot falls in
 * @param seed the XXH3-64 seed keys are hashed with
 * @param constructionSeed the seed the construction peeled with
 * @param attempts the seeds the build tried (the last one peeled)
 * @param createdMillis when the map was built, in milliseconds since the epoch
 * @param tableChecksum the XXH3-64 checksum of the table that the header records
 */
public record MapShape(long fileBytes, long pairs, int valueBits, int fingerprintBits, long slots, int segmentLength,
        int segmentCount, long seed, long constructionSeed, int attempts, long createdMillis, long tableChecksum)
        implements FileShape {
    /** The shape a decoded header states. */
    static MapShape of(MapHeader header) {
        return new MapShape(header.fileLength(), header.pairs(), header.valueBits(), header.fingerprintBits(), header.slots(),
                header.segmentLength(), header.segmentCount(), header.keySeed(), header.constructionSeed(), header.attempts(),
                header.createdMillis(), header.tableChecksum());
    }

    @Override
    public FilterKind kind() {
        return FilterKind.MAP;
    }

    /**
     * The table, which {@link BloomierMap#verify()} reads whole: everything after the header page.
     *
     * @return in bytes
     */
    @Override
    public long scanBytes() {
        return fileBytes - MapHeader.TABLE_START;
    }

    /**
     * Always true: a map's table checksum is recorded by its build, and the file never changes.
     *
     * @return true
     */
    @Override
    public boolean sealed() {
        return true;
    }

    /**
     * 2^−F, the chance that a key not in the map reads a value instead of {@link BloomierMap#ABSENT}.
     *
     * @return the rate
     */
    public double absentKeyErrorRate() {
        return Math.scalb(1.0, -fingerprintBits);
    }

    /**
     * Table bits a key: slots · (R + F) / n.
     *
     * @return the bits; infinite for an empty map
     */
    public double bitsPerKey() {
        return (double) slots * (valueBits + fingerprintBits) / pairs;
    }
}
