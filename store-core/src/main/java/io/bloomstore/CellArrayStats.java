package io.bloomstore;

/**
 * How full one cell array is (a fixed filter's, the file's one array), from one scan of its cells:
 * the {@link FillStats} of a {@link BloomFilter}.
 *
 * @param cells m
 * @param setCells cells that are non-zero
 * @param fillRatio setCells / m
 * @param estimatedKeys distinct keys added, estimated from the fill (Swamidass &amp; Baldi);
 *     infinite when every cell is set
 * @param currentFpp the false-positive rate now, (setCells / m)^k
 * @param approximateInsertions adds recorded in the header (those that changed a cell); a
 *     lower bound after a crash, since each handle publishes its count on sync and close
 */
public record CellArrayStats(long cells, long setCells, double fillRatio, double estimatedKeys, double currentFpp,
        long approximateInsertions) implements FillStats {
}
