package io.bloomstore;

/**
 * How full one region of a file of regions is, a segment of a {@link GrowingBloomFilter} or a slot
 * of a {@link WindowedBloomFilter}, from one scan of its cells: a part of {@link SegmentedStats}.
 *
 * @param index the segment's place in the chain (0 = the first), or the slot's place in the ring
 * @param epoch a slot's epoch (floor(epoch millis / E)); 0 for a segment
 * @param probed whether a query now probes it (every segment; a slot of the live window)
 * @param cells m
 * @param hashes k
 * @param capacity the keys it was sized for
 * @param publishedKeys new keys counted into it by every handle so far (each handle publishes
 *     every few hundred keys, and at sync and close)
 * @param setCells non-zero cells
 * @param fillRatio setCells / m
 * @param estimatedKeys distinct keys estimated from the fill (Swamidass &amp; Baldi)
 * @param targetFpp the rate it was sized for, at capacity
 * @param currentFpp its false-positive rate now, from the fill
 * @param bytes the bytes it takes in the file: its header page and its cells, padded
 */
public record RegionStats(int index, long epoch, boolean probed, long cells, int hashes, long capacity,
        long publishedKeys, long setCells, double fillRatio, double estimatedKeys, double targetFpp,
        double currentFpp, long bytes) {
}
